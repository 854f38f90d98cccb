package gitx

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/git-convo/git-convo/pkg/git/odb"
)

// Repo is an opened repository, seen from one work tree (or git dir).
type Repo struct {
	TopLevel     string // the work tree's top level; "" without one (bare, or inside .git)
	GitDir       string // this work tree's git dir
	CommonDir    string // shared by every linked worktree: the repository's identity
	ObjectFormat string // sha1 or sha256
	Bare         bool

	// CLIOnly makes ReadCommit use the git CLI even where go-git could read
	// the commit (tests hold the two readers against each other).
	CLIOnly bool

	// Stderr, when set, receives git's stderr as git writes it for the
	// commands whose output the user reads (show, log, blame): git's
	// warnings and hints reach the user, not only its fatal errors.
	Stderr io.Writer

	run runner

	renamesOnce sync.Once // diff.renames, read once (renameOption)
	renames     string
	// Read with diff.renames: whether git diff-tree answers as git log -p
	// would (no other diff.* setting, which log honours and diff-tree does
	// not), and whether the user sized git's delta base cache.
	diffPlain, deltaCacheSet bool

	maxInflated int // resolveIn's bound on commits inflated (0: maxInflatedWalk)

	// maps shares the pack indexes mapped in process between log's walk
	// and its abbreviations (StartAbbrev), which search the same pages.
	maps odb.Maps
}

// Open finds the repository containing dir with one `git rev-parse`. With
// scrub, every git it runs goes without the variables a hook inherited (see
// ScrubHookEnv): for the background worker a hook starts.
func Open(ctx context.Context, dir string, scrub bool) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	r := runner{dir: abs}
	if scrub {
		cwd, err := os.Getwd()
		if err != nil {
			cwd = abs
		}
		r.env = ScrubHookEnv(os.Environ(), cwd)
	}
	return open(ctx, r)
}

// OpenQueued opens the work tree a queued hook ran in: dir is where the hook
// ran, gitDir and workTree the GIT_DIR and GIT_WORK_TREE it saw ("" when
// unset; gitDir relative to dir). The caller's own GIT_DIR does not apply.
func OpenQueued(ctx context.Context, dir, gitDir, workTree string) (*Repo, error) {
	return open(ctx, runner{dir: dir, env: QueuedEnv(os.Environ(), dir, gitDir, workTree)})
}

// open asks git where the repository of r's directory is.
func open(ctx context.Context, r runner) (*Repo, error) {
	// --show-toplevel last: without a work tree git dies on it (2.39), after
	// printing the rest.
	out, err := r.output(ctx, "rev-parse", "--path-format=absolute", "--git-dir", "--git-common-dir",
		"--is-bare-repository", "--show-object-format", "--show-toplevel")
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if err != nil {
		var ge *Error
		if !errors.As(err, &ge) || !strings.Contains(ge.Stderr, "work tree") {
			return nil, err
		}
		lines = append(lines, "")
	}
	if len(lines) != 5 {
		// A path holds a newline: ask for each path on its own.
		if lines, err = r.revParseEach(ctx, err == nil); err != nil {
			return nil, err
		}
	}
	// git keeps running where the caller is, so relative paths and
	// pathspecs mean what they meant on the command line.
	return &Repo{GitDir: lines[0], CommonDir: lines[1], Bare: lines[2] == "true", ObjectFormat: lines[3],
		TopLevel: lines[4], run: r}, nil
}

// revParseEach is Open's rev-parse with one path per run, so that a path
// holding a newline reads whole.
func (r runner) revParseEach(ctx context.Context, workTree bool) ([]string, error) {
	opts := []string{"--git-dir", "--git-common-dir", "--is-bare-repository", "--show-object-format", "--show-toplevel"}
	if !workTree {
		opts = opts[:4]
	}
	lines := make([]string, 5)
	for i, o := range opts {
		out, err := r.output(ctx, "rev-parse", "--path-format=absolute", o)
		if err != nil {
			return nil, err
		}
		lines[i] = strings.TrimSuffix(string(out), "\n")
	}
	return lines, nil
}

// Here returns a Repo that runs git in dir without asking git anything first:
// for read commands that only hand work to git (log, blame, rev-parse), one
// subprocess fewer. TopLevel, GitDir and CommonDir are empty (ReadCommit then
// uses the CLI); git itself reports "not a git repository".
func Here(dir string) *Repo {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	return &Repo{run: runner{dir: abs}}
}

// userRun is r's runner for a command whose output the user reads: git's
// stderr also goes to r.Stderr.
func (r *Repo) userRun() runner {
	run := r.run
	run.stderr = r.Stderr
	return run
}
