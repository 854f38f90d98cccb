package store

import (
	"errors"
	"path/filepath"

	"github.com/git-convo/git-convo/pkg/platform"
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
