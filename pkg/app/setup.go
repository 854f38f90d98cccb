package app

import (
	"context"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/interop"
	"github.com/git-convo/git-convo/pkg/share/notes"
)

// Sharing's plumbing in a repository: what install sets up (a plain git
// fetch brings teammates' notes; amend and rebase carry notes) and
// uninstall takes out.

// FirstFetchBound bounds install's fetch of the notes: install must not
// hang on a slow or unreachable remote.
const FirstFetchBound = 30 * time.Second

// SharingSetUp is what SetupSharing's first fetch did.
type SharingSetUp struct {
	Remote string // the sharing remote ("" when its settings were unreadable)
	Notes  int    // teammates' notes fetched
	// Unfetched: the remote has notes that could not be fetched now.
	Unfetched bool
	// Left is what remains of FirstFetchBound for install's other fetches
	// (git-ai's notes): an unreachable remote costs install one wait, not two.
	Left time.Duration
}

// SetupSharing sets up the notes fetch and rewriting in repo, then brings
// the sharing remote's notes once, in a fresh clone (git clone fetched
// none): without it, teammates' conversations would show only after a
// second fetch. The fetch never fails: what went wrong goes to the log,
// and a remote with notes it could not bring is named by the next read
// that finds no link.
func (a *App) SetupSharing(ctx context.Context, repo *gitx.Repo) (SharingSetUp, error) {
	g := NotesGit(repo)
	if _, err := g.Setup(ctx); err != nil {
		return SharingSetUp{}, fmt.Errorf("setting up notes: %w", err)
	}
	start := time.Now()
	out := a.firstFetch(ctx, g)
	out.Left = FirstFetchBound - time.Since(start)
	return out, nil
}

// firstFetch brings the sharing remote's notes once, within FirstFetchBound.
func (a *App) firstFetch(ctx context.Context, g notes.Git) SharingSetUp {
	var out SharingSetUp
	s, err := g.Settings(ctx)
	if err != nil {
		return out
	}
	out.Remote = s.Remote
	ctx, cancel := context.WithTimeout(ctx, FirstFetchBound)
	defer cancel()
	// No prompt for credentials: install is no place to ask for them.
	g.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
	if out.Notes, err = g.FirstFetch(ctx, s.Remote); err != nil {
		a.Log().Printf("share", "fetching %s's notes at install: %v", s.Remote, err)
		out.Notes, out.Unfetched = 0, slices.Contains(g.Unfetched(context.WithoutCancel(ctx)), s.Remote)
	}
	return out
}

// SharingTornDown is what TeardownSharing removed, and what it could not.
type SharingTornDown struct {
	Removed  []string // the git config entries removed
	NotesErr error    // the notes settings were not removed
	GitAIErr error    // the fetch of git-ai's notes was not removed
}

// TeardownSharing takes out what SetupSharing added to repo's git config
// (the notes fetch refspecs, notes.rewriteRef) and the fetch of git-ai's
// notes install added. Notes stay.
func (a *App) TeardownSharing(ctx context.Context, repo *gitx.Repo) SharingTornDown {
	var out SharingTornDown
	out.Removed, out.NotesErr = NotesGit(repo).Unsetup(ctx)
	gitAI, err := interop.UnsetupGitAI(ctx, NotesGit(repo)) // only the refspec install added
	out.GitAIErr = err
	out.Removed = append(out.Removed, gitAI...)
	return out
}

// SetupGitAI adds the fetch of the sharing remote's refs/notes/ai to repo
// when the remote has it (install), within bound, with no credential
// prompt; it never fails install (what went wrong is logged). added says
// the fetch was added, for remote.
func (a *App) SetupGitAI(ctx context.Context, repo *gitx.Repo, bound time.Duration) (remote string, added bool) {
	g := NotesGit(repo)
	s, err := g.Settings(ctx)
	if err != nil || bound <= 0 {
		return "", false
	}
	ctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	g.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
	added, err = interop.SetupGitAI(ctx, g, s.Remote)
	if err != nil {
		a.Log().Printf("interop", "git-ai's notes of %s at install: %v", s.Remote, err)
	}
	return s.Remote, added
}
