package gitx

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// LogOptions are git-convo's own choices for a log stream.
type LogOptions struct {
	Body     bool // also read each message's body (%b)
	Files    bool // also list each commit's changed paths (against its first parent)
	Decorate bool // also read each commit's decorations (%D) into Refs
	// ColorDecorate reads them as git's %d colors them instead (color.decorate.*
	// slots, parentheses in color.diff.commit), into Decoration.
	ColorDecorate bool
	Abbrev        bool // also read git's abbreviation of each hash (%h) into Abbrev
	// Notes are notes refs whose notes git prints with each commit (%N,
	// every ref's in turn) into Notes: no process of the caller's own.
	Notes []string
	// MaxNotes bounds the bytes of Notes kept per commit (0: none): a
	// commit's longer notes are read past, never held, and NotesOver set.
	MaxNotes int
	Mark     bool // also read each commit's mark (%m: <, >, -, ^, =) into Mark
	Source   bool // also read the ref each commit was reached by (%S, --source) into Source
	// Ahead, when set, is called with the hashes of each batch of commits
	// the in-process walk has read, and their committer times (seconds),
	// in the order they will be shown, before
	// fn sees the first of them: on the walk's goroutine, a batch or more
	// ahead of fn, so that what the caller reads about them (log's links)
	// can be read while the walk goes on. Never called where git walks.
	Ahead func(hashes []string, secs []int64)
	// Local, when set, lets StreamLog walk a plain log (no argument but a
	// count and a revision) from the repository's files, with no git
	// process, wherever that gives git's answer (log_inprocess.go).
	Local *Local
}

// logFormat is one commit of the stream, for -z: NUL-separated fields, the
// last one ended by -z's NUL. A message may hold any byte but NUL, so no
// message can break the framing. A record starts with "/" and the hash: with
// --name-only git prints the paths after the record, each ended by NUL, and
// no path git prints starts with "/". Decorations cost git a read of every
// ref, abbreviations a look-up each: only when asked.
func logFormat(o LogOptions) string {
	f := "/%H%x00%P%x00%an%x00%ae%x00%aI%x00%cI%x00%s%x00"
	switch {
	case o.ColorDecorate:
		f += "%C(auto)%d"
	case o.Decorate:
		f += "%D"
	}
	f += "%x00"
	if o.Abbrev {
		f += "%h"
	}
	f += "%x00"
	if len(o.Notes) > 0 {
		f += "%N"
	}
	f += "%x00"
	if o.Mark {
		f += "%m"
	}
	f += "%x00"
	if o.Source {
		f += "%S"
	}
	f += "%x00"
	if o.Body {
		f += "%b"
	}
	return f
}

// logFields counts logFormat's fields; logNotesField is %N's.
const logFields, logNotesField = 13, 9

// StreamLog runs `git log` with the caller's options, revisions and
// pathspecs (-n, --since, --author, ranges, paths with or without "--"...)
// and calls fn with each commit as git prints it, so the first commits
// arrive long before git finishes a long history. fn returns false to stop;
// git is then killed and StreamLog returns nil. A cancelled ctx also kills
// git and returns ctx's error. User options that change the output's shape
// (--format, --oneline, --graph, -p, --stat) are not for this stream; a
// user's --name-only fills Files.
func (r *Repo) StreamLog(ctx context.Context, userArgs []string, opts LogOptions, fn func(Commit) bool) error {
	if opts.Local != nil {
		if ok, err := r.streamLogLocal(ctx, opts.Local, userArgs, opts, fn); ok {
			return err
		}
	}
	return r.streamCommits(ctx, "log", userArgs, opts, fn)
}

// StreamShow is StreamLog for `git show`'s choice of commits: the revisions
// themselves, a range walked (A..B), -<n>. An annotated tag's own header is
// skipped; its commit comes as any other.
func (r *Repo) StreamShow(ctx context.Context, userArgs []string, opts LogOptions, fn func(Commit) bool) error {
	return r.streamCommits(ctx, "show", append([]string{"--no-patch"}, userArgs...), opts, fn)
}

