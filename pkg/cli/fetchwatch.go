package cli

import (
	"context"
	"errors"
	"io/fs"

	"github.com/git-convo/git-convo/pkg/fetchwatch"
	"github.com/git-convo/git-convo/pkg/notes"
	"github.com/git-convo/git-convo/pkg/store"
)

// fetchScanLimit is how many commits a plain git fetch brought one command
// examines for squash merges; the rest wait for the next command.
const fetchScanLimit = 100

// watchedNotes are the notes refs whose move by a fetch has the next
// command look again at the remote's last 100 commits: a squash merge
// fetched before the notes it matches had nothing to match then.
func watchedNotes() fetchwatch.Notes {
	return fetchwatch.Notes{Tracking: notes.TrackingPrefix, Suffix: notes.TrackingSuffix, Ref: notes.Ref, Recheck: 100}
}

// squashesAfterFetch recognises the squash merges that plain git fetches
// brought (git runs no hook on fetch), before a read command answers: the
// next batch of the commits they brought, attributed as git convo fetch
// does (with sharing on, written to refs/notes/convo for the next push).
// When a fetch moved teammates' notes it also looks again at the recent
// commits this clone has no links for. With no fetch since the last
// command it costs a stat of FETCH_HEAD and a read of a small stamp.
// Errors go to the log.
func squashesAfterFetch(ctx context.Context, env *Env) {
	common, ok := fetchwatch.Locate(".", env.Getenv)
	if !ok || !fetchwatch.Due(common) {
		return
	}
	b, err := fetchwatch.Take(ctx, ".", common, fetchScanLimit, watchedNotes())
	g := notes.Git{Dir: "."}
	if err == nil && len(b.Recheck) > 0 {
		var again []string
		again, err = unlinked(ctx, env, b.Recheck)
		b.Commits = append(b.Commits, again...)
	}
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

// unlinked keeps the commits of hashes that have no link in the local
// database: a commit this clone linked is its own work, not a squash merge.
func unlinked(ctx context.Context, env *Env, hashes []string) ([]string, error) {
	p, err := env.dbPath()
	if err != nil {
		return nil, err
	}
	s, err := store.Open(ctx, p, store.Options{MustExist: true, Now: env.Now, Resolver: resolver()})
	if errors.Is(err, store.ErrNotFound) {
		return hashes, nil // no database yet: nothing is linked
	}
	if err != nil {
		return nil, err
	}
	defer s.Close()
	linked, err := s.ConversationsForCommits(ctx, hashes)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, h := range hashes {
		if len(linked[h]) == 0 {
			out = append(out, h)
		}
	}
	return out, nil
}

// hasNotes reports whether any notes ref exists (read from the ref files
// when it can be): without notes there is nothing to match.
func hasNotes(ctx context.Context, g notes.Git) bool {
	refs, err := g.SharedRefs(ctx)
	return err != nil || len(refs) > 0
}
