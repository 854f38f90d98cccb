package notes

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"

	"github.com/git-convo/git-convo/pkg/git/gitx"
)

// FirstFetch brings remote's notes once, for install in a fresh clone:
// git clone fetched no notes, and the refspec install adds works only from
// the next fetch. It does nothing when remote does not exist, its notes
// were fetched before (the tracking ref exists) or it has none. When
// remote has notes that the fetch could not bring (offline, ctx's bound),
// their tip is kept in the state for Unfetched. fetched is how many notes
// the tracking ref holds after the fetch.
func (g Git) FirstFetch(ctx context.Context, remote string) (fetched int, err error) {
	remotes, err := g.Remotes(ctx)
	if err != nil || !slices.Contains(remotes, remote) {
		return 0, err
	}
	if tip, err := g.resolve(ctx, TrackingRef(remote)); err != nil || tip != "" {
		return 0, err
	}
	// Asking first costs one round trip and no objects: without it a
	// failed fetch could not tell "has notes" from "unreachable".
	out, err := g.run(ctx, nil, "ls-remote", "--refs", remote, Ref)
	if err != nil {
		return 0, err
	}
	tip, _, _ := strings.Cut(string(out), "\t")
	if tip == "" {
		return 0, nil
	}
	ferr := g.Fetch(ctx, remote)
	if err := g.SaveState(context.WithoutCancel(ctx), func(s *State) {
		if ferr == nil {
			delete(s.Unfetched, remote)
			return
		}
		if s.Unfetched == nil {
			s.Unfetched = map[string]string{}
		}
		s.Unfetched[remote] = tip
	}); err != nil || ferr != nil {
		return 0, errors.Join(ferr, err)
	}
	return g.Count(ctx, TrackingRef(remote))
}

// Unfetched names the remotes install saw holding notes it could not
// fetch, and from which no fetch has brought notes since (their tracking
// ref still does not exist). A read that finds no link asks it: a file
// read and a look at the refs, in process where git's files allow; never
// the network.
func (g Git) Unfetched(ctx context.Context) []string {
	var common string
	if abs, err := filepath.Abs(g.Dir); err == nil && g.getenv("GIT_DIR") == "" {
		if loc, ok := gitx.FindRepoForPath(abs); ok {
			common = loc.CommonDir
		}
	}
	if common == "" {
		var err error
		if _, common, err = g.where(ctx); err != nil {
			return nil
		}
	}
	s := loadState(filepath.Join(common, stateFile))
	if len(s.Unfetched) == 0 {
		return nil
	}
	refs, err := g.SharedRefs(ctx)
	if err != nil {
		return nil
	}
	var out []string
	for r := range s.Unfetched {
		if !slices.Contains(refs, TrackingRef(r)) {
			out = append(out, r)
		}
	}
	slices.Sort(out)
	return out
}
