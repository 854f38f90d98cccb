// Package repokey names where a file belongs, the same way in every process
// that writes or reads links.sqlite (hooks, the CLI, the MCP server): a
// repository by its git common dir, a path by its repository-relative key.
// It finds repositories by walking the file system, without running git.
package repokey

import (
	"path/filepath"
	"runtime"
	"strings"

	"github.com/git-convo/git-convo/pkg/attribution/link"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/store"
)

// PathKey is how a repo-relative path is compared, the same in capture and record.
func PathKey(rel string) string {
	return link.PathKey(rel, link.CaseInsensitiveFS(runtime.GOOS))
}

// Of names a repository by its git common dir, resolved through symlinks so
// capture (which walks the file system) and record (which asks git) agree,
// and linked worktrees of one repository count as one.
func Of(commonDir string) string {
	if real, err := filepath.EvalSymlinks(commonDir); err == nil {
		commonDir = real
	}
	return filepath.ToSlash(filepath.Clean(commonDir))
}

// Locate finds the repository holding an absolute path without running git
// (capture runs on every agent edit). It returns the repository's key and
// the path relative to the work tree's top level.
func Locate(abs string) (key, rel string, ok bool) {
	loc, found := gitx.FindRepoForPath(abs)
	if !found {
		return "", "", false
	}
	return In(loc, Of(loc.CommonDir), abs)
}

// In makes abs relative to loc, the repository found walking up from abs
// or its directory (so TopLevel is spelled like abs), whose key is key; ok
// is false for a path outside its work tree. Callers that locate many files
// find each directory's repository once and use In for each file.
func In(loc gitx.Location, key, abs string) (k, rel string, ok bool) {
	r, err := filepath.Rel(loc.TopLevel, abs)
	if err != nil || r == "." || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", "", false
	}
	return key, link.NormPath(filepath.ToSlash(r)), true
}

// Resolver tells the store, which knows no git, where the paths of a
// database the prototype wrote belong (adoption, import --from-prototype).
// Every process that opens links.sqlite passes it, so whichever opens a
// prototype's database first adopts it.
func Resolver() *store.Resolver {
	return &store.Resolver{Locate: Locate, PathKey: PathKey, RepoKey: func(dir string) string {
		// The repository must be dir itself: a vanished repository is not
		// the one that happens to hold its old path.
		loc, ok := gitx.FindRepoForPath(dir)
		if !ok || filepath.Clean(loc.TopLevel) != filepath.Clean(dir) {
			return ""
		}
		return Of(loc.CommonDir)
	}}
}
