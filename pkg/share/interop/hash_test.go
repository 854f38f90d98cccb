package interop

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/notes"
)

// TestReadOddHashes: a hash that is no full object name (short, odd,
// not hex, a path) is skipped with a clear reason, by path and by the
// listing alike, never sliced into a note's fanned-out path; a full hash
// beside it still reads its note.
func TestReadOddHashes(t *testing.T) {
	ctx := context.Background()
	dir, commit := repo(t)
	addNote(t, dir, "refs/notes/ai", commit, gitAINote(commit, "m"))
	g := notes.Git{Dir: dir}
	r, _ := gitx.Discover(dir, os.Getenv)
	for _, tc := range []struct {
		name, hash string
		bad        bool
	}{
		{"empty", "", true},
		{"one byte", "a", true},
		{"three bytes", "abc", true},
		{"four bytes", "abcd", true},
		{"abbreviated", commit[:7], true},
		{"odd length", commit[:39], true},
		{"one too long", commit + "0", true},
		{"not hex", strings.Repeat("zz", 20), true},
		{"a path", "../" + commit[3:], true},
		{"a control byte", "\x10" + commit[1:], true},
		{"upper case", strings.ToUpper(commit), false}, // an object name, with no note at that path
		{"SHA-256 length", strings.Repeat("ab", 32), false},
		{"full", commit, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, many := range []bool{false, true} {
				rd := NewReader(r, g, Refs(ctx, g))
				if many {
					rd.ExpectMany() // read through the ref's listing, not by path
				}
				lines, skips, err := rd.Read(ctx, []string{tc.hash, commit}, nil)
				if err != nil {
					t.Fatal(err)
				}
				if len(lines[commit]["a.go"]) != 4 {
					t.Errorf("many %v: the full hash beside it read %v", many, lines[commit])
				}
				bad := len(skips) == 1 && skips[0].Commit == tc.hash && errors.Is(skips[0].Err, errNotObjectName)
				if tc.bad != bad || !tc.bad && len(skips) != 0 {
					t.Errorf("many %v: skips %v, want skipped %v", many, skips, tc.bad)
				}
				if tc.hash != commit && lines[tc.hash] != nil {
					t.Errorf("many %v: %q read %v", many, tc.hash, lines[tc.hash])
				}
			}
		})
	}
}
