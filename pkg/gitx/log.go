package gitx

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// logFormat: one record per commit, starting with a record separator so the
// parser needs no lookahead; fields NUL-separated.
const logFormat = "%x1e%H%x00%P%x00%an%x00%ae%x00%aI%x00%cI%x00%s%x00"

// LogOptions are git-convo's own choices for a log stream.
type LogOptions struct {
	Body  bool // also read each message's body (show prints it; log does not)
	Files bool // also list each commit's changed paths (against its first parent)
}

// StreamLog runs `git log` with the caller's options, revisions and
// pathspecs, and calls fn with each commit as git prints it, so the first
// commits arrive long before git finishes a long history. fn returns false to
// stop; git is then killed.
func (r *Repo) StreamLog(ctx context.Context, userArgs []string, opts LogOptions, fn func(Commit) bool) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	args := []string{"-c", "log.showSignature=false", "log"}
	// Our format goes after the user's options (the last --format wins) and
	// before a "--" that starts pathspecs.
	split := len(userArgs)
	for i, a := range userArgs {
		if a == "--" {
			split = i
			break
		}
	}
	args = append(args, userArgs[:split]...)
	format := logFormat
	if opts.Body {
		format += "%b"
	}
	if opts.Files {
		// Names only, against the first parent, quoted only where git must.
		args = append([]string{"-c", "core.quotePath=false"}, args...)
		args = append(args, "--name-only", "--no-renames", "--diff-merges=first-parent", "--no-color", "--format="+format)
	} else {
		args = append(args, "--no-patch", "--no-color", "--format="+format)
	}
	args = append(args, userArgs[split:]...)
	cmd := r.run.cmd(ctx, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	perr := parseLog(out, opts, fn)
	if errors.Is(perr, errStop) {
		cancel()
		_ = cmd.Wait()
		return nil
	}
	werr := cmd.Wait()
	if perr != nil {
		return perr
	}
	if werr != nil {
		return &Error{Args: args, Stderr: stderr.String(), Err: werr}
	}
	return nil
}

// LogCommits is StreamLog collected into a slice.
func (r *Repo) LogCommits(ctx context.Context, userArgs []string, opts LogOptions) ([]Commit, error) {
	var out []Commit
	err := r.StreamLog(ctx, userArgs, opts, func(c Commit) bool {
		out = append(out, c)
		return true
	})
	return out, err
}

func parseLog(rd io.Reader, opts LogOptions, fn func(Commit) bool) error {
	br := bufio.NewReaderSize(rd, 64*1024)
	// Skip up to the first record separator.
	if _, err := br.ReadBytes(0x1e); err != nil {
		if err == io.EOF {
			return nil
		}
		return err
	}
	for {
		rec, err := br.ReadBytes(0x1e)
		last := err == io.EOF
		if err != nil && !last {
			return err
		}
		rec = bytes.TrimSuffix(rec, []byte{0x1e})
		if len(bytes.TrimSpace(rec)) > 0 {
			c, perr := parseLogRecord(rec, opts)
			if perr != nil {
				return perr
			}
			if !fn(c) {
				return errStop
			}
		}
		if last {
			return nil
		}
	}
}

func parseLogRecord(rec []byte, opts LogOptions) (Commit, error) {
	f := strings.SplitN(string(rec), "\x00", 8)
	if len(f) != 8 {
		return Commit{}, fmt.Errorf("unexpected git log record %q", rec)
	}
	c := Commit{Hash: f[0], AuthorName: f[2], AuthorEmail: f[3], Subject: f[6]}
	c.Parents = strings.Fields(f[1])
	c.Author = c.AuthorName + " <" + c.AuthorEmail + ">"
	c.AuthorTime, _ = time.Parse(time.RFC3339, f[4])
	c.CommitTime, _ = time.Parse(time.RFC3339, f[5])
	rest := f[7]
	if opts.Files {
		// With --name-only the names follow the (empty) body, one a line.
		for _, line := range strings.Split(rest, "\n") {
			if line == "" {
				continue
			}
			if strings.HasPrefix(line, `"`) {
				if u, err := strconv.Unquote(line); err == nil {
					line = u
				}
			}
			c.Files = append(c.Files, line)
		}
		return c, nil
	}
	c.Body = strings.Trim(rest, "\n")
	return c, nil
}
