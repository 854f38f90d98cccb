package ingest

import (
	"context"
	"errors"
	"fmt"

	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/store"
)

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
	// The conversations read are written importBatch at a time, in one
	// transaction (store.Bulk); a batch that fails is written one by one,
	// as Enrich would, so a conversation that cannot be written is logged
	// and skipped alone.
	var pending []store.Enrichment
	write := func(ctx context.Context) {
		if err := w.Store.ApplyEnrichments(ctx, pending); err != nil {
			for _, e := range pending {
				if err := w.Store.ApplyEnrichment(ctx, e); err != nil {
					w.Log.Printf("import", "%s %s: %v", src.Name(), e.ConversationID, err)
					continue
				}
				ids = append(ids, e.ConversationID)
			}
		} else {
			for _, e := range pending {
				ids = append(ids, e.ConversationID)
			}
		}
		pending = pending[:0]
	}
	for i, r := range refs {
		if ctx.Err() != nil {
			write(context.WithoutCancel(ctx)) // what was read is kept
			return ids, i, ctx.Err()
		}
		if step != nil {
			step(i+1, len(refs))
		}
		root := r.Cwd
		if loc, ok := gitx.FindRepoForPath(root); ok {
			root = loc.TopLevel
		}
		e, err := w.read(ctx, src, r.ID, source.Hint{TranscriptPath: r.TranscriptPath}, []string{root})
		if err != nil {
			w.Log.Printf("import", "%s %s: %v", src.Name(), r.ID, err)
			continue
		}
		if pending = append(pending, e); len(pending) >= importBatch {
			write(ctx)
		}
	}
	write(ctx)
	return ids, len(refs), nil
}

// importBatch is how many conversations an import writes in one go.
const importBatch = 256

// Found is what ImportAll found and imported, for import's summary.
type Found struct {
	// IDs of every conversation found, imported now or by an earlier run
	// (LinkPast links them all, so a run after an interrupted one finishes).
	IDs      []string
	Imported int
	// Via counts the conversations found per association (source.Ref.Via),
	// and under its agent's name those of an agent with one way only.
	Via map[string]int
	// PerAgent counts the conversations found per agent (Source.Name).
	PerAgent map[string]int
}

// ImportProgress reports ImportAll's progress; either may be nil.
type ImportProgress struct {
	// Listing is called before an agent's conversations are listed.
	Listing func(src source.Source)
	// Step is called as ImportRefs calls step, for the agent importing.
	Step func(src source.Source, i, n int)
}

// ImportAll lists the past conversations of every agent in srcs whose
// working directory lies in roots (a repository's work trees), then
// imports at most limit of them (0: all), the agents' in the order of
// srcs. An agent without its conversations store (source.ErrNotFound) is
// skipped when another found some; with nothing found anywhere, its error
// says there is nothing to import. When ctx ends it stops with Interrupted.
func (w Writer) ImportAll(ctx context.Context, srcs []source.Source, roots []string, limit int, p ImportProgress) (Found, error) {
	out := Found{Via: map[string]int{}, PerAgent: map[string]int{}}
	refs := make([][]source.Ref, len(srcs))
	var missing, failed error
	for i, src := range srcs {
		if p.Listing != nil {
			p.Listing(src)
		}
		r, err := src.ListConversations(ctx, roots)
		switch {
		case err != nil && ctx.Err() != nil:
			return out, Interrupted{Err: ctx.Err(), What: "finding conversations"}
		case errors.Is(err, source.ErrNotFound) && missing == nil:
			missing = err
		case err != nil && !errors.Is(err, source.ErrNotFound) && failed == nil:
			failed = err
		}
		if err != nil {
			continue
		}
		refs[i] = r
		out.PerAgent[src.Name()] = len(r)
		for _, ref := range r {
			out.IDs = append(out.IDs, ref.ID)
			for _, v := range ref.Via {
				out.Via[v]++
			}
			if len(ref.Via) == 0 {
				out.Via[src.Name()]++
			}
		}
	}
	switch {
	case len(out.IDs) == 0 && failed != nil:
		return out, fmt.Errorf("%v: nothing to import", failed)
	case len(out.IDs) == 0 && missing != nil:
		return out, fmt.Errorf("%v: nothing to import", missing)
	case failed != nil:
		return out, failed
	}
	total := len(out.IDs)
	if limit > 0 && total > limit {
		total = limit
	}
	attempted := 0
	for i, src := range srcs {
		todo := refs[i]
		if left := total - attempted; len(todo) > left {
			todo = todo[:left]
		}
		if len(todo) == 0 {
			continue
		}
		var step func(i, n int)
		if p.Step != nil {
			step = func(i, n int) { p.Step(src, i, n) }
		}
		ids, done, err := w.ImportRefs(ctx, src, todo, step)
		if err != nil && ctx.Err() != nil {
			return out, Interrupted{Err: err, What: fmt.Sprintf("%d of %d conversations imported", attempted+done, total)}
		}
		if err != nil {
			return out, err
		}
		out.Imported += len(ids)
		attempted += done
	}
	return out, nil
}
