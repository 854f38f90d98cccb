package gitx

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"strings"
)

// Hunk is one hunk of a diff without context lines: the new side's first
// line and count, the old side's count, and the lines it adds.
type Hunk struct {
	Path     string // the file's name on the new side
	OldStart int
	OldLines int
	NewStart int
	NewLines int
	Added    []AddedLine
}

// MergeBase is `git merge-base a b`: the best common ancestor ("" when the
// two have none).
func (r *Repo) MergeBase(ctx context.Context, a, b string) (string, error) {
	out, err := r.run.output(ctx, "merge-base", "--end-of-options", a, b)
	if err != nil {
		if e, ok := err.(*Error); ok && e.ExitCode() == 1 {
			return "", nil // no common ancestor
		}
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// RangeHunks returns the hunks of git's diff from base to head (the tree a
// pull request shows), with renames found as the user's git finds them.
func (r *Repo) RangeHunks(ctx context.Context, base, head string) ([]Hunk, error) {
	args := []string{"-c", "core.quotePath=false", "diff-tree", "-p", "-U0", r.renameOption(ctx), "--no-color", "--no-ext-diff",
		"--no-textconv", "-r", base, head}
	var out []Hunk
	err := r.run.stream(ctx, args, func(rd io.Reader) error {
		var perr error
		out, perr = ParseHunks(rd)
		return perr
	})
	return out, err
}

// ParseHunks reads a unified diff (-U0) into its hunks, as ParseAddedLines
// reads it: headers only before a file's first hunk, the hunk's counts
// saying what is content. Hunks of deleted files (no new name) are left out.
func ParseHunks(rd io.Reader) ([]Hunk, error) {
	var out []Hunk
	path := ""
	err := scanPatch(rd, func(b []byte) {
		switch {
		case bytes.HasPrefix(b, []byte("diff --git ")):
			path = ""
		case bytes.HasPrefix(b, []byte("+++ ")):
			path = patchName(b[4:], "b/")
		}
	}, func(h Hunk) {
		if path != "" && (h.OldLines > 0 || h.NewLines > 0) {
			h.Path = path
			out = append(out, h)
		}
	}, func(line int, text []byte) {
		if n := len(out); n > 0 && out[n-1].Path == path && path != "" {
			out[n-1].Added = append(out[n-1].Added, AddedLine{Line: line, Text: string(bytes.TrimSuffix(text, []byte{'\r'}))})
		}
	})
	return out, err
}

// scanPatch reads a -U0 patch stream (git diff or git log -p): header gets
// each line outside a hunk, hunk each hunk's numbers, added each added line
// with its number on the new side. A hunk's counts say what is content, so
// an added line that reads "diff --git" is content.
func scanPatch(rd io.Reader, header func([]byte), hunk func(Hunk), added func(int, []byte)) error {
	lr := lineReader{br: bufio.NewReaderSize(rd, 64*1024)}
	var next, oldLeft, newLeft int
	for {
		b, err := lr.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if oldLeft > 0 || newLeft > 0 {
			switch {
			case len(b) > 0 && b[0] == '-' && oldLeft > 0:
				oldLeft--
				continue
			case len(b) > 0 && b[0] == '+' && newLeft > 0:
				added(next, b[1:])
				next++
				newLeft--
				continue
			case len(b) > 0 && b[0] == '\\': // "\ No newline at end of file"
				continue
			}
			oldLeft, newLeft = 0, 0 // not a diff line: the hunk ended early
		}
		if bytes.HasPrefix(b, []byte("@@ ")) {
			var h Hunk
			if f := bytes.Fields(b); len(f) >= 2 && len(f[1]) >= 2 {
				h.OldStart, _, _ = rangeOf(f[1][1:])
			}
			h.OldLines, h.NewStart, h.NewLines = hunkHeader(b)
			oldLeft, next, newLeft = h.OldLines, h.NewStart, h.NewLines
			hunk(h)
			continue
		}
		if len(b) > 0 && b[0] == '\\' {
			continue
		}
		header(b)
	}
}

// patchName is the path of a "--- " or "+++ " line without its prefix
// ("a/", "b/"); "" for /dev/null.
func patchName(b []byte, prefix string) string {
	p := string(bytes.TrimSuffix(b, []byte{'\t'})) // git ends a name that holds a space with a tab
	if p == "/dev/null" {
		return ""
	}
	p = unquotePath(p)
	if len(p) > 2 && p[:2] == prefix {
		p = p[2:]
	}
	return p
}

// Origin is where a line of head came from: the commit that added it, its
// path there and its number in that commit's version. The zero Origin is
// a line the range did not add (it was in the base).
type Origin struct {
	Commit string
	Path   string
	Line   int
}

// CarryLines is blame for a linear range, in one pass: it replays the
// patches of base..head (git log --reverse -p -U0, renames as the user's
// git finds them) and keeps, for every line of every file it touches, the
// commit that wrote it. linear is false, and nothing is returned, when a
// commit of the range has several parents: blame it instead.
func (r *Repo) CarryLines(ctx context.Context, base, head string) (files map[string][]Origin, linear bool, err error) {
	out, err := r.run.output(ctx, "rev-list", "--min-parents=2", "--count", base+".."+head)
	if err != nil {
		return nil, false, err
	}
	if strings.TrimSpace(string(out)) != "0" {
		return nil, false, nil
	}
	args := []string{"-c", "core.quotePath=false", "log", "--reverse", "-p", "-U0", r.renameOption(ctx), "--no-color",
		"--no-ext-diff", "--no-textconv", "--format=commit %H", base + ".." + head}
	err = r.run.stream(ctx, args, func(rd io.Reader) error {
		var perr error
		files, perr = carry(rd)
		return perr
	})
	return files, err == nil, err
}

// carry reads git log -p -U0 --reverse and replays it (CarryLines).
func carry(rd io.Reader) (map[string][]Origin, error) {
	files := map[string][]Origin{}
	var (
		commit, from, to string
		renamed          bool
		hunks            []Hunk
	)
	// apply replays one file's hunks, bottom first so that the positions
	// above stay valid. Lines past the slice's end are base lines.
	apply := func() {
		defer func() { from, to, renamed, hunks = "", "", false, hunks[:0] }()
		if from == "" && to == "" {
			return
		}
		owners := files[from]
		if from != to {
			delete(files, from)
		}
		if to == "" { // deleted
			return
		}
		for i := len(hunks) - 1; i >= 0; i-- {
			h := hunks[i]
			start := h.OldStart
			if h.OldLines > 0 {
				start--
			}
			if start < 0 {
				continue // no header git writes
			}
			if need := start + h.OldLines; len(owners) < need {
				owners = append(owners, make([]Origin, need-len(owners))...)
			}
			repl := make([]Origin, h.NewLines)
			for j := range repl {
				repl[j] = Origin{Commit: commit, Path: to, Line: h.NewStart + j}
			}
			owners = append(owners[:start], append(repl, owners[start+h.OldLines:]...)...)
		}
		files[to] = owners
	}
	err := scanPatch(rd, func(b []byte) {
		switch {
		case bytes.HasPrefix(b, []byte("commit ")):
			apply()
			commit = string(bytes.TrimSpace(b[7:]))
		case bytes.HasPrefix(b, []byte("diff --git ")):
			apply()
		case bytes.HasPrefix(b, []byte("rename from ")):
			from, renamed = unquotePath(string(b[12:])), true
		case bytes.HasPrefix(b, []byte("rename to ")):
			to = unquotePath(string(b[10:]))
		case bytes.HasPrefix(b, []byte("--- ")) && !renamed:
			from = patchName(b[4:], "a/")
		case bytes.HasPrefix(b, []byte("+++ ")):
			to = patchName(b[4:], "b/")
			if from == "" && !renamed {
				from = to // a new file: no owners yet
			}
		}
	}, func(h Hunk) { hunks = append(hunks, h) }, func(int, []byte) {})
	if err != nil {
		return nil, err
	}
	apply()
	return files, nil
}
