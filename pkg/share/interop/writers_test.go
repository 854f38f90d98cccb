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
