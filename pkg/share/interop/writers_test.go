package interop

import (
	"strings"
	"testing"
)

// TestCompareJoined: comparing the parts as one text, as sortWriters did
// by joining them.
func TestCompareJoined(t *testing.T) {
	cases := [][2][3]string{
		{{"ab", "c", ""}, {"a", "bd", ""}},
		{{"a", "b", "c"}, {"abc", "", ""}},
		{{"git-ai's notes", "claude", ""}, {"git-ai's notes", "", "Ann"}},
		{{"x", "", ""}, {"x", "", "y"}},
		{{"", "", ""}, {"", "", ""}},
		{{"", "", ""}, {"a", "", ""}},
		{{"é", "", ""}, {"e", "z", ""}},
		{{"a", "b", "z"}, {"a", "bz", "a"}},
	}
	for _, c := range cases {
		for _, p := range [][2][3]string{c, {c[1], c[0]}, {c[0], c[0]}} {
			want := strings.Compare(strings.Join(p[0][:], ""), strings.Join(p[1][:], ""))
			if got := compareJoined(p[0], p[1]); got != want {
				t.Errorf("%q against %q: %d, want %d", p[0], p[1], got, want)
			}
		}
	}
}

// TestWritersTiesInOrder: two sessions of one agent with as many lines
// come in one order, whatever order the maps give them in.
func TestWritersTiesInOrder(t *testing.T) {
	c := Claim{Source: SourceGitAI, From: "git-ai's notes", Evidence: "git-ai checkpoint", Rank: RankEdit, Attribution: Agent, Tool: "claude", Model: "m"}
	one, two := c, c
	one.Session, two.Session = "sess-1", "sess-2"
	byPath := map[string]map[int][]Claim{
		"a.go": {1: {two}, 2: {one}},
		"b.go": {1: {one}, 2: {two}},
		"c.go": {5: {two, one}},
	}
	for range 20 {
		ws := Writers(byPath, nil)
		if len(ws) != 2 || ws[0].Session != "sess-1" || ws[1].Session != "sess-2" || ws[0].Lines != 3 {
			t.Fatalf("%+v", ws)
		}
	}
}
