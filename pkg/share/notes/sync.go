package notes

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// FetchRefspec is the refspec that brings remote's notes into its tracking
// ref. Forced, but only into refs/notes/remotes/<remote>/: the live Ref is
// changed by merging, never by a fetch. The glob makes a remote without
// notes no error.
func FetchRefspec(remote string) string {
	return "+" + Ref + "*:" + TrackingRef(remote) + "*"
}

// identity is who the merge commits git notes writes are by: git-convo, so
// a clone without user.name can still merge.
var identity = []string{"GIT_AUTHOR_NAME=git-convo", "GIT_AUTHOR_EMAIL=git-convo@localhost",
	"GIT_COMMITTER_NAME=git-convo", "GIT_COMMITTER_EMAIL=git-convo@localhost"}

// Fetch brings remote's notes into its tracking ref.
func (g Git) Fetch(ctx context.Context, remote string) error {
	_, err := g.run(ctx, nil, "fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--no-recurse-submodules",
		remote, FetchRefspec(remote))
	if err != nil {
		return fmt.Errorf("fetching notes from %s: %w", remote, err)
	}
	return nil
}

// Merge merges the notes of ref (a remote's tracking ref) into Ref: a
// fast-forward when Ref has nothing of its own, else a merge commit with
// both parents, where notes on the same commit are united line by line
// (cat_sort_uniq: one record per line, so nothing is corrupted or lost).
// Then writer's own records that the merge dropped (a teammate deleted
// them and pushed) are written back; it returns how many notes that was.
func (g Git) Merge(ctx context.Context, ref, writer string) (int, error) {
	theirs, err := g.resolve(ctx, ref)
	if err != nil || theirs == "" {
		return 0, err
	}
	ours, err := g.resolve(ctx, Ref)
	if err != nil || ours == theirs {
		return 0, err
	}
	env := g.Env
	if env == nil {
		env = environ()
	}
	m := Git{Dir: g.Dir, Env: append(append([]string{}, env...), identity...)}
	if _, err := m.run(ctx, nil, "notes", "--ref="+Ref, "merge", "--quiet", "--strategy=cat_sort_uniq", ref); err != nil {
		return 0, fmt.Errorf("merging notes from %s: %w", ref, err)
	}
	n, err := g.restoreOwn(ctx, ours, writer)
	if err != nil {
		return n, fmt.Errorf("restoring this clone's notes after merging %s: %w", ref, err)
	}
	return n, nil
}

// Push sends Ref to remote without force. When the remote has moved (any
// rejection, whatever git's wording), it fetches, merges (restoring
// writer's records, see Merge) and tries again.
func (g Git) Push(ctx context.Context, remote, writer string) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if attempt > 0 {
			time.Sleep(time.Duration(attempt*attempt) * 100 * time.Millisecond)
			if ferr := g.Fetch(ctx, remote); ferr != nil {
				return ferr
			}
			if _, merr := g.Merge(ctx, TrackingRef(remote), writer); merr != nil {
				return merr
			}
		}
		var tip string
		if tip, err = g.resolve(ctx, Ref); err != nil || tip == "" {
			return err // nothing to push
		}
		// --no-verify: our own pre-push block must not run again.
		_, err = g.run(ctx, nil, "push", "--quiet", "--no-verify", remote, Ref+":"+Ref)
		if err == nil {
			// The remote now has tip: so does our view of it.
			_, _ = g.run(ctx, nil, "update-ref", TrackingRef(remote), tip)
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	return fmt.Errorf("pushing notes to %s: %w", remote, err)
}

// Remotes lists the repository's remotes.
func (g Git) Remotes(ctx context.Context) ([]string, error) {
	out, err := g.run(ctx, nil, "remote")
	if err != nil {
		return nil, err
	}
	return strings.Fields(string(out)), nil
}
