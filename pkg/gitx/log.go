package gitx

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"time"
)

// LogOptions are git-convo's own choices for a log stream.
type LogOptions struct {
	Body     bool // also read each message's body (%b)
	Files    bool // also list each commit's changed paths (against its first parent)
	Decorate bool // also read each commit's decorations (%D) into Refs
}

// logFormat is one commit of the stream: a record separator first (with
// Files, git prints the paths after the format, so a record is known
// complete only when the next one starts), then NUL-terminated fields, the
// paths last. Decorations cost git a read of every ref: only when asked.
func logFormat(o LogOptions) string {
	f := "%x1e%H%x00%P%x00%an%x00%ae%x00%aI%x00%cI%x00%s%x00"
	if o.Decorate {
		f += "%D"
	}
	f += "%x00"
	if o.Body {
		f += "%b"
	}
	return f + "%x00"
}

// logFields counts logFormat's fields and the paths after them.
const logFields = 10

// StreamLog runs `git log` with the caller's options, revisions and
// pathspecs (-n, --since, --author, ranges, "-- <path>"...) and calls fn
// with each commit as git prints it, so the first commits arrive long before
// git finishes a long history. fn returns false to stop; git is then killed
// and StreamLog returns nil. A cancelled ctx also kills git and returns
// ctx's error. User options that change the output's shape (--graph, -z,
// -p) are not for this stream.
func (r *Repo) StreamLog(ctx context.Context, userArgs []string, opts LogOptions, fn func(Commit) bool) error {
	args := []string{"-c", "log.showSignature=false"}
	if opts.Files {
		args = append(args, "-c", "core.quotePath=false")
	}
	args = append(args, "log")
	// Our options go after the user's (the last --format wins) and before a
	// "--" that starts pathspecs.
	split := len(userArgs)
	for i, a := range userArgs {
		if a == "--" {
			split = i
			break
		}
	}
	args = append(args, userArgs[:split]...)
	if opts.Files {
		// Names only, against the first parent, quoted only where git must.
		args = append(args, "--name-only", "--no-renames", "--diff-merges=first-parent")
	} else {
		args = append(args, "--no-patch")
	}
	args = append(args, "--no-color", "--format="+logFormat(opts))
	args = append(args, userArgs[split:]...)
	return r.run.stream(ctx, args, func(out io.Reader) error {
		// Commits already read are not handed out once ctx is done.
		return parseLog(out, opts, func(c Commit) bool { return ctx.Err() == nil && fn(c) })
	})
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

// parseLog reads logFormat records and hands each to fn as soon as the next
// record (or the end) shows it is complete.
func parseLog(rd io.Reader, opts LogOptions, fn func(Commit) bool) error {
	br := bufio.NewReaderSize(rd, 64*1024)
	// Anything before the first record separator is no commit.
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
		c, perr := parseLogRecord(rec, opts)
		if perr != nil {
			return perr
		}
		if !fn(c) {
			return errStop
		}
		if last {
			return nil
		}
	}
}

func parseLogRecord(rec []byte, opts LogOptions) (Commit, error) {
	f := strings.SplitN(string(rec), "\x00", logFields)
	if len(f) != logFields {
		return Commit{}, fmt.Errorf("unexpected git log record %.200q", rec)
	}
	c := Commit{Hash: f[0], AuthorName: f[2], AuthorEmail: f[3], Subject: f[6]}
	if !IsFullHash(c.Hash) {
		return Commit{}, fmt.Errorf("unexpected git log record %.200q", rec)
	}
	c.Parents = strings.Fields(f[1])
	if len(c.Parents) == 0 {
		c.Parents = nil
	}
	c.Author = c.AuthorName + " <" + c.AuthorEmail + ">"
	c.AuthorTime, _ = time.Parse(time.RFC3339, f[4])
	c.CommitTime, _ = time.Parse(time.RFC3339, f[5])
	c.Refs = splitRefs(f[7])
	c.Body = strings.Trim(f[8], "\n")
	if !opts.Files {
		return c, nil
	}
	// --name-only prints the paths after the format, one a line.
	for _, line := range strings.Split(f[9], "\n") {
		if line == "" {
			continue
		}
		c.Files = append(c.Files, unquotePath(line))
	}
	return c, nil
}
