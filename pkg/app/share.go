package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/git-convo/git-convo/pkg/gitx"
	"github.com/git-convo/git-convo/pkg/interop"
	"github.com/git-convo/git-convo/pkg/interop/gitai"
	"github.com/git-convo/git-convo/pkg/notes"
	"github.com/git-convo/git-convo/pkg/repokey"
	"github.com/git-convo/git-convo/pkg/trace"
)

// Sharing: the notes written after links change, push, fetch, and the
// squash merges recognised from teammates' notes.

// NotesGit runs git for notes in repo's work tree (its git dir when bare).
func NotesGit(repo *gitx.Repo) notes.Git {
	if repo.TopLevel == "" {
		return notes.Git{Dir: repo.GitDir}
	}
	return notes.Git{Dir: repo.TopLevel}
}

// ShareAfter rewrites the notes of hashes (commits of the work tree at
// dir) after their links changed, when sharing is on; errors go to the
// log, as links were changed all the same.
func (a *App) ShareAfter(ctx context.Context, dir string, s *Store, hashes ...string) {
	if dir == "" {
		return
	}
	if _, err := notes.UpdateForCommits(ctx, dir, s, hashes, a.cfg.Version); err != nil {
		a.Log().Printf("share", "notes of %s: %v", strings.Join(shortHashes(hashes), ", "), err)
	}
}

func shortHashes(hs []string) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = gitx.ShortHash(h)
	}
	return out
}

// shareSoon rewrites, when the repository at dir shares, the note of the
// commit an agent just made, now linked to its conversation (the agent's
// own git commit, reported after the commit was recorded). On the agent's
// hook path it costs an in-process read of git's config; the note is
// written by a detached git-convo (GIT_CONVO_SYNC=1: here and now).
func (a *App) shareSoon(ctx context.Context, dir, rev string) {
	settings, err := gitx.LoadSettings(ctx, dir, a.cfg.Getenv)
	if err != nil {
		return
	}
	if on, _ := settings.Bool("convo.share"); !on {
		return
	}
	if a.cfg.Getenv("GIT_CONVO_SYNC") == "1" {
		a.RefreshNotes(ctx, dir, []string{rev})
		return
	}
	if err := a.spawn("share", "refresh", "--repo", dir, "--", rev); err != nil {
		a.Log().Printf("share", "starting the note update of %s: %v", rev, err)
	}
}

// RefreshNotes rewrites this clone's notes on revs from the store, when
// the repository at dir shares. Errors go to the log.
func (a *App) RefreshNotes(ctx context.Context, dir string, revs []string) {
	repo, err := gitx.Open(ctx, dir, true)
	if err == nil && len(revs) > 0 {
		var hashes []string
		if hashes, err = repo.RevParse(ctx, revs...); err == nil {
			var s *Store
			if s, err = a.OpenStore(ctx, true); err == nil {
				defer s.Close()
				a.ShareAfter(ctx, repo.TopLevel, s, hashes...)
			}
		}
	}
	if err != nil {
		a.Log().Printf("share", "updating the notes of %s: %v", strings.Join(revs, ", "), err)
	}
}

// AttributeSquashes gives the remote's squash merges the conversations of
// the commits they join: shared on the next push when this clone shares,
// else kept beside its git data (no ref is written with sharing off).
func (a *App) AttributeSquashes(ctx context.Context, g notes.Git, s notes.Settings, remote string) (int, error) {
	return a.attributeSquashesIn(ctx, g, s, "--remotes="+remote)
}

// attributeSquashesIn is AttributeSquashes for the commits git log selects
// with revs. A record derived with sharing on goes to the shared notes only
// from notes.DerivedShareMin; below it, and with sharing off, it stays in
// this clone. Either way it is written by the clone's random name, never
// by the user's e-mail.
func (a *App) attributeSquashesIn(ctx context.Context, g notes.Git, s notes.Settings, revs ...string) (int, error) {
	w, err := g.CloneWriter(ctx)
	if err != nil {
		return 0, err
	}
	s.Writer = w
	o, err := g.Options(ctx, s, a.cfg.Version)
	if err != nil {
		return 0, err
	}
	recs, err := g.SquashesIn(ctx, revs, o)
	if err != nil || len(recs) == 0 {
		return 0, err
	}
	local := map[string]trace.Record{}
	changes := map[string]*trace.Record{}
	for c, r := range recs {
		if s.On && notes.Shareable(r) {
			changes[c] = &r
		} else {
			local[c] = r
		}
	}
	if err := g.SaveDerived(ctx, local); err != nil {
		return 0, err
	}
	if len(changes) > 0 {
		_, err = g.Write(ctx, changes, s.Writer, "git-convo: squash merges")
	}
	return len(recs), err
}

// AlsoGitAI reports whether this repository asked git-convo to also write
// its attribution into refs/notes/ai (git convo share on --also git-ai).
func AlsoGitAI(ctx context.Context, g notes.Git) bool {
	v, _ := g.Config(ctx, interop.KeyShareAlso)
	return strings.Contains(","+v+",", ",git-ai,")
}

// WriteGitAI writes this clone's attribution of hashes into refs/notes/ai
// as git-ai authorship logs, where the commit has no note there yet; only
// when the repository asked for it (AlsoGitAI).
func (a *App) WriteGitAI(ctx context.Context, g notes.Git, st *Store, hashes []string, s notes.Settings) (int, error) {
	if !AlsoGitAI(ctx, g) || len(hashes) == 0 {
		return 0, nil
	}
	o, err := g.Options(ctx, s, a.cfg.Version)
	if err != nil {
		return 0, err
	}
	recs, err := g.Build(ctx, st, hashes, o)
	if err != nil {
		return 0, err
	}
	logs := map[string][]byte{}
	for h, r := range recs {
		b, err := interop.ToGitAI(h, r)
		if err != nil {
			a.Log().Printf("interop", "%.12s as a git-ai log: %v", h, err)
			continue
		}
		if l, _ := gitai.Parse(b); len(l.Files) > 0 {
			logs[h] = b
		}
	}
	return interop.WriteGitAI(ctx, g, logs)
}

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

