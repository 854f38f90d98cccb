package link

import (
	"path"
	"strings"
)

// NormPath puts a repo-relative path in the one form every comparison uses:
// forward slashes, no leading "./" or "/", cleaned. "" stays "".
func NormPath(p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	p = strings.TrimLeft(p, "/")
	if p == "" {
		return ""
	}
	p = path.Clean(p)
	p = strings.TrimPrefix(p, "./")
	if p == "." {
		return ""
	}
	return p
}

// PathKey is NormPath, case-folded where the file system is case-insensitive
// (macOS and Windows by default). Capture and record both call it with the
// same flag, so keys always agree.
func PathKey(p string, caseInsensitive bool) string {
	p = NormPath(p)
	if caseInsensitive {
		p = strings.ToLower(p)
	}
	return p
}

// CaseInsensitiveFS reports whether goos's default file system folds case.
func CaseInsensitiveFS(goos string) bool { return goos == "darwin" || goos == "windows" }
