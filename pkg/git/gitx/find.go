package gitx

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/git-convo/git-convo/pkg/git/gitconfig"
)

// Location is where FindRepoForPath found a path's repository.
type Location struct {
	TopLevel  string // the work tree holding the path, spelled as the path was
	CommonDir string // the repository's common dir (shared by its worktrees)
}

// FindRepoForPath finds the repository holding path without running git (it
// runs on every Cursor edit). Like git, it first honours GIT_DIR with
// GIT_WORK_TREE or the repository's core.worktree ("dotfiles" repositories
// whose work tree holds no .git); otherwise it walks up to the nearest .git,
// a directory or a "gitdir:" file (linked worktrees, submodules), and follows
// a worktree's commondir. A path that does not exist yet resolves through its
// parents. Symbolic links are left as they are: TopLevel is a prefix of path.
func FindRepoForPath(path string) (Location, bool) {
	return FindRepoForPathEnv(path, os.Getenv)
}

// FindRepoForPathEnv is FindRepoForPath with the environment read through
// getenv.
func FindRepoForPathEnv(path string, getenv func(string) string) (Location, bool) {
	dir, err := filepath.Abs(path)
	if err != nil {
		return Location{}, false
	}
	if loc, ok := fromGitDirEnv(dir, getenv); ok {
		return loc, true
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

// CommonDirOf is the common dir of gitDir: a linked worktree's repository,
// else gitDir itself.
func CommonDirOf(gitDir string) string { return commonDirOf(gitDir) }

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

// fromGitDirEnv places abs in the repository GIT_DIR names when abs lies in
// its work tree: GIT_WORK_TREE, else the repository's core.worktree (relative
// to the git dir). A GIT_DIR without either names no work tree here: git
// would take the current directory, which for an agent's hook says nothing.
func fromGitDirEnv(abs string, getenv func(string) string) (Location, bool) {
	gitDir := getenv("GIT_DIR")
	if gitDir == "" {
		return Location{}, false
	}
	gitDir, err := filepath.Abs(gitDir)
	if err != nil || !isGitDir(gitDir) {
		return Location{}, false
	}
	wt := getenv("GIT_WORK_TREE")
	if wt == "" {
		if wt = coreWorktree(gitDir); wt != "" && !filepath.IsAbs(wt) {
			wt = filepath.Join(gitDir, wt)
		}
	}
	if wt == "" {
		return Location{}, false
	}
	if wt, err = filepath.Abs(wt); err != nil {
		return Location{}, false
	}
	top, ok := within(abs, wt)
	if !ok {
		return Location{}, false
	}
	return Location{TopLevel: top, CommonDir: commonDirOf(gitDir)}, true
}

// within reports whether abs lies in dir and returns dir spelled as abs
// spells it (the two may reach it through different symbolic links).
func within(abs, dir string) (string, bool) {
	if rel, err := filepath.Rel(dir, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return dir, true
	}
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", false
	}
	// Resolve the part of abs that exists; the rest is spelled as given.
	existing, rest := abs, ""
	for {
		if real, err := filepath.EvalSymlinks(existing); err == nil {
			rel, err := filepath.Rel(realDir, filepath.Join(real, rest))
			if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				return "", false
			}
			if rel == "." {
				return abs, true
			}
			top := strings.TrimSuffix(abs, string(filepath.Separator)+rel)
			return top, top != abs
		}
		parent := filepath.Dir(existing)
		if parent == existing {
			return "", false
		}
		rest = filepath.Join(filepath.Base(existing), rest)
		existing = parent
	}
}

// coreWorktree reads core.worktree from a git dir's config file, the
// setting git itself reads there to find a work tree; like git, it ignores it
// in a repository set core.bare.
func coreWorktree(gitDir string) string {
	s := gitconfig.New()
	if s.ReadFile(filepath.Join(gitDir, "config")) != nil {
		return ""
	}
	if bare, _ := s.Bool("core.bare"); bare {
		return ""
	}
	v, _ := s.Get("core.worktree") // the last one wins, as in git
	return v
}
