package gitx

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
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

// rangeRenames is the rename detection of a range's diff and replay
// (RangeHunks, CarryLines, RangeLines), whatever diff.renames says: renames
// found, copies not, as a pull request shows a range and as git blame
// follows lines (a renamed file, never a copy without -C). With the user's
// copies, a copy's lines took the writer of the file copied from, which
// blame does not say, and that file's own lines lost theirs.
const rangeRenames = "-M"

// RangeHunks returns the hunks of git's diff from base to head (the tree a
// pull request shows), renames found (rangeRenames).
func (r *Repo) RangeHunks(ctx context.Context, base, head string) ([]Hunk, error) {
	args := []string{"-c", "core.quotePath=false", "diff-tree", "-p", "-U0", rangeRenames, "--no-color", "--no-ext-diff",
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
	var p hunkReader
	err := scanPatch(rd, p.header, p.hunk, p.added)
	return p.out, err
}

// hunkReader collects a diff's hunks (ParseHunks).
type hunkReader struct {
	out  []Hunk
	path string
}

func (p *hunkReader) header(b []byte) {
	switch {
	case bytes.HasPrefix(b, []byte("diff --git ")):
		p.path = ""
	case bytes.HasPrefix(b, []byte("+++ ")):
		p.path = patchName(b[4:], "b/")
	}
}

func (p *hunkReader) hunk(h Hunk) {
	if p.path != "" && (h.OldLines > 0 || h.NewLines > 0) {
		h.Path = p.path
		p.out = append(p.out, h)
	}
}

func (p *hunkReader) added(line int, text []byte) {
	if n := len(p.out); n > 0 && p.out[n-1].Path == p.path && p.path != "" {
		p.out[n-1].Added = append(p.out[n-1].Added, AddedLine{Line: line, Text: string(bytes.TrimSuffix(text, []byte{'\r'}))})
	}
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
// patches of base..head (git log --reverse -p -U0, renames found:
// rangeRenames) and keeps, for every line of every file it touches, the
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
	// log.showSignature would put the verifier's output among the patches.
	args := []string{"-c", "core.quotePath=false", "-c", "log.showSignature=false", "log", "--reverse", "-p", "-U0", rangeRenames, "--no-color",
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
	c := carrier{files: map[string][]Origin{}}
	if err := scanPatch(rd, c.header, c.hunk, func(int, []byte) {}); err != nil {
		return nil, err
	}
	c.apply()
	return c.files, nil
}

// carrier replays patches, a commit's after another (carry): for every
// line of every file they touch, the commit that wrote it.
type carrier struct {
	files            map[string][]Origin
	commit, from, to string
	renamed          bool
	hunks            []Hunk
}

func (c *carrier) header(b []byte) {
	switch {
	case bytes.HasPrefix(b, []byte("commit ")):
		c.apply()
		c.commit = string(bytes.TrimSpace(b[7:]))
	case bytes.HasPrefix(b, []byte("diff --git ")):
		c.apply()
	case bytes.HasPrefix(b, []byte("rename from ")):
		c.from, c.renamed = unquotePath(string(b[12:])), true
	case bytes.HasPrefix(b, []byte("rename to ")):
		c.to = unquotePath(string(b[10:]))
	case bytes.HasPrefix(b, []byte("--- ")) && !c.renamed:
		c.from = patchName(b[4:], "a/")
	case bytes.HasPrefix(b, []byte("+++ ")):
		c.to = patchName(b[4:], "b/")
		if c.from == "" && !c.renamed {
			c.from = c.to // a new file: no owners yet
		}
	}
}

func (c *carrier) hunk(h Hunk) { c.hunks = append(c.hunks, h) }

// apply replays one file's hunks, bottom first so that the positions above
// stay valid. Lines past the slice's end are base lines.
func (c *carrier) apply() {
	defer func() { c.from, c.to, c.renamed, c.hunks = "", "", false, c.hunks[:0] }()
	if c.from == "" && c.to == "" {
		return
	}
	owners := c.files[c.from]
	if c.from != c.to {
		delete(c.files, c.from)
	}
	if c.to == "" { // deleted
		return
	}
	for i := len(c.hunks) - 1; i >= 0; i-- {
		h := c.hunks[i]
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
		owners = splice(owners, start, h.OldLines, h.NewLines)
		for j := range h.NewLines {
			owners[start+j] = Origin{Commit: c.commit, Path: c.to, Line: h.NewStart + j}
		}
	}
	c.files[c.to] = owners
}

// splice makes room for n lines in place of the old ones at s[at:], in
// place: no slice per hunk.
func splice(s []Origin, at, old, n int) []Origin {
	switch d := n - old; {
	case d < 0:
		return append(s[:at+n], s[at+old:]...)
	case d > 0:
		l := len(s)
		s = slices.Grow(s, d)[:l+d]
		copy(s[at+n:], s[at+old:l])
	}
	return s
}

// RangeLines is RangeHunks and, when the range is linear, CarryLines, from
// one git process where git answers as those two would: git diff-tree
// --stdin replays the range's commits, oldest first, then diffs base to
// head, and the blobs it read for the first are still in its delta cache
// for the second (the two processes read each file's head twice, and the
// deltas below it). commits are base..head as git log lists them, newest
// first (StreamLog); nil: read here. Where the user's configuration sets a
// diff.* setting that git log honours and diff-tree does not (diff.algorithm,
// diff.interHunkContext, prefixes...), the two commands run as before.
func (r *Repo) RangeLines(ctx context.Context, base, head string, commits []Commit) (hunks []Hunk, files map[string][]Origin, linear bool, err error) {
	r.renameOption(ctx) // reads diffPlain
	rename := rangeRenames
	if !r.diffPlain {
		return r.rangeLinesApart(ctx, base, head)
	}
	if commits == nil {
		if err := r.StreamLog(ctx, []string{"^" + base, head}, LogOptions{}, func(c Commit) bool {
			commits = append(commits, c)
			return true
		}); err != nil {
			return nil, nil, false, err
		}
	}
	linear = true
	var in strings.Builder
	for i := len(commits) - 1; i >= 0; i-- {
		if len(commits[i].Parents) > 1 {
			linear = false
			break
		}
		in.WriteString(commits[i].Hash + "\n")
	}
	if !linear {
		in.Reset()
		commits = nil
	}
	// "head base": head diffed against base as its one parent. Last: it
	// sets head's parents in git's memory for the rest of the run.
	in.WriteString(head + " " + base + "\n")
	var args []string
	if !r.deltaCacheSet {
		// Both passes read the same deltas: a cache a third over git's
		// default (96 MiB) holds them for the second and saves a fifth of
		// git's time on a range of 1,000 commits, for 30 MB more at its peak.
		args = append(args, "-c", "core.deltaBaseCacheLimit=128m")
	}
	args = append(args, "-c", "core.quotePath=false", "diff-tree", "--stdin", "--always", "-r", "-p", "-U0", rename, "--no-color",
		"--no-ext-diff", "--no-textconv", "--format=commit %H")
	err = r.run.streamIn(ctx, args, strings.NewReader(in.String()), func(rd io.Reader) error {
		var perr error
		hunks, files, perr = replayThenDiff(rd, len(commits))
		return perr
	})
	if errors.Is(err, errReplayCount) {
		return r.rangeLinesApart(ctx, base, head) // a git that answers otherwise
	}
	if err != nil {
		return nil, nil, false, err
	}
	if !linear {
		files = nil
	}
	return hunks, files, linear, nil
}

// rangeLinesApart is RangeLines with two commands: git diff-tree for the
// range's diff, git log -p for the replay (a replay that fails is not
// linear: the caller blames).
func (r *Repo) rangeLinesApart(ctx context.Context, base, head string) ([]Hunk, map[string][]Origin, bool, error) {
	hunks, err := r.RangeHunks(ctx, base, head)
	if err != nil {
		return nil, nil, false, err
	}
	files, linear, err := r.CarryLines(ctx, base, head)
	if err != nil {
		return hunks, nil, false, nil
	}
	return hunks, files, linear, nil
}

// errReplayCount: git diff-tree --stdin gave another count of answers than
// it was given inputs.
const errReplayCount = constError("git diff-tree --stdin: answers for inputs")

// replayThenDiff reads diff-tree --stdin --always's answer to n commits
// then a range (RangeLines): every input line has its "commit" header.
func replayThenDiff(rd io.Reader, n int) ([]Hunk, map[string][]Origin, error) {
	c := carrier{files: map[string][]Origin{}}
	var p hunkReader
	seen := 0
	err := scanPatch(rd, func(b []byte) {
		if bytes.HasPrefix(b, []byte("commit ")) {
			if seen++; seen == n+1 {
				c.apply() // the range's diff starts: the last commit's last file
			}
		}
		if seen <= n {
			c.header(b)
		} else {
			p.header(b)
		}
	}, func(h Hunk) {
		if seen <= n {
			c.hunk(h)
		} else {
			p.hunk(h)
		}
	}, func(line int, text []byte) {
		if seen > n {
			p.added(line, text)
		}
	})
	if err != nil {
		return nil, nil, err
	}
	if seen != n+1 {
		return nil, nil, fmt.Errorf("%w: %d of %d", errReplayCount, seen, n+1)
	}
	return p.out, c.files, nil
}
