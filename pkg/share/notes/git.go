// Package notes shares git-convo's attribution through git notes: one Agent
// Trace record per commit on refs/notes/convo, written in one batch, synced
// with remotes the safe way (fetch into a tracking ref, merge record by
// record, push without force), and read back next to the local database.
package notes

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"

	"github.com/git-convo/git-convo/pkg/git/gitx"
)

// Ref is where git-convo's notes live.
const Ref = "refs/notes/convo"

// TrackingRef is where a remote's notes are fetched to: never into Ref
// itself, as a forced fetch there would delete local-only notes.
func TrackingRef(remote string) string { return "refs/notes/remotes/" + remote + "/convo" }

// trackingPrefix holds every remote's tracking ref.
const trackingPrefix = "refs/notes/remotes/"

// TrackingPrefix and TrackingSuffix bound every remote's tracking ref (a
// remote's name may hold a slash).
const (
	TrackingPrefix = trackingPrefix
	TrackingSuffix = "/convo"
)

// Git runs git in one repository.
type Git struct {
	Dir string
	Env []string // nil: the process's environment
}

// gitError is a failed git command with what git said.
type gitError struct {
	args   []string
	stderr string
	err    error
}

func (e *gitError) Error() string {
	msg := strings.TrimSpace(e.stderr)
	if msg == "" {
		return fmt.Sprintf("git %s: %v", strings.Join(e.args, " "), e.err)
	}
	return fmt.Sprintf("git %s: %s", e.args[0], strings.ReplaceAll(msg, "\n", "; "))
}

func (e *gitError) Unwrap() error { return e.err }

func (g Git) cmd(ctx context.Context, args ...string) *exec.Cmd {
	return gitx.Command(ctx, g.Dir, g.Env, args...)
}

// getenv reads the environment git runs in: Env, else the process's.
func (g Git) getenv(k string) string { return gitx.Getenv(g.Env)(k) }

// run runs git with stdin and returns its stdout.
func (g Git) run(ctx context.Context, stdin []byte, args ...string) ([]byte, error) {
	cmd := g.cmd(ctx, args...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return nil, err
		}
		return out, &gitError{args: args, stderr: stderr.String(), err: err}
	}
	return out, nil
}

// exitCode is git's exit status in err (-1 if it did not exit).
func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return -1
}

// resolve returns the commit a ref points at, "" when it does not exist.
func (g Git) resolve(ctx context.Context, ref string) (string, error) {
	out, err := g.run(ctx, nil, "rev-parse", "-q", "--verify", ref+"^{commit}")
	if err != nil {
		if exitCode(err) == 1 {
			return "", nil
		}
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// Config reads one git config value ("" when unset), as `git config --get`.
func (g Git) Config(ctx context.Context, key string) (string, error) {
	c, err := g.config(ctx)
	if err != nil {
		return "", err
	}
	v, _ := c.Get(key)
	return v, nil
}

// Recent lists HEAD's last n commits (none before the first commit).
func (g Git) Recent(ctx context.Context, n int) ([]string, error) {
	if tip, err := g.resolve(ctx, "HEAD"); err != nil || tip == "" {
		return nil, err
	}
	out, err := g.run(ctx, nil, "rev-list", "-n", fmt.Sprint(n), "HEAD")
	if err != nil {
		return nil, err
	}
	return strings.Fields(string(out)), nil
}
