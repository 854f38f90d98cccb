package odb

import (
	"strings"
	"testing"
)

// TestParseTree: entries read as git reads them (tree-walk.c: get_mode,
// canon_mode), and a tree git would read otherwise than its entries say
// refused, so that the caller asks git.
func TestParseTree(t *testing.T) {
	h := strings.Repeat("\x01", 20)
	entry := func(mode, name string) string { return mode + " " + name + "\x00" + h }
	for _, tc := range []struct {
		name  string
		tree  string
		modes string // each entry's mode as read, "" where refused
		dirs  string // each entry: d (a directory) or f
	}{
		{"as git writes them", entry("100644", "a") + entry("100755", "b") + entry("120000", "c") + entry("160000", "d") + entry("40000", "e"),
			"100644 100755 120000 160000 40000", "ffffd"},
		{"a directory zero-padded", entry("040000", "a"), "40000", "d"},
		{"a directory with other bits", entry("40755", "a"), "40000", "d"},
		{"a file with group write", entry("100664", "a"), "100644", "f"},
		{"a file executable by its owner only", entry("100744", "a"), "100755", "f"},
		{"a mode of no known type", entry("70000", "a"), "160000", "f"},
		{"a mode with a digit not octal", entry("100648", "a"), "", ""},
		{"an empty mode", entry("", "a"), "", ""},
		{"a mode too long to be git's", entry("0000100644", "a"), "", ""},
		{"a file and a directory of one name", entry("100644", "a") + entry("100644", "a-b") + entry("40000", "a"), "100644 100644 40000", "ffd"},
		{"a name twice", entry("100644", "a") + entry("100644", "a"), "", ""},
		{"out of order", entry("100644", "b") + entry("100644", "a"), "", ""},
		{"a directory sorted as a file", entry("40000", "a") + entry("100644", "a-b"), "", ""},
		{"cut short", entry("100644", "a")[:10], "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			entries, err := ParseTree([]byte(tc.tree))
			if tc.modes == "" {
				if err == nil {
					t.Errorf("read as %v, want refused", entries)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var modes []string
			dirs := ""
			for _, e := range entries {
				modes = append(modes, e.Mode)
				if e.Dir {
					dirs += "d"
				} else {
					dirs += "f"
				}
			}
			if got := strings.Join(modes, " "); got != tc.modes || dirs != tc.dirs {
				t.Errorf("modes %q, dirs %q; want %q, %q", got, dirs, tc.modes, tc.dirs)
			}
		})
	}
}
