package gitx

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"strconv"
	"strings"
)

// AddedLine is a line a commit adds, with its number in the new file.
type AddedLine struct {
	Line int
	Text string
}

// AddedLines returns, per path, the lines a commit adds against its first
// parent (every line of every file for a root commit), from git's own diff
// with no context lines.
func (r *Repo) AddedLines(ctx context.Context, c *Commit) (map[string][]AddedLine, error) {
	args := []string{"-c", "core.quotePath=false", "diff-tree", "-p", "-U0", "--no-color", "--no-renames", "--no-ext-diff", "-r"}
	if len(c.Parents) == 0 {
		args = append(args, "--root", c.Hash)
	} else {
		args = append(args, c.Parents[0], c.Hash)
	}
	out, err := r.run.output(ctx, args...)
	if err != nil {
		return nil, err
	}
	return ParseAddedLines(bytes.NewReader(out))
}

// MaxAddedLine is how much of one added line is kept: a minified bundle can
// add a single line of hundreds of MiB, and it must cost neither the memory
// nor the other files' attribution (it is still counted, cut short).
const MaxAddedLine = 1 << 20

// ParseAddedLines reads a unified diff (-U0) and collects its added lines.
func ParseAddedLines(rd io.Reader) (map[string][]AddedLine, error) {
	out := map[string][]AddedLine{}
	br := bufio.NewReaderSize(rd, 64*1024)
	path, next := "", 0
	for {
		line, err := readCapped(br, MaxAddedLine)
		if err == io.EOF && line == "" {
			return out, nil
		}
		if err != nil && err != io.EOF {
			return out, err
		}
		switch {
		case strings.HasPrefix(line, "diff --git "):
			path, next = "", 0
		case strings.HasPrefix(line, "+++ "):
			// git ends a name that holds a space with a tab.
			p := strings.TrimSuffix(strings.TrimPrefix(line, "+++ "), "\t")
			if p == "/dev/null" {
				path = ""
				continue
			}
			path = strings.TrimPrefix(unquotePath(p), "b/")
		case strings.HasPrefix(line, "--- "):
		case strings.HasPrefix(line, "@@ "):
			// @@ -a,b +c,d @@
			fields := strings.Fields(line)
			if len(fields) >= 3 && strings.HasPrefix(fields[2], "+") {
				start, _, _ := strings.Cut(fields[2][1:], ",")
				next, _ = strconv.Atoi(start)
			}
		case strings.HasPrefix(line, "+"):
			if path != "" && next > 0 {
				out[path] = append(out[path], AddedLine{Line: next, Text: strings.TrimSuffix(line[1:], "\r")})
				next++
			}
		}
	}
}

// readCapped reads one line without its newline, keeping at most max bytes
// of it and skipping the rest.
func readCapped(br *bufio.Reader, max int) (string, error) {
	var b []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if room := max - len(b); room > 0 {
			b = append(b, chunk[:min(len(chunk), room)]...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return strings.TrimSuffix(string(b), "\n"), err
	}
}
