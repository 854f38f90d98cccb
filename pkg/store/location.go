package store

import (
	"errors"
	"path/filepath"
	"runtime"

	"github.com/git-convo/git-convo/pkg/util/platform"
)

// DefaultPath is where links.sqlite lives: GIT_CONVO_DB, else the seed's
// CURSOR_LINKS_DB_PATH, else git-convo/ in the platform's per-user data
// directory (platform.DataDir). It is the
// user's file, not any one repository's. getenv is os.Getenv in production.
func DefaultPath(getenv func(string) string, goos string) (string, error) {
	for _, k := range []string{"GIT_CONVO_DB", "CURSOR_LINKS_DB_PATH"} {
		if v := getenv(k); v != "" {
			return filepath.Abs(v)
		}
	}
	if dir, ok := platform.DataDir(goos, getenv); ok {
		return platform.Join(goos, dir, "git-convo", "links.sqlite"), nil
	}
	return "", errors.New("cannot tell where to keep links.sqlite: HOME is not set (set GIT_CONVO_DB)")
}

// ContextDir is where the MCP server writes conversations as Markdown files
// (context files): git-convo/context/conversations in the platform's cache
// directory ($XDG_CACHE_HOME or ~/.cache on Linux, ~/Library/Caches on macOS,
// %LOCALAPPDATA% on Windows). `forget` removes a conversation's file from it.
func ContextDir(getenv func(string) string) (string, error) {
	return contextDirFor(getenv, runtime.GOOS)
}

func contextDirFor(getenv func(string) string, goos string) (string, error) {
	base, ok := platform.CacheDir(goos, getenv)
	if !ok {
		return "", errors.New("cannot tell where context files are: HOME is not set")
	}
	return platform.Join(goos, base, "git-convo", "context", "conversations"), nil
}
