// Package gitx is git-convo's access to git: the git CLI for rev-parse,
// log, blame and config (exact and fast), go-git for reading one commit
// without a subprocess, with the CLI as its fallback.
package gitx

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"
)

// Error is a failed git command, carrying git's own message ("fatal: ...").
type Error struct {
	Args   []string
	Stderr string // git's stderr, as printed
	Err    error  // usually an *exec.ExitError
	// Shown: Stderr already reached the user as git wrote it (Repo.Stderr).
	Shown bool
}

// Error returns git's first line of complaint without its "fatal: " or
// "error: " prefix (git-convo prints its own), or the exit status when git
// said nothing.
func (e *Error) Error() string {
	msg := strings.TrimSpace(e.Stderr)
	if msg == "" {
		return fmt.Sprintf("git %s: %v", strings.Join(e.Args, " "), e.Err)
	}
	first, _, _ := strings.Cut(msg, "\n")
	first = strings.TrimPrefix(first, "fatal: ")
	first = strings.TrimPrefix(first, "error: ")
	return strings.TrimSpace(first)
}

func (e *Error) Unwrap() error { return e.Err }

// ExitCode is git's exit status, or -1 when it did not exit normally.
func (e *Error) ExitCode() int {
	var ee *exec.ExitError
	if errors.As(e.Err, &ee) {
		return ee.ExitCode()
	}
	return -1
}

// constError is an error that can be a constant: package sentinels stay
// immutable.
type constError string

func (e constError) Error() string { return string(e) }

// errNoGit is returned when there is no git to run.
const errNoGit = constError("git is not installed or not on PATH")

// runner runs git in one directory with one environment.
type runner struct {
	dir string
	env []string // nil: the process's environment
	// stderr also receives git's stderr as git writes it (warnings and
	// hints of a git that succeeds too); nil: only the Error has it.
	stderr io.Writer
}

func (r runner) cmd(ctx context.Context, args ...string) *exec.Cmd {
	return Command(ctx, r.dir, r.env, args...)
}

// Command is git with args, run in dir with the environment env (nil: the
// process's), stopped with ctx.
func Command(ctx context.Context, dir string, env []string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = env
	// A git helper that keeps our pipe open must not make Wait hang after
	// git itself is gone.
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// output runs git and returns its stdout. On failure the stdout read so far
// is returned too (rev-parse prints what it could before it dies).
func (r runner) output(ctx context.Context, args ...string) ([]byte, error) {
	cmd := r.cmd(ctx, args...)
	var stderr bytes.Buffer
	cmd.Stderr = r.errWriter(&stderr)
	out, err := cmd.Output()
	if err != nil {
		return out, r.failure(ctx, args, stderr.String(), err)
	}
	return out, nil
}

// stream runs git and hands its stdout to parse while git writes it. When
// parse returns (early, or with an error) before git is done, git is killed;
// errStop from parse is an early stop, not an error.
func (r runner) stream(ctx context.Context, args []string, parse func(io.Reader) error) error {
	return r.streamIn(ctx, args, nil, parse)
}

// streamIn is stream with stdin as git's standard input (nil: none).
func (r runner) streamIn(ctx context.Context, args []string, stdin io.Reader, parse func(io.Reader) error) error {
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := r.cmd(runCtx, args...)
	cmd.Stdin = stdin
	var stderr bytes.Buffer
	cmd.Stderr = r.errWriter(&stderr)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	growPipe(out)
	if err := cmd.Start(); err != nil {
		return r.failure(ctx, args, "", err)
	}
	perr := parse(out)
	if perr != nil {
		cancel() // git may still be writing: kill it before waiting
	} else {
		// A parser done before the end must not leave git blocked on a
		// full pipe.
		_, _ = io.Copy(io.Discard, out)
	}
	werr := cmd.Wait()
	switch {
	case ctx.Err() != nil:
		return ctx.Err() // what git printed may be cut short
	case errors.Is(perr, errStop):
		return nil
	case perr != nil:
		// git's own failure explains a truncated stream better.
		if werr != nil && stderr.Len() > 0 {
			return r.failure(ctx, args, stderr.String(), werr)
		}
		return perr
	case werr != nil:
		return r.failure(ctx, args, stderr.String(), werr)
	}
	return nil
}

// failure turns a failed run into the error callers see: the context's
// error when it was cancelled, a plain message when git is missing, else an
// *Error with git's stderr.
func (r runner) failure(ctx context.Context, args []string, stderr string, err error) error {
	if errors.Is(err, exec.ErrNotFound) {
		return errNoGit
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return &Error{Args: args, Stderr: stderr, Err: err, Shown: r.stderr != nil}
}

// errWriter is where git's stderr goes: buf, and r.stderr when set.
func (r runner) errWriter(buf *bytes.Buffer) io.Writer {
	if r.stderr == nil {
		return buf
	}
	return io.MultiWriter(buf, r.stderr)
}

// errStop ends a stream early at the caller's request.
const errStop = constError("stop")
