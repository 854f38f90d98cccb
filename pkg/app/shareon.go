package app

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/interop"
	"github.com/git-convo/git-convo/pkg/share/notes"
	"github.com/git-convo/git-convo/pkg/share/trace"
	"github.com/git-convo/git-convo/pkg/store/repokey"
)

// Sharing on and off, and the note it would write.

// ShareOnRequest turns sharing on in a repository.
type ShareOnRequest struct {
	Prompts bool   // also share each conversation's first prompt (redacted)
	Remote  string // where notes go ("": origin)
	// AlsoGitAI also writes the attribution into refs/notes/ai as git-ai
	// authorship logs, from now on (never over git-ai's own; never pushed).
	AlsoGitAI bool
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
	// NotCarried is what an amend or a rebase after forget could not carry
	// to the new commits' notes (written all the same): a warning.
	NotCarried []error
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
	if req.AlsoGitAI {
		if err := interop.SetShareAlso(ctx, g, "git-ai"); err != nil {
			return out, err
		}
	}
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
	if out.Notes, out.NotCarried, err = g.UpdateProgress(ctx, s, hashes, out.Settings, a.cfg.Version, req.Progress); err != nil {
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
