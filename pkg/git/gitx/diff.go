package gitx

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// AddedLine is a line a commit adds, with its number in the new file.
type AddedLine struct {
	Line int
	Text string // without its line ending ("\r\n" included)
}

// AddedLines returns, per path, the lines a commit adds against its first
// parent (every line of every file for a root commit), from git's own diff
// with no context lines. Renames (and copies) are found as the user's git
// finds them (diff.renames, see renameOption): a moved file adds only the
// lines it changed, under its new name; with diff.renames=false it adds all.
// A merge adds none of its own, as git log --numstat shows it: its
// first-parent diff holds the merged branch's lines, which their own commits
// added.
func (r *Repo) AddedLines(ctx context.Context, c *Commit) (map[string][]AddedLine, error) {
	if len(c.Parents) > 1 {
		return map[string][]AddedLine{}, nil
	}
	args := r.addedLinesArgs(ctx)
	if len(c.Parents) == 0 {
		args = append(args, "--root", c.Hash)
	} else {
		args = append(args, c.Parents[0], c.Hash)
	}
	var out map[string][]AddedLine
	err := r.run.stream(ctx, args, func(rd io.Reader) error {
		var perr error
		out, perr = ParseAddedLines(rd)
		return perr
	})
	return out, err
}

func (r *Repo) addedLinesArgs(ctx context.Context) []string {
	return []string{"-c", "core.quotePath=false", "diff-tree", "-p", "-U0", r.renameOption(ctx), "--no-color", "--no-ext-diff",
		"--no-textconv", "-r"}
}

// AddedLinesOf is AddedLines for each of commits, keyed by hash, from one
// git diff-tree reading the commits on its standard input: a drain of 50
// queued commits starts one git, not 50. A commit's diff is parsed when the
// next one starts, so memory holds one commit's diff at a time.
func (r *Repo) AddedLinesOf(ctx context.Context, commits []*Commit) (map[string]map[string][]AddedLine, error) {
	out := map[string]map[string][]AddedLine{}
	var in strings.Builder
	var order []string // the commits git diffs, in its order
	for _, c := range commits {
		if len(c.Parents) > 1 {
			out[c.Hash] = map[string][]AddedLine{}
			continue
		}
		if _, seen := out[c.Hash]; !seen {
			out[c.Hash] = nil
			in.WriteString(c.Hash + "\n")
			order = append(order, c.Hash)
		}
	}
	if len(order) == 0 {
		return out, nil
	}
	// --always: a commit with an empty diff still prints its hash line,
	// which starts each commit's part (no line of a diff is a bare hash:
	// content and headers all start otherwise). --root: a root commit's
	// files are all added, as AddedLines has it.
	args := append(r.addedLinesArgs(ctx), "--stdin", "--always", "--root")
	err := r.run.streamIn(ctx, args, strings.NewReader(in.String()), func(rd io.Reader) error {
		lr := lineReader{br: bufio.NewReaderSize(rd, 64*1024)}
		var part bytes.Buffer
		cur, next := "", 0
		done := func() error {
			if cur == "" {
				return nil
			}
			lines, err := ParseAddedLines(&part)
			out[cur] = lines
			part.Reset()
			return err
		}
		for {
			b, err := lr.next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return err
			}
			if next < len(order) && string(b) == order[next] {
				if err := done(); err != nil {
					return err
				}
				cur, next = order[next], next+1
				continue
			}
			if cur == "" {
				return fmt.Errorf("unexpected git diff-tree output %.200q", b)
			}
			part.Write(b)
			part.WriteByte('\n')
		}
		if err := done(); err != nil {
			return err
		}
		if next < len(order) {
			return fmt.Errorf("git diff-tree gave %d of %d commits", next, len(order))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ParseAddedLines reads a unified diff (-U0) and collects its added lines.
// Headers are read only where one can stand (before a file's first hunk);
// inside a hunk its line counts say what is content, so an added line that
// reads "++ x" or "diff --git" is content. Lines may be of any length.
func ParseAddedLines(rd io.Reader) (map[string][]AddedLine, error) {
	out := map[string][]AddedLine{}
	lr := lineReader{br: bufio.NewReaderSize(rd, 64*1024)}
	var (
		path           string
		next           int // the new file's number of the next added line
		oldLeft, added int // lines the current hunk still holds
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
				if path != "" {
					out[path] = append(out[path], AddedLine{Line: next, Text: string(bytes.TrimSuffix(b[1:], []byte{'\r'}))})
				}
				next++
				added--
			case len(b) > 0 && b[0] == '\\': // "\ No newline at end of file"
			default:
				oldLeft, added = 0, 0 // not a diff line: the hunk ended early
			}
			if oldLeft > 0 || added > 0 || len(b) == 0 || b[0] != 'd' {
				continue
			}
		}
		switch {
		case bytes.HasPrefix(b, []byte("diff --git ")):
			path = ""
		case bytes.HasPrefix(b, []byte("+++ ")):
			// git ends a name that holds a space with a tab.
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
			oldLeft, next, added = hunkHeader(b)
		case len(b) > 0 && b[0] == '\\': // after the last line of a hunk
		}
	}
}

// hunkHeader reads "@@ -a[,b] +c[,d] @@": the old side's count, the new
// side's first line and count (a count left out is 1). A header git would
// not write (a number missing or negative, added lines before line 1) is
// no hunk: all zeros.
func hunkHeader(b []byte) (oldCount, newStart, newCount int) {
	f := bytes.Fields(b)
	if len(f) < 3 || len(f[1]) < 2 || len(f[2]) < 2 || f[1][0] != '-' || f[2][0] != '+' {
		return 0, 0, 0
	}
	_, oc, ok1 := rangeOf(f[1][1:])
	ns, nc, ok2 := rangeOf(f[2][1:])
	if !ok1 || !ok2 || (nc > 0 && ns < 1) {
		return 0, 0, 0
	}
	return oc, ns, nc
}

func rangeOf(b []byte) (start, count int, ok bool) {
	s, c, found := bytes.Cut(b, []byte{','})
	start, err := strconv.Atoi(string(s))
	if err != nil || start < 0 || start > maxPatchLine {
		return 0, 0, false
	}
	count = 1
	if found {
		if count, err = strconv.Atoi(string(c)); err != nil || count < 0 || count > maxPatchLine {
			return 0, 0, false
		}
	}
	return start, count, true
}

// maxPatchLine bounds the line numbers and counts a hunk header may give:
// a file is replayed line by line (carry), and a header naming line 10^10
// (none git writes: the fuzzer's) asked for that many at once. Past it, a
// header is no hunk.
const maxPatchLine = 1 << 22
