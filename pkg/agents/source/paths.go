package source

import (
	"net/url"
	"path"
	"path/filepath"
	"strings"
)

// NormalizeFSPath turns a path an agent sent into a clean absolute path for
// this platform (the write path applies it to every agent's paths): file://
// URIs are decoded, Windows forms such as /c:/Users/x and c:\Users\x become
// C:/Users/x, ".." is cleaned and trailing slashes dropped.
func NormalizeFSPath(p string) string {
	// Decoding can expose another layer (a URI inside a URI, spaces around an
	// encoded path or a cleaned-off component): repeat until nothing
	// changes, so the result is stable. Each round shrinks the string.
	for range 64 {
		next := strings.TrimSpace(normalizeOnce(strings.TrimSpace(p)))
		if next == p {
			break
		}
		p = next
	}
	return p
}

func normalizeOnce(p string) string {
	if p == "" {
		return ""
	}
	if strings.HasPrefix(p, "file://") {
		if u, err := url.Parse(p); err == nil {
			p = u.Path
		} else {
			p = strings.TrimPrefix(p, "file://")
		}
	}
	p = strings.ReplaceAll(p, `\`, "/")
	// /c:/Users -> c:/Users
	if len(p) >= 3 && p[0] == '/' && isLetter(p[1]) && p[2] == ':' {
		p = p[1:]
	}
	drive := ""
	if len(p) >= 2 && isLetter(p[0]) && p[1] == ':' {
		drive, p = strings.ToUpper(p[:1])+":", p[2:]
		if p == "" {
			p = "/"
		}
	}
	cleaned := path.Clean(p)
	if cleaned == "." {
		cleaned = ""
	}
	return drive + cleaned
}

func isLetter(b byte) bool { return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') }

// InAny reports whether path is one of roots or lies under one (how import
// finds an agent's sessions of a repository by their recorded cwd).
func InAny(path string, roots []string) bool {
	path = filepath.Clean(path)
	for _, r := range roots {
		r = filepath.Clean(r)
		if path == r || strings.HasPrefix(path, r+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// UserDir is the agent's directory in the user's home: the environment
// variable env when set, else ~/name (HOME, or USERPROFILE on Windows);
// "" when neither can be known.
func UserDir(getenv func(string) string, env, name string) string {
	if d := getenv(env); d != "" {
		return d
	}
	home := getenv("HOME")
	if home == "" {
		home = getenv("USERPROFILE")
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, name)
}
