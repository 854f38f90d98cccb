package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-convo/git-convo/hooks/templates"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/write/githooks"
	"github.com/git-convo/git-convo/pkg/write/queue"
)

// git's hook files: git-convo's block in post-commit, post-merge,
// post-rewrite, and pre-push while the repository shares (install,
// uninstall, share on and off, doctor), through pkg/write/githooks.

// HookWritten is what install or uninstall did to one hook file.
type HookWritten struct {
	Path   string
	Result string // githooks' words: "installed", "updated", "not present"...
	// SharingOff: pre-push's block taken out because the repository does
	// not share.
	SharingOff bool
}

// refuseShared refuses to touch hooks every repository shares (a global
// or system core.hooksPath) unless shared: verb is install or uninstall.
func refuseShared(loc githooks.Location, shared bool, verb string) error {
	if !loc.Shared() || shared {
		return nil
	}
	what := "adds git-convo to"
	if verb == "uninstall" {
		what = "removes git-convo from"
	}
	return fmt.Errorf("the hooks directory %s is shared: core.hooksPath is set in your %s git config, so every repository "+
		"uses it and %s %s every one of them. Run `git convo %s --shared` if that is what you want", loc.Dir, loc.Scope, verb, what, verb)
}

// hookPath is the file git runs for hook in loc (a hook manager's own).
func hookPath(loc githooks.Location, hook string) string {
	if f := loc.ManagerFile(hook); f != "" {
		return f
	}
	return filepath.Join(loc.Dir, hook)
}

// InstallGitHooks writes git-convo's block, running exe, into repo's hook
// files (pre-push only while the repository shares; an older install's
// goes otherwise). It refuses a hook manager's directory and one inside
// the work tree unless force, and hooks every repository shares unless
// shared. The files written before an error are listed with it.
func (a *App) InstallGitHooks(ctx context.Context, repo *gitx.Repo, exe string, force, shared bool) ([]HookWritten, error) {
	loc, err := githooks.Locate(ctx, repo.TopLevel)
	if err != nil {
		return nil, err
	}
	if loc.Manager != "" && !force {
		return nil, fmt.Errorf("%s", loc.Advice())
	}
	if err := refuseShared(loc, shared, "install"); err != nil {
		return nil, err
	}
	if loc.InWorkTree && loc.Manager == "" && !force {
		return nil, fmt.Errorf("the hooks directory %s (core.hooksPath) is inside the work tree, so its files are usually committed "+
			"and shared with your team; git-convo's block names this machine's binary and queue, which do not belong there. "+
			"Run `git convo install --force` to write it anyway, and do not commit it", loc.Dir)
	}
	// The commit hooks append to the queue with the shell alone: its
	// directory must exist, and its path goes into the block.
	qdir, err := a.QueueDir()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(qdir, 0o700); err != nil {
		return nil, fmt.Errorf("creating the commit queue: %w", err)
	}
	sharing := SharingOn(ctx, repo)
	var out []HookWritten
	for _, name := range templates.Hooks() {
		path := hookPath(loc, name)
		if name == "pre-push" && !sharing {
			// A push in a repository that does not share starts nothing:
			// the block comes with `share on` (an older install's goes).
			if res, err := githooks.UninstallFile(path); err == nil && !strings.HasPrefix(res, "not present") {
				out = append(out, HookWritten{Path: path, Result: res, SharingOff: true})
			}
			continue
		}
		block, err := templates.Render(name, exe, filepath.Join(qdir, queue.FileName))
		if err != nil {
			return out, err
		}
		res, err := githooks.InstallFile(path, block)
		if err != nil {
			return out, fmt.Errorf("%s: %w", path, err)
		}
		out = append(out, HookWritten{Path: path, Result: res})
	}
	return out, nil
}

