package cli

import (
	"context"
	"errors"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/gitx"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/term"
)

// readFlags are the flags every read command shares.
func readFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "json", Usage: "print JSON (JSON Lines for several objects)"},
		&cli.StringFlag{Name: "color", Value: "auto", Usage: "color the output: auto, always or never (NO_COLOR and color.convo / color.ui are honoured)"},
		&cli.BoolFlag{Name: "no-pager", Usage: "do not pipe the output into the pager"},
	}
}

// readContext is what a read command works with: the repository, the store,
// and the terminal (color, pager, JSON).
type readContext struct {
	env   *Env
	repo  *gitx.Repo
	store *store.Store
	io    *term.IO
	json  bool
	pager bool
}

func newReadContext(ctx context.Context, env *Env, c *cli.Context) (*readContext, error) {
	return newReadContextWith(ctx, env, c.String("color"), c.Bool("json"), !c.Bool("no-pager"))
}

func newReadContextWith(ctx context.Context, env *Env, color string, json, pager bool) (*readContext, error) {
	if color != "auto" && color != "always" && color != "never" {
		return nil, usagef("--color=%s: want auto, always or never", color)
	}
	repo, err := gitx.Open(ctx, ".", false)
	if err != nil {
		return nil, err
	}
	s, err := env.openStore(ctx, true)
	if err != nil {
		return nil, err
	}
	io := term.New(env.Stdin, env.Stdout, env.Stderr, env.StdoutTTY, env.StderrTTY, env.Getenv)
	io.SetColor(color, func(stdoutTTY bool) (bool, bool) {
		return repo.ColorBool(ctx, "color.convo", stdoutTTY)
	})
	return &readContext{env: env, repo: repo, store: s, io: io, json: json, pager: pager}, nil
}

func (rc *readContext) Close() { rc.store.Close() }

// startPager pipes text output into the user's pager (git var GIT_PAGER)
// when stdout is a terminal; never for JSON.
func (rc *readContext) startPager() {
	if rc.json || !rc.pager {
		return
	}
	pager, err := rc.repo.Pager(context.Background())
	if err != nil {
		return
	}
	_ = rc.io.StartPager(pager)
}

func (rc *readContext) stopPager() { rc.io.StopPager() }

// ioErr hides the broken pipe of a pager the user quit early.
func (rc *readContext) ioErr(err error) error {
	if errors.Is(err, syscall.EPIPE) {
		return nil
	}
	return err
}
