// Package gitx is git-convo's access to git: the git CLI for rev-parse,
// log, blame and config (exact and fast), go-git for reading one commit
// without a subprocess, with the CLI as its fallback.
package gitx

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Error is a failed git command, carrying git's own message ("fatal: ...").
type Error struct {
	Args   []string
	Stderr string
	Err    error
}

func (e *Error) Error() string {
	msg := strings.TrimSpace(e.Stderr)
	if msg == "" {
		return fmt.Sprintf("git %s: %v", strings.Join(e.Args, " "), e.Err)
	}
	// git's first line says what went wrong; drop its "fatal: " prefix
	// since git-convo prints its own.
	first, _, _ := strings.Cut(msg, "\n")
	first = strings.TrimPrefix(first, "fatal: ")
	first = strings.TrimPrefix(first, "error: ")
	return first
}

func (e *Error) Unwrap() error { return e.Err }

// hookVariables are set by git while it runs a hook. A background worker that
// outlives the hook must not inherit them: GIT_INDEX_FILE points at a lock file
// that is gone once the commit finishes, and the others would pin the worker to
// state of the hook's moment (GIT_DIR is resolved to an absolute path first).
func hookVariables() []string {
	return []string{"GIT_INDEX_FILE", "GIT_DIR", "GIT_WORK_TREE", "GIT_PREFIX", "GIT_EDITOR",
		"GIT_REFLOG_ACTION", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_AUTHOR_DATE",
		"GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_COMMITTER_DATE", "GIT_EXEC_PATH",
		"GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_QUARANTINE_PATH"}
}

// runner runs git in one directory with one environment.
type runner struct {
	dir string
	env []string // nil: the process's environment
}

func (r runner) cmd(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = r.dir
	cmd.Env = r.env
	return cmd
}

// output runs git and returns its stdout.
func (r runner) output(ctx context.Context, args ...string) ([]byte, error) {
	cmd := r.cmd(ctx, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return nil, fmt.Errorf("git is not installed or not on PATH")
		}
		return out, &Error{Args: args, Stderr: stderr.String(), Err: err}
	}
	return out, nil
}

// scrubbedEnv is the process environment without the hook's git variables;
// a GIT_DIR set by the hook is kept, made absolute against dir.
func scrubbedEnv(dir string) []string {
	drop := map[string]bool{}
	for _, k := range hookVariables() {
		drop[k] = true
	}
	var env []string
	gitDir := ""
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		if k == "GIT_DIR" {
			gitDir = v
		}
		if !drop[k] {
			env = append(env, kv)
		}
	}
	if gitDir != "" {
		if !filepath.IsAbs(gitDir) {
			gitDir = filepath.Join(dir, gitDir)
		}
		env = append(env, "GIT_DIR="+gitDir)
	}
	return env
}