// UninstallGitHooks takes git-convo's block out of repo's hook files,
// leaving the rest as it was; hooks every repository shares only if
// shared. The files done before an error are listed with it.
func (a *App) UninstallGitHooks(ctx context.Context, repo *gitx.Repo, shared bool) ([]HookWritten, error) {
	loc, err := githooks.Locate(ctx, repo.TopLevel)
	if err != nil {
		return nil, err
	}
	if err := refuseShared(loc, shared, "uninstall"); err != nil {
		return nil, err
	}
	var out []HookWritten
	for _, name := range templates.Hooks() {
		path := hookPath(loc, name)
		res, err := githooks.UninstallFile(path)
		if err != nil {
			return out, fmt.Errorf("%s: %w", path, err)
		}
		out = append(out, HookWritten{Path: path, Result: res})
	}
	return out, nil
}

// InstallHook writes one git-convo hook block running exe (sharing's
// pre-push: no queue).
func (a *App) InstallHook(ctx context.Context, repo *gitx.Repo, exe, hook string) error {
	loc, err := githooks.Locate(ctx, repo.TopLevel)
	if err != nil {
		return err
	}
	if loc.Manager != "" {
		return errors.New(loc.Advice())
	}
	block, err := templates.Render(hook, exe, "") // pre-push: no queue
	if err != nil {
		return err
	}
	_, err = githooks.InstallFile(filepath.Join(loc.Dir, hook), block)
	return err
}

// UninstallHook takes one git-convo hook block out (sharing's pre-push, at
// share off: a push then starts no process).
func (a *App) UninstallHook(ctx context.Context, repo *gitx.Repo, hook string) error {
	loc, err := githooks.Locate(ctx, repo.TopLevel)
	if err != nil {
		return err
	}
	_, err = githooks.UninstallFile(hookPath(loc, hook))
	return err
}

// GitHooksHealth is doctor's finding per git hook of repo: git-convo's
// block there, executable, naming a binary that exists, this one (exe),
// in the current version.
func (a *App) GitHooksHealth(ctx context.Context, repo *gitx.Repo, exe string) []Finding {
	loc, err := githooks.Locate(ctx, repo.TopLevel)
	if err != nil {
		return []Finding{{Name: "git hooks", OK: false, Detail: err.Error()}}
	}
	var out []Finding
	sharing := SharingOn(ctx, repo)
	for _, name := range templates.Hooks() {
		if name == "pre-push" && !sharing {
			continue // installed by `share on` only
		}
		path := hookPath(loc, name)
		st := githooks.Inspect(path)
		c := Finding{Name: name, OK: st.Installed && st.Executable && st.BinaryExists, Detail: path}
		switch {
		case !st.Installed:
			c.Fix = "git convo install"
			c.Detail += ": no git-convo block"
		case !st.Executable:
			c.Fix = "chmod +x " + path
			c.Detail += ": not executable, git will not run it"
		case !st.BinaryExists:
			c.Fix = "reinstall git-convo, then git convo install (the hook names " + st.Binary + ")"
			c.Detail += ": the binary it names is gone"
		case st.Block == mustRender(name, st.Named, st.Queue) && !samePath(st.Named, exe):
			c.Warn = true
			c.Fix = "git convo install (to run " + exe + "), or leave it if " + st.Named + " is the git-convo you want"
			c.Detail += ": it names " + st.Named + ", not this git-convo (" + exe + ")"
			if st.Binary != st.Named {
				c.Detail += "; " + st.Named + " is gone, so " + st.Binary + " (on PATH) runs"
			}
		case st.Block != mustRender(name, st.Named, st.Queue):
			c.Warn = true
			c.Fix = "git convo install (upgrades the block)"
			c.Detail += ": an older block version"
		}
		out = append(out, c)
	}
	return out
}

// mustRender is the current block for hook naming bin and queue ("" on error).
func mustRender(hook, bin, queue string) string {
	b, err := templates.Render(hook, bin, queue)
	if err != nil {
		return ""
	}
	return b
}

// samePath reports whether a and b name the same file (symlinks resolved).
func samePath(a, b string) bool {
	if a == b {
		return true
	}
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb
}
