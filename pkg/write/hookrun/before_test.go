package hookrun

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/agents/source"
)

// TestDiffLate: a copy whose tool had not written the file at its
// PostToolUse is diffed at the turn's end when the file changed since, and
// dropped (claiming nothing) when it did not; with the text its payload
// gave, only the inserted lines that text has are the tool's (a person's
// line written meanwhile is not); another conversation's copies
// wait for its own Stop; one Stop diffs at most maxLateFiles.
func TestDiffLate(t *testing.T) {
	for _, c := range []struct {
		name      string
		files     int  // files the tool names
		written   bool // the tool writes them after its PostToolUse
		said      bool // its PostToolUse gave the text, and someone adds a line too
		otherConv bool // the Stop is another conversation's
		wantFiles int
		wantLeft  int // kept copies and marks left in before/
	}{
		{"written after PostToolUse", 2, true, false, false, 2, 0},
		{"the payload's text", 1, true, true, false, 1, 0},
		{"never written", 2, false, false, false, 0, 0},
		{"another conversation's Stop", 2, true, false, true, 0, 4},
		{"bounded, the rest dropped", maxLateFiles + 3, true, false, false, maxLateFiles, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			root, state := t.TempDir(), t.TempDir()
			o := Options{DBPath: filepath.Join(state, "links.sqlite"), Now: time.Now}
			var paths []string
			for i := 0; i < c.files; i++ {
				p := filepath.Join(root, fmt.Sprintf("f%02d.go", i))
				if err := os.WriteFile(p, []byte("package f\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				paths = append(paths, p)
			}
			call := source.Activity{ConversationID: "c1", ToolCall: "t1", Roots: []string{root}}
			pre, post := call, call
			pre.Before, post.After = paths, paths
			want := "\nvar X = 1"
			if c.said {
				post.Added = map[string][]string{paths[0]: {"var X = 1"}}
				want = "var X = 1"
			}
			o.keepBefore(pre)
			if a := o.diffAfter(post); len(a.Writes) != 0 {
				t.Fatalf("diffed before the write: %+v", a.Writes)
			}
			if c.written {
				content := "package f\n\nvar X = 1\n"
				if c.said {
					content += "var Z = 2 // by hand\n"
				}
				for _, p := range paths {
					if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			stop := source.Activity{ConversationID: "c1", EndsTurn: true, Roots: []string{root}}
			if c.otherConv {
				stop.ConversationID = "c2"
			}
			a := o.diffLate(stop)
			if len(a.Files) != c.wantFiles || len(a.Writes) != c.wantFiles {
				t.Errorf("files %d writes %d, want %d", len(a.Files), len(a.Writes), c.wantFiles)
			}
			for _, f := range a.Files {
				if got := a.Added[f]; len(got) != 1 || got[0] != want {
					t.Errorf("%s: added %q", f, got)
				}
			}
			if a.ToolEdit != (c.wantFiles > 0) {
				t.Errorf("ToolEdit %v", a.ToolEdit)
			}
			left, _ := filepath.Glob(filepath.Join(state, "before", "*"))
			if len(left) != c.wantLeft {
				t.Errorf("%d left in before/, want %d: %v", len(left), c.wantLeft, left)
			}
		})
	}
}
