package cli

import (
	"context"
	"fmt"
	"sync"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/app"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/util/term"
)

// readFlags are the flags every read command shares.
func readFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "json", Usage: "print JSON (JSON Lines for several objects)"},
		&cli.StringFlag{Name: "color", Value: "auto", Usage: "color the output: auto, always or never (NO_COLOR and color.convo / color.ui are honoured)"},
		&cli.BoolFlag{Name: "no-pager", Usage: "do not pipe the output into the pager"},
	}
}

// readContext is what a read command works with: the repository, the
// terminal (color, pager, JSON), and the read's data, which pkg/app's
// Reader answers.
type readContext struct {
	env   *Env
	repo  *gitx.Repo
	io    *term.IO
	json  bool
	pager bool
	// terminal: git's isatty(1) || pager_in_use(), what log.decorate=auto
	// and color "auto" take for a terminal.
	terminal bool
	// gitColor: what git-convo prints of git's (show's header, log's
	// --oneline line) is colored, as git decides: --color, else color.diff
	// (falling back to color.ui), TERM and color.pager. NO_COLOR, which
	// git ignores, turns it off too: the user asked for no color at all.
	gitColor bool
	gitPal   *term.Palette // the palette for it

	// The read's data (app.Reader): the store, opened in the background
	// while git works, teammates' shared notes and other tools' records.
	*app.Reader

	settings func() *gitx.Settings // git's configuration, loaded on first use (nil: unreadable)
	// settingsInProcess: git's configuration as read from its files, once
	// (false where git must be asked: includes, git -c).
	settingsInProcess func() (*gitx.Settings, bool)
}

func newReadContext(ctx context.Context, env *Env, c *cli.Context) (*readContext, error) {
	return newReadContextWith(ctx, env, c.String("color"), c.Bool("json"), !c.Bool("no-pager"))
}

func newReadContextWith(ctx context.Context, env *Env, color string, json, pager bool) (*readContext, error) {
	return newReadContextNotes(ctx, env, color, json, pager, app.ReaderOptions{})
}

// newReadContextNotes is newReadContextWith with the reader's options: log
// reads notes with git log (InlineNotes).
func newReadContextNotes(ctx context.Context, env *Env, color string, json, pager bool, ro app.ReaderOptions) (*readContext, error) {
	if color != "auto" && color != "always" && color != "never" {
		return nil, usagef("--color=%s: want auto, always or never", color)
	}
	// git itself says "not a git repository" when it is run; asking first
	// would cost every read command a subprocess.
	repo := gitx.Here(".")
	// git checks safe.directory for its own commands, never for ours: a
	// repository someone else owns is read (its config, its pager) only
	// once git takes it. A few stats; git runs only when they doubt.
	if !gitx.OwnedAsGitWants(".", env.Getenv) {
		if err := repo.CheckOwnership(ctx); err != nil {
			return nil, err
		}
	}
	repo.Stderr = env.Stderr // git's warnings and hints, as git writes them
	io := term.New(env.Stdin, env.Stdout, env.Stderr, env.StdoutTTY, env.StderrTTY, env.Getenv)
	if json {
		color = "never" // JSON is never colored: no git config to ask
	}
	// The drains, the store and the shared notes start in the background.
	rc := &readContext{env: env, repo: repo, io: io, json: json, pager: pager, Reader: env.app().OpenReader(ctx, repo, ".", ro)}
	// color.convo / color.ui and the pager, read in process (no git):
	// the same read show's own answer takes (settingsInProcess).
	rc.settingsInProcess = sync.OnceValues(func() (*gitx.Settings, bool) { return gitx.LoadSettingsInProcess(".", env.Getenv) })
	rc.settings = sync.OnceValue(func() *gitx.Settings {
		if s, ok := rc.settingsInProcess(); ok {
			return s
		}
		s, err := gitx.LoadSettings(ctx, ".", env.Getenv)
		if err != nil {
			return nil
		}
		return s
	})
	rc.terminal = env.StdoutTTY || term.PagerInUse(env.Getenv)
	colorTTY := rc.terminal
	if color == "auto" && (rc.willPage() || !env.StdoutTTY && rc.terminal) {
		colorTTY = rc.pagerColor() // git's color.pager, for its pager or ours
	}
	io.SetColor(color, colorTTY, func(stdoutTTY bool) (bool, bool) {
		if s := rc.settings(); s != nil {
			return s.ColorBool("color.convo", stdoutTTY, env.Getenv)
		}
		return false, false
	})
	switch {
	case color != "auto":
		rc.gitColor = color == "always"
	case env.Getenv("NO_COLOR") != "":
	case rc.settings() != nil:
		rc.gitColor, _ = rc.settings().ColorBool("color.diff", colorTTY, env.Getenv)
	}
	if io.ColorEnabled() || rc.gitColor {
		if s := rc.settings(); s != nil {
			io.SetGitColors(s.Get)
		}
	}
	rc.gitPal = io.Palette().GitColored(rc.gitColor)
	return rc, nil
}

func (rc *readContext) Close() {
	_ = rc.io.StopPager() // flushes output even when no pager ran
	if hint := rc.Reader.Close(); hint != "" && rc.env.StderrTTY {
		fmt.Fprintln(rc.env.Stderr, hint)
	}
}

// startPager pipes text output into the user's pager (git var GIT_PAGER)
// when stdout is a terminal; never for JSON.
func (rc *readContext) startPager() {
	if rc.willPage() {
		_ = rc.io.StartPager(rc.settings().Pager(rc.env.lookupEnv))
	}
}

// willPage says whether startPager runs a pager: text for a terminal, no
// --no-pager, no pager running already, and a pager that is not cat
// (git --no-pager and pager.convo=false reach us as GIT_PAGER=cat).
func (rc *readContext) willPage() bool {
	if rc.json || !rc.pager || !rc.io.StdoutTTY() || term.PagerInUse(rc.env.Getenv) {
		return false
	}
	s := rc.settings()
	if s == nil {
		return false
	}
	p := s.Pager(rc.env.lookupEnv)
	return p != "" && p != "cat"
}

// pagerColor is git's color.pager: whether "auto" colors output that goes
// through a pager (true unless set false).
func (rc *readContext) pagerColor() bool {
	s := rc.settings()
	if s == nil {
		return true
	}
	if _, set := s.Get("color.pager"); !set {
		return true
	}
	on, ok := s.Bool("color.pager")
	return on || !ok
}

// gitPalette colors what git-convo prints of git's as git would (gitColor).
func (rc *readContext) gitPalette() *term.Palette { return rc.gitPal }

func (rc *readContext) stopPager() { _ = rc.io.StopPager() }

// ioErr hides the broken pipe of a pager the user quit early.
func (rc *readContext) ioErr(err error) error {
	if term.IsBrokenPipe(err) {
		return nil
	}
	return err
}

// lookupEnv is Env.LookupEnv, or Getenv's non-empty values without one.
func (env *Env) lookupEnv(key string) (string, bool) {
	if env.LookupEnv != nil {
		return env.LookupEnv(key)
	}
	v := env.Getenv(key)
	return v, v != ""
}