func (r *Repo) streamCommits(ctx context.Context, cmd string, userArgs []string, opts LogOptions, fn func(Commit) bool) error {
	args := LogArgs(cmd, opts, userArgs)
	// git flushes its output after every commit when it goes to a pipe: a
	// write, and a wake-up of ours, per commit. GIT_FLUSH=0 lets it fill
	// its buffer (4 KB, some 20 commits) first: the first lines still come
	// before git is done, and 1,000 commits cost some 50 writes, not 1,000.
	return r.userRun().withEnv("GIT_FLUSH=0").stream(ctx, args, func(out io.Reader) error {
		// Commits already read are not handed out once ctx is done.
		// git log may print paths (a user's --name-only); git show here never.
		paths := cmd == "log" || opts.Files
		err := parseLog(out, paths, opts.MaxNotes, func(c Commit) bool { return ctx.Err() == nil && fn(c) })
		if err != nil && err != errStop && cmd == "show" {
			// git show prints a blob or a tree as it is.
			return fmt.Errorf("git show printed something that is not a commit (a file's contents or a tree?): %w", err)
		}
		return err
	})
}

// LogArgs are the arguments (after "git") of the log or show (cmd) that
// StreamLog and StreamShow run, with GIT_FLUSH=0 in git's environment.
// scripts/benchfloor runs the same.
func LogArgs(cmd string, opts LogOptions, userArgs []string) []string {
	args := []string{"-c", "log.showSignature=false", cmd}
	// Our options come first: git takes no option after a path given
	// without "--", and the user's own options then still count.
	if opts.Files {
		// Names only, against the first parent; a rename lists both
		// names, as ReadCommit does.
		args = append(args, "--name-only", "--no-renames", "--diff-merges=first-parent")
	}
	for _, ref := range opts.Notes {
		args = append(args, "--notes="+ref)
	}
	color := "--no-color"
	if opts.ColorDecorate {
		color = "--color=always" // only %C(auto) placeholders: the format has no other
	}
	args = append(args, "-z", color, "--format="+logFormat(opts))
	return append(args, userArgs...)
}

// LogCommitsShow is StreamShow collected into a slice, with bodies.
func (r *Repo) LogCommitsShow(ctx context.Context, userArgs []string) ([]Commit, error) {
	var out []Commit
	err := r.StreamShow(ctx, userArgs, LogOptions{Body: true}, func(c Commit) bool {
		out = append(out, c)
		return true
	})
	return out, err
}

// withEnv is r with kv ("NAME=value") added to git's environment, the
// last word for each name.
func (r runner) withEnv(kv ...string) runner {
	env := r.env
	if env == nil {
		env = os.Environ()
	}
	r.env = append(env[:len(env):len(env)], kv...)
	return r
}

// ShowRecord is one object `git show` printed: a commit's header (Hash set),
// or anything else git shows (an annotated tag's header, a blob).
type ShowRecord struct {
	Hash string // the commit's full hash; "" for other objects
	Text string // as git printed it
	// Decorations are those in Text's first line, for coloring (ShowInProcess).
	Decorations []Decoration
	// Colored: Text's first line is colored as git colors it (ShowHeaders with color).
	Colored bool
}

