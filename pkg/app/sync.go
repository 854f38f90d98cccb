package app

import (
	"context"
	"errors"
	"fmt"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/notes"
)

// Push and fetch: this clone's shared notes to a remote, and teammates'
// from it.

// notesOf opens the repository of dir for notes, with its sharing settings.
func notesOf(ctx context.Context, dir string) (notes.Git, notes.Settings, error) {
	repo, err := gitx.Open(ctx, dir, false)
	if err != nil {
		return notes.Git{}, notes.Settings{}, err
	}
	g := NotesGit(repo)
	s, err := g.Settings(ctx)
	return g, s, err
}

// Pushed is what Push did.
type Pushed struct {
	Remote string
	Notes  int // the notes on refs/notes/convo (counted when not a hook)
	Done   bool
}

// Push pushes this clone's shared notes (the repository of dir) to remote
// (default: the sharing remote), after rewriting the notes of HEAD's recent
// commits. A hook (pre-push) pushes nothing with sharing off, nor to
// another remote than the sharing one, and counts nothing.
func (a *App) Push(ctx context.Context, dir, remote string, hook bool) (Pushed, error) {
	var out Pushed
	g, s, err := notesOf(ctx, dir)
	if err != nil {
		return out, err
	}
	if !s.On {
		if hook {
			return out, nil
		}
		return out, errors.New("sharing is off in this repository: nothing is pushed (git convo share on turns it on)")
	}
	if remote == "" {
		remote = s.Remote
	}
	out.Remote = remote
	if hook && remote != s.Remote {
		return out, nil // notes go only where sharing sends them (convo.shareRemote)
	}
	a.refreshRecent(ctx, dir, g, s)
	err = g.Push(ctx, remote, s.Writer)
	_ = g.SaveState(ctx, func(st *notes.State) {
		if err != nil {
			st.LastPushError = err.Error()
			return
		}
		st.LastPush, st.LastPushError = a.cfg.Now(), ""
	})
	if err != nil {
		return out, err
	}
	out.Done = true
	if !hook {
		out.Notes, _ = g.Count(ctx, notes.Ref)
	}
	return out, nil
}

// recentCommits is how many of HEAD's commits a push refreshes the notes of.
const recentCommits = 100

// refreshRecent rewrites the notes of HEAD's recent commits before a push:
// links that arrived after a commit was recorded (the agent's own git
// commit reported a moment later, a late title) are shared too. Best effort.
func (a *App) refreshRecent(ctx context.Context, dir string, g notes.Git, s notes.Settings) {
	hashes, err := g.Recent(ctx, recentCommits)
	if err != nil || len(hashes) == 0 {
		return
	}
	a.BeforeRead(ctx, dir, readWait) // the spooled events and queued commits first
	st, err := a.OpenStore(ctx, true)
	if err != nil {
		return
	}
	defer st.Close()
	if _, err := g.Update(ctx, st, hashes, s, a.cfg.Version); err != nil {
		a.Log().Printf("share", "refreshing notes before a push: %v", err)
	}
	if _, err := a.WriteGitAI(ctx, g, st, hashes, s); err != nil {
		a.Log().Printf("interop", "writing git-ai logs before a push: %v", err)
	}
}

// Fetched is what Fetch did, filled in as it goes: a front end reports
// what is set even when Fetch fails part way.
type Fetched struct {
	Remote string
	// Deleted is how many notes the fetched notes delete (a teammate's
	// push can remove everyone's: it must not pass unseen).
	Deleted int
	// Restored is how many of this clone's own records the merge (sharing
	// on) had dropped and were written back.
	Restored int
	Counted  bool
	Notes    int // the remote's shared notes, once Counted
	Squashes int // squash merges attributed
}

// Fetch fetches remote's shared notes (default: the sharing remote) into
// its tracking ref, merges them into refs/notes/convo when sharing is on,
// and looks for squash merges among the remote's last commits.
func (a *App) Fetch(ctx context.Context, dir, remote string) (Fetched, error) {
	var out Fetched
	g, s, err := notesOf(ctx, dir)
	if err != nil {
		return out, err
	}
	if remote == "" {
		remote = s.Remote
	}
	out.Remote = remote
	before, _ := g.Tip(ctx, notes.TrackingRef(remote))
	if err := g.Fetch(ctx, remote); err != nil {
		return out, err
	}
	if after, err := g.Tip(ctx, notes.TrackingRef(remote)); err == nil && before != "" && after != before {
		if n, err := g.Deleted(ctx, before, after); err == nil {
			out.Deleted = n
		}
	}
	if s.On {
		if out.Restored, err = g.Merge(ctx, notes.TrackingRef(remote), s.Writer); err != nil {
			return out, err
		}
	}
	_ = g.SaveState(ctx, func(st *notes.State) { st.LastFetch = a.cfg.Now() })
	if out.Notes, err = g.Count(ctx, notes.TrackingRef(remote)); err != nil {
		return out, err
	}
	out.Counted = true
	if out.Squashes, err = a.AttributeSquashes(ctx, g, s, remote); err != nil {
		return out, fmt.Errorf("recognising squash merges: %w", err)
	}
	return out, nil
}
