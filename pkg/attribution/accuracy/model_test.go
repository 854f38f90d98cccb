package accuracy

import (
	"slices"
	"strings"
)

// line is one line of a file as the harness knows it: its text and who wrote
// it ("" for a person, else a conversation id). fresh marks a line written
// since the branch's last commit.
type line struct {
	text, writer string
	fresh        bool
}

// tree is the harness's copy of a branch's files.
type tree map[string][]line

func (t tree) clone() tree {
	out := make(tree, len(t))
	for p, ls := range t {
		out[p] = slices.Clone(ls)
	}
	return out
}

func render(ls []line) string {
	var b strings.Builder
	for _, l := range ls {
		b.WriteString(l.text)
		b.WriteByte('\n')
	}
	return b.String()
}

func texts(ls []line) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l.text
	}
	return out
}

// commitTruth is what a commit really holds: the conversations that wrote at
// least one of its lines, and its changed files as they are in it.
type commitTruth struct {
	writers map[string]bool
	files   tree
	// started: the conversations that had begun when the commit was made;
	// no other can have edited its files first.
	started map[string]bool
}

// anchor is the shortest run of lines ending before at (or, at the top of the
// file, starting at at) whose text occurs once in the file: the context an
// agent's edit tool must give for its old_string to be unique.
func anchor(lines []string, at int) (before, after []string) {
	whole := strings.Join(lines, "\n")
	for k := 1; k <= at; k++ {
		s := strings.Join(lines[at-k:at], "\n")
		if strings.Count(whole, s) == 1 {
			return lines[at-k : at], nil
		}
	}
	for k := 1; at+k <= len(lines); k++ {
		s := strings.Join(lines[at:at+k], "\n")
		if strings.Count(whole, s) == 1 {
			return nil, lines[at : at+k]
		}
	}
	return lines[:at], lines[at:]
}