// ShowHeaders runs `git show --no-patch` with the user's arguments and
// returns each commit's header exactly as git prints it (git's medium
// format: merges, tabs, encodings, dates as git renders them), with one git
// process. With terminal, git decorates as it does on a terminal
// (log.decorate=auto): it takes a pager in use for one.
//
// With color, git colors each commit's line (color.diff.commit,
// color.decorate.*) as for a terminal. When git fails, the one record
// returned with the error is what git printed before, raw.
func (r *Repo) ShowHeaders(ctx context.Context, userArgs []string, terminal, color bool) ([]ShowRecord, error) {
	colorArg := "--no-color"
	if color {
		colorArg = "--color=always"
	}
	// --pretty=medium (the header's shape, whatever format.pretty says)
	// turns git's default notes off: --notes turns them on again, unless
	// the user chose notes. log.showSignature stays the user's.
	args := []string{"show", "--no-patch", "-z", colorArg, "--pretty=medium"}
	if !HasNotesOption(userArgs) {
		args = append(args, "--notes")
	}
	args = append(args, userArgs...)
	run := r.userRun()
	if terminal {
		run = run.withEnv("GIT_PAGER_IN_USE=true")
	}
	out, err := run.output(ctx, args...)
	if err != nil {
		if len(out) > 0 {
			// What git printed before it failed (a merge whose parent is
			// gone), raw: the caller passes it on as git's.
			return []ShowRecord{{Text: string(out)}}, err
		}
		return nil, err
	}
	var recs []ShowRecord
	for _, rec := range bytes.Split(bytes.TrimSuffix(out, []byte{0}), []byte{0}) {
		sr := ShowRecord{Text: string(rec), Colored: color}
		first, _, _ := strings.Cut(sr.Text, "\n")
		if color {
			first = stripSGR(first)
		}
		if h, ok := strings.CutPrefix(first, "commit "); ok {
			h, _, _ = strings.Cut(h, " ")
			if IsFullHash(h) {
				sr.Hash = h
			}
		}
		recs = append(recs, sr)
	}
	return recs, nil
}

// HasNotesOption says whether the user gave git an option about notes
// (before any "--").
func HasNotesOption(userArgs []string) bool {
	for _, a := range userArgs {
		if a == "--" || a == "--end-of-options" {
			return false
		}
		for _, p := range []string{"--notes", "--no-notes", "--show-notes", "--standard-notes", "--no-standard-notes"} {
			if a == p || strings.HasPrefix(a, p+"=") {
				return true
			}
		}
	}
	return false
}

// parseLog reads logFormat records and hands each to fn as soon as the next
// byte shows it is complete: its paths, if any, come after it, the first
// one after a newline. Without paths (git show, which prints no paths here)
// what follows a record is the next one, maybe after an annotated tag's
// header, and a header left at the end (its commit was shown already) is
// no commit. A notes field longer than maxNotes (when not 0) is read past,
// not kept: the commit's NotesOver says so.
func parseLog(rd io.Reader, paths bool, maxNotes int, fn func(Commit) bool) error {
	br := bufio.NewReaderSize(rd, 64*1024)
	var (
		cur       *Commit
		firstPath bool
		// The fields of the record being read, copied into one buffer
		// reused for every record (offs: each field's start and end):
		// only the strings a Commit keeps are allocated.
		arena     []byte
		offs      []int
		fields    [][]byte
		notesOver bool
	)
	// read reads a field; one of more than limit bytes (when not 0) is
	// read past, chunk by chunk, and returned empty with over set.
	read := func(limit int) (field []byte, over bool, err error) {
		start := len(arena)
		for {
			chunk, err := br.ReadSlice(0)
			n := len(arena) - start + len(chunk)
			if err == nil {
				n-- // the NUL that ends the field
			}
			if limit > 0 && n > limit && !over {
				arena, over = arena[:start], true
			}
			if !over {
				arena = append(arena, chunk...)
			}
			if err != bufio.ErrBufferFull {
				return arena[start:], over, err
			}
		}
	}
	recordFields := func() [][]byte {
		fields = fields[:0]
		for k := 0; k < len(offs); k += 2 {
			fields = append(fields, arena[offs[k]:offs[k+1]])
		}
		return fields
	}
	for {
		if cur != nil {
			// A record, or its last path, is done when the next record
			// starts or the stream ends. Paths start after a newline.
			if next, err := br.Peek(1); !paths || err != nil || next[0] == '/' || (firstPath && next[0] != '\n') {
				if !fn(*cur) {
					return errStop
				}
				cur = nil
			}
		}
		if cur != nil || len(offs) == 0 {
			arena = arena[:0] // nothing in it is needed any more
		}
		start := len(arena)
		limit := 0
		if cur == nil && len(offs)/2 == logNotesField {
			limit = maxNotes
		}
		b, over, err := read(limit)
		if err == io.EOF && len(b) == 0 && !over {
			break
		}
		notesOver = notesOver || over
		if err != nil && err != io.EOF {
			return err
		}
		b = bytes.TrimSuffix(b, []byte{0})
		if cur != nil {
			if firstPath {
				b, firstPath = bytes.TrimPrefix(b, []byte{'\n'}), false
			}
			if len(b) > 0 {
				cur.Files = append(cur.Files, string(b))
			}
			continue
		}
		offs = append(offs, start, start+len(b))
		if len(offs)/2 < logFields {
			if err == io.EOF {
				break
			}
			continue
		}
		c, perr := parseLogRecord(recordFields())
		if perr != nil {
			return perr
		}
		c.NotesOver, notesOver = notesOver, false
		cur, firstPath, offs = &c, true, offs[:0]
	}
	fields = recordFields()
	if len(fields) == 1 && !paths && bytes.HasPrefix(fields[0], []byte("\ntag ")) {
		return nil
	}
	if len(fields) > 0 {
		return fmt.Errorf("unexpected git log record %.200q", bytes.Join(fields, []byte{0}))
	}
	return nil
}

