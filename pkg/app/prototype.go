package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/store/repokey"
)

// The Node prototype's links.sqlite (cursor-chat-history-mcp): found at
// its default place, and copied into git-convo's (import --from-prototype).

// PrototypeCounts is what a prototype import copied.
type PrototypeCounts = store.PrototypeCounts

// PrototypePath is the prototype's links.sqlite at its default location,
// when it is there and is not git-convo's own database (a user who pointed
// CURSOR_LINKS_DB_PATH at it has it adopted in place instead).
func (a *App) PrototypePath() (string, bool) {
	p, err := store.DefaultPrototypePath(a.cfg.Getenv, runtime.GOOS)
	if err != nil {
		return "", false
	}
	if fi, err := os.Stat(p); err != nil || fi.IsDir() {
		return "", false
	}
	if ours, err := a.DBPath(); err == nil && sameFile(ours, p) {
		return "", false
	}
	return p, true
}

// PrototypeImportedAt is when the prototype's database at p was imported
// ("" if never), read without creating git-convo's database.
func (a *App) PrototypeImportedAt(ctx context.Context, p string) string {
	dbPath, err := a.DBPath()
	if err != nil {
		return ""
	}
	s, err := store.Open(ctx, dbPath, store.Options{MustExist: true, Resolver: repokey.Resolver()})
	if err != nil {
		return ""
	}
	defer s.Close()
	at, _ := s.Meta(ctx, store.PrototypeImportedKey(p))
	return at
}

// ImportPrototype copies the conversations, commits and links of the
// prototype's database at path (default: its own location) into
// git-convo's, or for a dry run into a throwaway copy; the prototype's
// file is only read. abs is the file it read.
func (a *App) ImportPrototype(ctx context.Context, dir, path string, dryRun bool) (n PrototypeCounts, abs string, err error) {
	if path == "" {
		if path, err = store.DefaultPrototypePath(a.cfg.Getenv, runtime.GOOS); err != nil {
			return n, "", err
		}
	}
	if abs, err = filepath.Abs(path); err != nil {
		return n, "", err
	}
	if _, err := os.Stat(abs); err != nil {
		return n, abs, fmt.Errorf("no prototype database at %s: name it (git convo import --from-prototype <path>)", abs)
	}
	if ours, err := a.DBPath(); err == nil && sameFile(ours, abs) {
		return n, abs, fmt.Errorf("%s is git-convo's own database (GIT_CONVO_DB / CURSOR_LINKS_DB_PATH): a prototype database there is adopted in place when opened, nothing to import", abs)
	}
	s, cleanup, err := a.importStore(ctx, dir, dryRun)
	if err != nil {
		return n, abs, err
	}
	defer cleanup()
	if n, err = s.ImportPrototype(ctx, abs, *repokey.Resolver()); err != nil {
		return n, abs, fmt.Errorf("importing %s: %w", abs, err)
	}
	return n, abs, nil
}

func sameFile(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}
