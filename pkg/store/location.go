package store

import (
	"errors"
	"path/filepath"
)

// DefaultPath is where links.sqlite lives: GIT_CONVO_DB, else the seed's
// CURSOR_LINKS_DB_PATH, else the platform's per-user data directory. It is the
// user's file, not any one repository's. getenv is os.Getenv in production.
func DefaultPath(getenv func(string) string, goos string) (string, error) {
	for _, k := range []string{"GIT_CONVO_DB", "CURSOR_LINKS_DB_PATH"} {
		if v := getenv(k); v != "" {
			return filepath.Abs(v)
		}
	}
	home := getenv("HOME")
	switch goos {
	case "windows":
		if d := getenv("APPDATA"); d != "" {
			return filepath.Join(d, "git-convo", "links.sqlite"), nil
		}
		if up := getenv("USERPROFILE"); up != "" {
			return filepath.Join(up, "AppData", "Roaming", "git-convo", "links.sqlite"), nil
		}
	case "darwin":
		if home != "" {
			return filepath.Join(home, "Library", "Application Support", "git-convo", "links.sqlite"), nil
		}
	default:
		if d := getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
			return filepath.Join(d, "git-convo", "links.sqlite"), nil
		}
		if home != "" {
			return filepath.Join(home, ".local", "share", "git-convo", "links.sqlite"), nil
		}
	}
	return "", errors.New("cannot tell where to keep links.sqlite: HOME is not set (set GIT_CONVO_DB)")
}

// ContextDir is where the MCP server writes conversations as Markdown files
// (context files): $XDG_CACHE_HOME/git-convo/context/conversations, or
// ~/.cache/... `forget` removes a conversation's file from it.
func ContextDir(getenv func(string) string) (string, error) {
	base := getenv("XDG_CACHE_HOME")
	if base == "" || !filepath.IsAbs(base) {
		home := getenv("HOME")
		if home == "" {
			return "", errors.New("cannot tell where context files are: HOME is not set")
		}
		base = filepath.Join(home, ".cache")
	}
	return filepath.Join(base, "git-convo", "context", "conversations"), nil
}
