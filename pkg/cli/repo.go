package cli

import (
	"path/filepath"
	"runtime"
	"strings"

	"github.com/git-convo/git-convo/pkg/gitx"
	"github.com/git-convo/git-convo/pkg/link"
	"github.com/git-convo/git-convo/pkg/store"
)

// pathKey is how a repo-relative path is compared, the same in capture and record.
func pathKey(rel string) string {
	return link.PathKey(rel, link.CaseInsensitiveFS(runtime.GOOS))
}

// repoKey names a repository by its git common dir, resolved through symlinks
// so capture (which walks the file system) and record (which asks git) agree,
// and linked worktrees of one repository count as one.
func repoKey(commonDir string) string {
	if real, err := filepath.EvalSymlinks(commonDir); err == nil {
		commonDir = real
	}
	return filepath.ToSlash(filepath.Clean(commonDir))
}

// locate finds the repository holding an absolute path without running git:
// capture runs on every Cursor edit. It returns the repository key and the
// path relative to the work tree's top level.
func locate(abs string) (key, rel string, ok bool) {
	loc, found := gitx.FindRepoForPath(abs)
	if !found {
		return "", "", false
	}
	// FindRepoForPath walked up from abs, so TopLevel is spelled like abs.
	r, err := filepath.Rel(loc.TopLevel, abs)
	if err != nil || r == "." || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", "", false
	}
	return repoKey(loc.CommonDir), link.NormPath(filepath.ToSlash(r)), true
}

// resolver tells the store, which knows no git, where the paths of a
// database the prototype wrote belong (adoption, import --from-prototype).
func resolver() *store.Resolver {
	return &store.Resolver{Locate: locate, PathKey: pathKey, RepoKey: func(dir string) string {
		// The repository must be dir itself: a vanished repository is not
		// the one that happens to hold its old path.
		loc, ok := gitx.FindRepoForPath(dir)
		if !ok || filepath.Clean(loc.TopLevel) != filepath.Clean(dir) {
			return ""
		}
		return repoKey(loc.CommonDir)
	}}
}
