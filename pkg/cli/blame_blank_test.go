package cli

import (
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/store"
)

func TestBlankWriters(t *testing.T) {
	// Each case is a file: per line, its commit and writer ("-": none),
	// and whether it is blank ("_"). Lines of one commit are adjacent in
	// it unless the commit letter changes.
	for _, tc := range []struct{ file, want string }{
		{"Aa Aa A_ Aa", "a a a a"},       // inside one edit
		{"Aa A_ A_ Aa", "a a a a"},       // a run of blanks
		{"Aa A_ Ab", "a - b"},            // between two edits
		{"Aa A_ A-", "a - -"},            // beside the edit, before a person's line
		{"Aa A_", "a -"},                 // at the end
		{"A_ Aa", "- a"},                 // at the start
		{"Aa B_ Aa", "a - a"},            // another commit's blank line
		{"Aa A_ Ba", "a - a"},            // the next line is another commit's
		{"Aa A_ Aa A_ A- ", "a a a - -"}, // the second run ends at a person's line
	} {
		var lines []gitx.BlameLine
		writers := map[string]map[string]map[int]store.LineWriter{}
		orig := map[string]int{}
		for i, f := range strings.Fields(tc.file) {
			c := f[:1]
			orig[c]++
			text := "x"
			if f[1] == '_' {
				text = ""
			}
			lines = append(lines, gitx.BlameLine{Line: i + 1, OrigLine: orig[c], Commit: c, Filename: "f", Text: text})
			if writers[c] == nil {
				writers[c] = map[string]map[int]store.LineWriter{"f": {}}
			}
			if f[1] != '_' && f[1] != '-' {
				writers[c]["f"][orig[c]] = store.LineWriter{ConversationID: f[1:2], GenerationID: "g" + f[2:]}
			}
		}
		blankWriters(lines, writers)
		var got []string
		for _, l := range lines {
			w, ok := writers[l.Commit]["f"][l.OrigLine]
			if !ok {
				got = append(got, "-")
			} else {
				got = append(got, w.ConversationID)
			}
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%s: %s, want %s", tc.file, strings.Join(got, " "), tc.want)
		}
	}
}

// The README and blame's help name every option blame refuses, and no other.
func TestBlameRefusalsDocumented(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Skip("README.md not beside the package:", err)
	}
	var row string
	for _, l := range strings.Split(string(readme), "\n") {
		if strings.HasPrefix(l, "| `git convo blame") {
			row = l
		}
	}
	_, listed, ok := strings.Cut(row, "are refused (run git blame): ")
	if !ok {
		t.Fatalf("README's blame row names no refused options:\n%s", row)
	}
	listed, _, _ = strings.Cut(listed, ".")
	var got []string
	for _, f := range strings.Split(listed, ", ") {
		got = append(got, strings.Trim(f, "`"))
	}
	var want []string
	for name := range blameSpec().refused {
		want = append(want, name)
	}
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("README lists %v\nblame refuses %v", got, want)
	}
	help := blameCommand(&Env{}).Description
	for _, name := range want {
		if !strings.Contains(help, name) {
			t.Errorf("blame's help does not name %s", name)
		}
	}
}
