// Package app is git-convo's application layer: what a front end (the CLI,
// the MCP server, the pull-request view) asks of git-convo, computed once
// for all of them. It opens the store and the notes of a repository, runs
// the drains before a read, merges the local links with teammates' shared
// notes, and does link, unlink, share, push, fetch and squash attribution
// with all their effects. Front ends parse, print and map tool schemas;
// they call this package, and get their App from their composition root.
package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/git-convo/git-convo/pkg/agents"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/store/repokey"
	"github.com/git-convo/git-convo/pkg/util/errlog"
)

// Config is what the application takes from the outside world.
type Config struct {
	// Getenv reads the environment (GIT_CONVO_DB, GIT_CONVO_SYNC, the
	// agents' data paths).
	Getenv func(string) string
	Now    func() time.Time
	// Agents are the agents this git-convo knows (the composition root's
	// registry); nil knows none.
	Agents *agents.Registry
	// Version is git-convo's, written into the notes it shares.
	Version string
	// Stderr gets a hook's problem as one line (agents show their hooks'
	// stderr); nil: nowhere.
	Stderr io.Writer
	// Spawn starts git-convo with args in the background, detached, and
	// does not wait (a hook's follow-up work); nil: nothing is started,
	// the failure is logged.
	Spawn func(args ...string) error
}

// App is git-convo's application for one process. It holds no open
// resource: every call opens what it needs (or is handed an open store).
type App struct{ cfg Config }

// New returns the application for cfg.
func New(cfg Config) *App {
	if cfg.Getenv == nil {
		cfg.Getenv = func(string) string { return "" }
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &App{cfg: cfg}
}

// Agents is the registry the application was given.
func (a *App) Agents() *agents.Registry { return a.cfg.Agents }

// Version is git-convo's version, as the notes record it.
func (a *App) Version() string { return a.cfg.Version }

// Now is the application's clock.
func (a *App) Now() time.Time { return a.cfg.Now() }

// Getenv reads the application's environment.
func (a *App) Getenv(k string) string { return a.cfg.Getenv(k) }

// DBPath is where links.sqlite lives.
func (a *App) DBPath() (string, error) { return store.DefaultPath(a.cfg.Getenv, runtime.GOOS) }

// Log is the error log beside the links database (doctor shows it).
func (a *App) Log() errlog.Log {
	p, err := a.DBPath()
	if err != nil {
		return errlog.Log{}
	}
	return errlog.Log{Path: errlog.PathBeside(p), Now: a.cfg.Now}
}

// Store is links.sqlite, open (the application's one way to reach it).
type Store = store.Store

// OpenStore opens links.sqlite. Read commands pass mustExist so a missing
// database gets a message saying how to start, instead of an empty result.
func (a *App) OpenStore(ctx context.Context, mustExist bool) (*Store, error) {
	return a.OpenStoreWith(ctx, store.Options{MustExist: mustExist})
}

// OpenStoreWith is OpenStore with the store's options (a busy timeout, a
// read-only open); the clock and the prototype's resolver are the
// application's.
func (a *App) OpenStoreWith(ctx context.Context, opts store.Options) (*Store, error) {
	p, err := a.DBPath()
	if err != nil {
		return nil, err
	}
	opts.Now, opts.Resolver = a.cfg.Now, repokey.Resolver()
	s, err := store.Open(ctx, p, opts)
	if err == nil && !opts.MustExist {
		// While the disk has room: the record lets doctor report a later full disk.
		errlog.Prepare(errlog.PathBeside(p))
	}
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("no git-convo database yet at %s: run `git convo install` in a repository, then work with Cursor's agent and commit (or set GIT_CONVO_DB)", p)
	}
	return s, err
}

// OpenReadStore opens links.sqlite for a read. Before the first commit is
// recorded there is no database: the read then answers as git does, with
// no conversations, from an empty store in memory, and never creates the
// file. The hint says why nothing is linked, for a person at a terminal.
func (a *App) OpenReadStore(ctx context.Context) (*Store, string, error) {
	p, err := a.DBPath()
	if err != nil {
		return nil, "", err
	}
	s, err := store.Open(ctx, p, store.Options{MustExist: true, Now: a.cfg.Now, Resolver: repokey.Resolver()})
	if !errors.Is(err, store.ErrNotFound) {
		return s, "", err
	}
	s, err = store.OpenEmpty(ctx, a.cfg.Now)
	hint := fmt.Sprintf("hint: no conversations recorded yet (no database at %s): run `git convo install`, work with Cursor's agent and commit", p)
	return s, hint, err
}

// openExisting opens links.sqlite when there is one: nil, nil when not.
func (a *App) openExisting(ctx context.Context) (*Store, error) {
	p, err := a.DBPath()
	if err != nil {
		return nil, err
	}
	s, err := store.Open(ctx, p, store.Options{MustExist: true, Now: a.cfg.Now, Resolver: repokey.Resolver()})
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	return s, err
}
