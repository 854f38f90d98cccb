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
	lr := lineReader{br: bufio.NewReaderSize(rd, 64*1024)}
	var (
		path           string
		cur            *Hunk
		next           int
		oldLeft, added int
	)
	for {
		b, err := lr.next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if oldLeft > 0 || added > 0 {
			switch {
			case len(b) > 0 && b[0] == '-' && oldLeft > 0:
				oldLeft--
			case len(b) > 0 && b[0] == '+' && added > 0:
				if cur != nil {
					cur.Added = append(cur.Added, AddedLine{Line: next, Text: string(bytes.TrimSuffix(b[1:], []byte{'\r'}))})
				}
				next++
				added--
			case len(b) > 0 && b[0] == '\\':
			default:
				oldLeft, added = 0, 0
			}
			if oldLeft > 0 || added > 0 || len(b) == 0 || b[0] != 'd' {
				continue
			}
		}
		switch {
		case bytes.HasPrefix(b, []byte("diff --git ")):
			path, cur = "", nil
		case bytes.HasPrefix(b, []byte("+++ ")):
			p := string(bytes.TrimSuffix(b[4:], []byte{'\t'}))
			if p == "/dev/null" {
				path = ""
				continue
			}
			p = unquotePath(p)
			if len(p) > 2 && p[:2] == "b/" {
				p = p[2:]
			}
			path = p
		case bytes.HasPrefix(b, []byte("@@ ")):
			f := bytes.Fields(b)
			var os, oc int
			if len(f) >= 2 && len(f[1]) >= 2 {
				os, oc, _ = rangeOf(f[1][1:])
			}
			oldLeft, next, added = hunkHeader(b)
			cur = nil
			if path != "" && (oldLeft > 0 || added > 0) {
				out = append(out, Hunk{Path: path, OldStart: os, OldLines: oc, NewStart: next, NewLines: added})
				cur = &out[len(out)-1]
			}
		}
	}
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
	lr := lineReader{br: bufio.NewReaderSize(rd, 64*1024)}
	var (
		commit, from, to string
		renameFrom       string
		hunks            []Hunk
		oldLeft, added   int
	)
	// apply replays one file's hunks, bottom first so that the positions
	// above stay valid. Lines past the slice's end are base lines.
	apply := func() {
		if from == "" && to == "" {
			return
		}
		owners := files[from]
		if from != to {
			delete(files, from)
		}
		if to == "" { // deleted
			hunks = hunks[:0]
			return
		}
		for i := len(hunks) - 1; i >= 0; i-- {
			h := hunks[i]
			start := h.OldStart
			if h.OldLines > 0 {
				start--
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
		hunks = hunks[:0]
	}
	for {
		b, err := lr.next()
		if err == io.EOF {
			apply()
			return files, nil
		}
		if err != nil {
			return nil, err
		}
		if oldLeft > 0 || added > 0 {
			switch {
			case len(b) > 0 && b[0] == '-' && oldLeft > 0:
				oldLeft--
			case len(b) > 0 && b[0] == '+' && added > 0:
				added--
			case len(b) > 0 && b[0] == '\\':
			default:
				oldLeft, added = 0, 0
			}
			if oldLeft > 0 || added > 0 || len(b) == 0 || (b[0] != 'd' && b[0] != 'c') {
				continue
			}
		}
		switch {
		case bytes.HasPrefix(b, []byte("commit ")):
			apply()
			from, to, renameFrom = "", "", ""
			commit = string(bytes.TrimSpace(b[7:]))
		case bytes.HasPrefix(b, []byte("diff --git ")):
			apply()
			from, to, renameFrom = "", "", ""
		case bytes.HasPrefix(b, []byte("rename from ")):
			renameFrom = unquotePath(string(b[12:]))
			from = renameFrom
		case bytes.HasPrefix(b, []byte("rename to ")):
			to = unquotePath(string(b[10:]))
			if renameFrom != "" {
				from = renameFrom
			}
		case bytes.HasPrefix(b, []byte("--- ")):
			p := string(bytes.TrimSuffix(b[4:], []byte{'\t'}))
			if p != "/dev/null" {
				p = unquotePath(p)
				from = strings.TrimPrefix(p, "a/")
			}
		case bytes.HasPrefix(b, []byte("+++ ")):
			p := string(bytes.TrimSuffix(b[4:], []byte{'\t'}))
			if p == "/dev/null" {
				to = ""
				continue
			}
			p = unquotePath(p)
			to = strings.TrimPrefix(p, "b/")
			if from == "" && renameFrom == "" {
				from = to // a new file: no owners yet
			}
		case bytes.HasPrefix(b, []byte("@@ ")):
			f := bytes.Fields(b)
			var os, oc int
			if len(f) >= 2 && len(f[1]) >= 2 {
				os, oc, _ = rangeOf(f[1][1:])
			}
			var next int
			oldLeft, next, added = hunkHeader(b)
			hunks = append(hunks, Hunk{OldStart: os, OldLines: oc, NewStart: next, NewLines: added})
		}
	}
}