func parseLogRecord(f [][]byte) (Commit, error) {
	// git show prints an annotated tag's header, which holds no NUL, before
	// its commit's record.
	if i := bytes.LastIndex(f[0], []byte("\n/")); i >= 0 && (len(f[0]) == 0 || f[0][0] != '/') {
		f[0] = f[0][i+1:]
	}
	hash, ok := bytes.CutPrefix(f[0], []byte{'/'})
	if !ok || !isFullHash(hash) {
		return Commit{}, fmt.Errorf("unexpected git log record %.200q", bytes.Join(f, []byte{0}))
	}
	c := Commit{Hash: string(hash), AuthorName: string(f[2]), AuthorEmail: string(f[3]), Subject: string(f[6]),
		Abbrev: string(f[8]), Mark: string(f[10]), Source: string(f[11])}
	if bytes.IndexByte(f[8], 0x1b) >= 0 {
		// %C(auto) before it colors %h too: the caller colors it once.
		c.Abbrev = stripSGR(c.Abbrev)
	}
	c.Parents = strings.Fields(string(f[1]))
	if len(c.Parents) == 0 {
		c.Parents = nil
	}
	c.Author = c.AuthorName + " <" + c.AuthorEmail + ">"
	c.AuthorTime, _ = time.Parse(time.RFC3339, string(f[4]))
	c.CommitTime, _ = time.Parse(time.RFC3339, string(f[5]))
	if bytes.HasPrefix(f[7], []byte{0x1b}) || bytes.HasPrefix(f[7], []byte(" (")) {
		// ColorDecorate's %d: " (...)", colored, after the reset %C(auto) writes.
		c.Decoration = strings.TrimPrefix(string(f[7]), "\x1b[m")
	} else {
		c.Refs = splitRefs(string(f[7]))
	}
	c.Notes = string(f[logNotesField])
	c.Body = strings.Trim(string(f[12]), "\n")
	return c, nil
}

// stripSGR drops the color escapes (ESC [ ... m) from s.
func stripSGR(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "\x1b[")
		if i < 0 {
			return b.String() + s
		}
		b.WriteString(s[:i])
		j := strings.IndexByte(s[i:], 'm')
		if j < 0 {
			return b.String()
		}
		s = s[i+j+1:]
	}
}
