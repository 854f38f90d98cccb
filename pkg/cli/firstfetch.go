package cli

import (
	"context"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/git-convo/git-convo/pkg/share/notes"
	"github.com/git-convo/git-convo/pkg/util/term"
)

// firstFetchBound bounds install's fetch of the notes: install must not
// hang on a slow or unreachable remote.
const firstFetchBound = 30 * time.Second

// firstFetch brings the sharing remote's notes once, in a fresh clone
// (git clone fetched none): without it, teammates' conversations would
// show only after a second fetch. It never fails install: what went wrong
// goes to the log, and a remote with notes it could not bring is named by
// the next read that finds no link (notes.Unfetched).
func firstFetch(ctx context.Context, env *Env, g notes.Git) {
	s, err := g.Settings(ctx)
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, firstFetchBound)
	defer cancel()
	// No prompt for credentials: install is no place to ask for them.
	g.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
	n, err := g.FirstFetch(ctx, s.Remote)
	switch {
	case err != nil:
		env.log().Printf("share", "fetching %s's notes at install: %v", s.Remote, err)
		if slices.Contains(g.Unfetched(context.WithoutCancel(ctx)), s.Remote) {
			fmt.Fprintf(env.Stdout, "%s has shared notes that could not be fetched now: git fetch brings them\n", term.Line(s.Remote))
		}
	case n > 0:
		fmt.Fprintf(env.Stdout, "fetched %d shared note%s from %s (teammates' conversations)\n", n, plural(n), term.Line(s.Remote))
	}
}