// errSharingOff is Push's answer in a repository that does not share.
var errSharingOff = errors.New("sharing is off in this repository: nothing is pushed (git convo share on turns it on)")

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
		return out, errSharingOff
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

// ShareOnRequest turns sharing on in a repository.
type ShareOnRequest struct {
	Prompts bool   // also share each conversation's first prompt (redacted)
	Remote  string // where notes go ("": origin)
	// Hook installs sharing's pre-push hook (the front end's installer);
	// its failure is reported in SharedOn, not fatal.
	Hook func(ctx context.Context, repo *gitx.Repo) error
	// Progress hears how many commits' notes are written (nil: nothing).
	Progress func(done, total int)
}

// SharedOn is what ShareOn did.
type SharedOn struct {
	HookErr  error
	Notes    int // notes written on refs/notes/convo
	Settings notes.Settings
	// AlsoGitAI: the repository asked for git-ai logs too; GitAI of them
	// were written, or GitAIErr says why not.
	AlsoGitAI bool
	GitAI     int
	GitAIErr  error
}

// ShareOn turns sharing on in the repository of dir: it sets it up (git
// config, the notes fetch, the pre-push hook), records what is queued, and
// writes the notes of every commit already linked (and git-ai's logs when
// asked for).
func (a *App) ShareOn(ctx context.Context, dir string, req ShareOnRequest) (SharedOn, error) {
	var out SharedOn
	repo, err := gitx.Open(ctx, dir, false)
	if err != nil {
		return out, err
	}
	g := NotesGit(repo)
	if req.Remote != "" {
		remotes, err := g.Remotes(ctx)
		if err != nil {
			return out, err
		}
		if !slices.Contains(remotes, req.Remote) {
			return out, UsageError{fmt.Sprintf("--remote %s: no such remote (git remote lists: %s)", req.Remote, strings.Join(remotes, ", "))}
		}
	}
	if err := g.SetShare(ctx, true, req.Prompts, req.Remote); err != nil {
		return out, err
	}
	if _, err := g.Setup(ctx); err != nil {
		return out, err
	}
	if req.Hook != nil {
		out.HookErr = req.Hook(ctx, repo)
	}
	a.BeforeRead(ctx, dir, readWait) // the spooled events and queued commits first
	s, err := a.OpenStore(ctx, false)
	if err != nil {
		return out, err
	}
	defer s.Close()
	hashes, err := s.LinkedCommits(ctx, repokey.Of(repo.CommonDir))
	if err != nil {
		return out, err
	}
	if out.Settings, err = g.Settings(ctx); err != nil {
		return out, err
	}
	if out.Notes, err = g.UpdateProgress(ctx, s, hashes, out.Settings, a.cfg.Version, req.Progress); err != nil {
		return out, fmt.Errorf("writing notes: %w", err)
	}
	out.GitAI, out.GitAIErr = a.WriteGitAI(ctx, g, s, hashes, out.Settings)
	out.AlsoGitAI = out.GitAIErr == nil && AlsoGitAI(ctx, g)
	return out, nil
}

// ShareOff stops sharing in the repository of dir: no note is written or
// pushed from then on, nor any git-ai log; unhook takes out the pre-push
// hook (the front end's installer), and its failure, not fatal, is
// returned apart. Notes already pushed stay on the remote.
func (a *App) ShareOff(ctx context.Context, dir string, unhook func(ctx context.Context, repo *gitx.Repo) error) (hookErr, err error) {
	repo, err := gitx.Open(ctx, dir, false)
	if err != nil {
		return nil, err
	}
	g := NotesGit(repo)
	if err := g.SetShare(ctx, false, false, ""); err != nil {
		return nil, err
	}
	_ = interop.SetShareAlso(ctx, g, "") // no more git-ai logs either
	if unhook != nil {
		hookErr = unhook(ctx, repo)
	}
	return hookErr, nil
}

// PreviewNote is exactly the note sharing would write for the commit rev
// names in the repository of dir (as if with first prompts when prompts),
// and that commit; the note is nil when the commit has no linked
// conversation.
func (a *App) PreviewNote(ctx context.Context, dir, rev string, prompts bool) ([]byte, string, error) {
	repo, err := gitx.Open(ctx, dir, false)
	if err != nil {
		return nil, "", err
	}
	g := NotesGit(repo)
	hashes, err := repo.RevParse(ctx, rev)
	if err != nil {
		return nil, "", err
	}
	h := hashes[0]
	a.BeforeRead(ctx, dir, readWait) // the spooled events and queued commits first
	s, err := a.OpenStore(ctx, true)
	if err != nil {
		return nil, h, err
	}
	defer s.Close()
	settings, err := g.Settings(ctx)
	if err != nil {
		return nil, h, err
	}
	settings.Prompts = settings.Prompts || prompts
	o, err := g.Options(ctx, settings, a.cfg.Version)
	if err != nil {
		return nil, h, err
	}
	recs, err := g.Build(ctx, s, []string{h}, o)
	if err != nil {
		return nil, h, err
	}
	r, ok := recs[h]
	if !ok {
		return nil, h, nil
	}
	return notes.Encode([]trace.Record{r}), h, nil
}
