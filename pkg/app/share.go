package app

import (
	"context"
	"strings"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/interop"
	"github.com/git-convo/git-convo/pkg/share/interop/gitai"
	"github.com/git-convo/git-convo/pkg/share/notes"
	"github.com/git-convo/git-convo/pkg/share/trace"
)

// Sharing: the notes written after links change, the squash merges
// recognised from teammates' notes, and git-ai's logs.

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

// SharingOn reports convo.share for repo (a config read error is "off").
func SharingOn(ctx context.Context, repo *gitx.Repo) bool {
	s, err := NotesGit(repo).Settings(ctx)
	return err == nil && s.On
}

// SharedRefs is the shared notes refs repo holds: this clone's and every
// remote's fetched ones.
func SharedRefs(ctx context.Context, repo *gitx.Repo) ([]string, error) {
	return NotesGit(repo).SharedRefs(ctx)
}
