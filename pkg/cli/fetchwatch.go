package cli

import (
	"context"
	"errors"
	"io/fs"

	"github.com/git-convo/git-convo/pkg/fetchwatch"
	"github.com/git-convo/git-convo/pkg/notes"
)

// fetchScanLimit is how many commits a plain git fetch brought one command
// examines for squash merges; the rest wait for the next command.
const fetchScanLimit = 100

// squashesAfterFetch recognises the squash merges that plain git fetches
// brought (git runs no hook on fetch), before a read command answers: the
// next batch of the commits they brought, attributed as git convo fetch
// does (with sharing on, written to refs/notes/convo for the next push).
// With no fetch since the last command it costs a stat of FETCH_HEAD and a
// read of a small stamp. Errors go to the log.
func squashesAfterFetch(ctx context.Context, env *Env) {
	common, ok := fetchwatch.Locate(".", env.Getenv)
	if !ok || !fetchwatch.Due(common) {
		return
	}
	b, err := fetchwatch.Take(ctx, ".", common, fetchScanLimit)
	g := notes.Git{Dir: "."}
	if err == nil && len(b.Commits) > 0 && hasNotes(ctx, g) {
		var s notes.Settings
		if s, err = g.Settings(ctx); err == nil {
			_, err = attributeSquashesIn(ctx, g, s, append([]string{"--no-walk"}, b.Commits...)...)
		}
	}
	if err != nil && !errors.Is(err, fs.ErrPermission) { // a read-only repository is no fault
		env.log().Printf("share", "recognising squash merges after a fetch: %v", err)
	}
}

// hasNotes reports whether any notes ref exists (read from the ref files
// when it can be): without notes there is nothing to match.
func hasNotes(ctx context.Context, g notes.Git) bool {
	refs, err := g.SharedRefs(ctx)
	return err != nil || len(refs) > 0
}
