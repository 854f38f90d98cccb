package gitx

import (
	"os"
	"path/filepath"
	"strings"
)

// Location is where FindRepoForPath found a path's repository.
type Location struct {
	TopLevel  string // the work tree holding the path, spelled as the path was
	CommonDir string // the repository's common dir (shared by its worktrees)
}

// FindRepoForPath finds the repository holding path without running git (it
// runs on every Cursor edit): it walks up to the nearest .git, a directory or
// a "gitdir:" file (linked worktrees, submodules), and follows a worktree's
// commondir. A path that does not exist yet resolves through its parents.
// Symbolic links are left as they are: TopLevel is a prefix of path.
func FindRepoForPath(path string) (Location, bool) {
	dir, err := filepath.Abs(path)
	if err != nil {
		return Location{}, false
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		dir = filepath.Dir(dir)
	}
	for {
		dotgit := filepath.Join(dir, ".git")
		if fi, err := os.Stat(dotgit); err == nil {
			if fi.IsDir() {
				if isGitDir(dotgit) {
					return Location{TopLevel: dir, CommonDir: dotgit}, true
				}
			} else {
				// Like git, a broken .git file ends the search: the
				// repository above is not this file's.
				gitDir, ok := readGitFile(dotgit)
				if !ok || !isGitDir(gitDir) {
					return Location{}, false
				}
				return Location{TopLevel: dir, CommonDir: commonDirOf(gitDir)}, true
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return Location{}, false
		}
		dir = parent
	}
}

// isGitDir is git's cheapest sign of a git dir: it holds HEAD (an empty
// stray .git directory does not make a repository).
func isGitDir(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "HEAD"))
	return err == nil
}

// readGitFile reads a ".git" file ("gitdir: <path>", relative to the file).
func readGitFile(path string) (string, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", false
	}
	line, _, _ := strings.Cut(string(b), "\n")
	gitDir, ok := strings.CutPrefix(line, "gitdir:")
	if !ok {
		return "", false
	}
	gitDir = strings.TrimSpace(gitDir)
	if gitDir == "" {
		return "", false
	}
	if !filepath.IsAbs(gitDir) {
		gitDir = filepath.Join(filepath.Dir(path), gitDir)
	}
	return filepath.Clean(gitDir), true
}

// commonDirOf follows a linked worktree's "commondir" file (relative to its
// git dir); other git dirs are their own common dir.
func commonDirOf(gitDir string) string {
	b, err := os.ReadFile(filepath.Join(gitDir, "commondir"))
	if err != nil {
		return gitDir
	}
	c := strings.TrimSpace(string(b))
	if c == "" {
		return gitDir
	}
	if !filepath.IsAbs(c) {
		c = filepath.Join(gitDir, c)
	}
	return filepath.Clean(c)
}
