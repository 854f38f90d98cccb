package ingest

import (
	"context"
	"fmt"

	"github.com/git-convo/git-convo/pkg/gitx"
	"github.com/git-convo/git-convo/pkg/source"
)

// Import records the past conversations of src whose working directory
// lies in roots (a repository's work trees), with their edits and times:
// ImportRefs of src.ListConversations.
func (w Writer) Import(ctx context.Context, src source.Source, roots []string, step func(i, total int)) (ids []string, done int, err error) {
	refs, err := src.ListConversations(ctx, roots)
	if err != nil || len(refs) == 0 {
		return nil, 0, err
	}
	return w.ImportRefs(ctx, src, refs, step)
}

// ImportRefs records the past conversations refs of src (from its
// ListConversations), each enriched with the work tree it lies in. step,
// when given, is called with i = 0 once the total is known, then before
// each conversation (1-based). It returns the ids it imported and how many
// conversations it went through; a conversation it cannot read is logged
// and skipped, and when ctx ends it stops with ctx's error. A source that
// is a source.Opener reads them all through one handle.
func (w Writer) ImportRefs(ctx context.Context, src source.Source, refs []source.Ref, step func(i, total int)) (ids []string, done int, err error) {
	if o, ok := src.(source.Opener); ok {
		opened, closeFn, err := o.Open(ctx)
		if err != nil {
			return nil, 0, fmt.Errorf("%s: %w", src.Name(), err)
		}
		defer closeFn()
		src = opened
	}
	if step != nil {
		step(0, len(refs))
	}
	for i, r := range refs {
		if ctx.Err() != nil {
			return ids, i, ctx.Err()
		}
		if step != nil {
			step(i+1, len(refs))
		}
		root := r.Cwd
		if loc, ok := gitx.FindRepoForPath(root); ok {
			root = loc.TopLevel
		}
		if err := w.Enrich(ctx, src, r.ID, source.Hint{TranscriptPath: r.TranscriptPath}, []string{root}); err != nil {
			w.Log.Printf("import", "%s %s: %v", src.Name(), r.ID, err)
			continue
		}
		ids = append(ids, r.ID)
	}
	return ids, len(refs), nil
}
