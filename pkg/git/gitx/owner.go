package gitx

import (
	"context"
	"os"
	"path/filepath"

	"github.com/git-convo/git-convo/pkg/git/gitconfig"
)

// OwnedAsGitWants reports whether git would take the repository of dir
// without asking safe.directory (setup.c: ensure_valid_ownership): its work
// tree, its .git file and its git dir are owned by the current user (or,
// for root, by SUDO_UID's). It is true too where git checks nothing (GIT_DIR
// set) and where the repository cannot be found from files (git, which
// reads it then, checks for itself). A caller that finds it false asks git
// (CheckOwnership) before it reads any of the repository's files: its
// config could name a pager or a command.
func OwnedAsGitWants(dir string, getenv func(string) string) bool {
	if getenv("GIT_DIR") != "" {
		return true
	}
	if on, _ := gitconfig.ParseBool(getenv("GIT_TEST_ASSUME_DIFFERENT_OWNER")); on {
		return false
	}
	if getenv("GIT_CEILING_DIRECTORIES") != "" || getenv("GIT_DISCOVERY_ACROSS_FILESYSTEM") != "" {
		return true
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return true
	}
	for d := abs; ; d = filepath.Dir(d) {
		dotgit := filepath.Join(d, ".git")
		if fi, err := os.Stat(dotgit); err == nil {
			if fi.IsDir() {
				if isGitDir(dotgit) {
					return ownedByUser(d, getenv) && ownedByUser(dotgit, getenv)
				}
			} else if gitDir, ok := readGitFile(dotgit); ok {
				return ownedByUser(dotgit, getenv) && ownedByUser(d, getenv) && ownedByUser(gitDir, getenv)
			}
		}
		if isBareDir(d) { // a bare repository, or inside .git
			return ownedByUser(d, getenv)
		}
		if filepath.Dir(d) == d {
			return true
		}
	}
}

// isBareDir is git's is_git_directory: HEAD, objects/ and refs/.
func isBareDir(d string) bool {
	for _, f := range []string{"HEAD", "objects", "refs"} {
		if _, err := os.Stat(filepath.Join(d, f)); err != nil {
			return false
		}
	}
	return true
}

// CheckOwnership asks git whether it takes the repository (safe.directory
// may list it): nil if so, else git's own error ("detected dubious
// ownership", exit 128), to be passed on as git wrote it.
func (r *Repo) CheckOwnership(ctx context.Context) error {
	_, err := r.run.output(ctx, "rev-parse", "--git-dir")
	if ge, ok := err.(*Error); ok && ge.ExitCode() == 128 {
		return err
	}
	return nil // outside a repository, or git not there: the command says so itself
}
