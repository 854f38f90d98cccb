package gitx

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Repo is an opened repository (a work tree of it).
type Repo struct {
	TopLevel     string // the work tree's top level ("" for a bare repository)
	GitDir       string // this work tree's git dir
	CommonDir    string // shared by every linked worktree: the repository's identity
	ObjectFormat string // sha1 or sha256
	run          runner
}

// Open finds the repository containing dir with one `git rev-parse`. With
// scrub, git runs without the variables a hook inherited (see hookVariables).
func Open(ctx context.Context, dir string, scrub bool) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	r := runner{dir: abs}
	if scrub {
		r.env = scrubbedEnv(abs)
	}
	out, err := r.output(ctx, "rev-parse", "--path-format=absolute", "--show-toplevel", "--git-dir", "--git-common-dir", "--show-object-format")
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) == 3 { // bare: no top level line
		lines = append([]string{""}, lines...)
	}
	if len(lines) != 4 {
		return nil, fmt.Errorf("unexpected git rev-parse output: %q", out)
	}
	// git keeps running where the user is, so relative paths and pathspecs
	// mean what they meant on the command line.
	return &Repo{TopLevel: lines[0], GitDir: lines[1], CommonDir: lines[2], ObjectFormat: lines[3], run: r}, nil
}

// Here returns a Repo that runs git in dir without asking git anything first:
// for read commands that only hand work to git (log, blame, rev-parse), one
// subprocess fewer. TopLevel, GitDir and CommonDir are empty; git itself
// reports "not a git repository".
func Here(dir string) *Repo {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	return &Repo{run: runner{dir: abs}}
}

// Location is where FindRepoForPath found a path's repository.
type Location struct {
	TopLevel  string
	CommonDir string
}

// FindRepoForPath finds the repository holding abs without running git (it
// runs on every Cursor edit): it walks up to the nearest .git, a directory or
// a "gitdir:" file (linked worktrees, submodules), and follows a worktree's
// commondir. A path that does not exist yet resolves through its parents.
func FindRepoForPath(abs string) (Location, bool) {
	dir := filepath.Clean(abs)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		dir = filepath.Dir(dir)
	}
	for {
		dotgit := filepath.Join(dir, ".git")
		if fi, err := os.Stat(dotgit); err == nil {
			if fi.IsDir() {
				return Location{TopLevel: dir, CommonDir: dotgit}, true
			}
			if gitDir, ok := readGitFile(dotgit); ok {
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

// readGitFile reads a ".git" file ("gitdir: <path>").
func readGitFile(path string) (string, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", false
	}
	line := strings.TrimSpace(string(b))
	gitDir, ok := strings.CutPrefix(line, "gitdir:")
	if !ok {
		return "", false
	}
	gitDir = strings.TrimSpace(gitDir)
	if !filepath.IsAbs(gitDir) {
		gitDir = filepath.Join(filepath.Dir(path), gitDir)
	}
	return filepath.Clean(gitDir), true
}

// commonDirOf follows a worktree git dir's "commondir" file.
func commonDirOf(gitDir string) string {
	b, err := os.ReadFile(filepath.Join(gitDir, "commondir"))
	if err != nil {
		return gitDir
	}
	c := strings.TrimSpace(string(b))
	if !filepath.IsAbs(c) {
		c = filepath.Join(gitDir, c)
	}
	return filepath.Clean(c)
}

// RevParse resolves revisions to full commit hashes, in order.
func (r *Repo) RevParse(ctx context.Context, revs ...string) ([]string, error) {
	out := make([]string, 0, len(revs))
	for _, rev := range revs {
		b, err := r.run.output(ctx, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
		if err != nil {
			return nil, fmt.Errorf("unknown revision %q: not a commit in this repository (try `git log` to find one)", rev)
		}
		out = append(out, strings.TrimSpace(string(b)))
	}
	return out, nil
}

// ConfigRegexp returns the git config values whose keys match re (keys
// lower-cased, as git prints them), read in dir.
func ConfigRegexp(ctx context.Context, dir, re string) (map[string]string, error) {
	out, err := runner{dir: dir}.output(ctx, "config", "--get-regexp", re)
	values := map[string]string{}
	if err != nil {
		if ge, ok := err.(*Error); ok && strings.TrimSpace(ge.Stderr) == "" {
			return values, nil // exit 1: no such key
		}
		return values, err
	}
	for _, line := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		k, v, _ := strings.Cut(line, " ")
		if k != "" {
			values[k] = v
		}
	}
	return values, nil
}

// ColorBool asks git whether color name (e.g. color.convo, falling back to
// color.ui) is on for output that is (or is not) a terminal. ok is false when
// git could not answer.
func (r *Repo) ColorBool(ctx context.Context, name string, stdoutIsTTY bool) (on, ok bool) {
	out, err := r.run.output(ctx, "config", "--get-colorbool", name, fmt.Sprint(stdoutIsTTY))
	if err != nil {
		return false, false
	}
	return strings.TrimSpace(string(out)) == "true", true
}

// Pager returns the user's pager for git (`git var GIT_PAGER`).
func (r *Repo) Pager(ctx context.Context) (string, error) {
	out, err := r.run.output(ctx, "var", "GIT_PAGER")
	return strings.TrimSpace(string(out)), err
}
