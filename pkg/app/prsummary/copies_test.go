package prsummary

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCopiesAsBlame: a file copied from one a conversation wrote (and the
// original changed in the same commit, so that git's copy detection finds
// it), in a commit nothing records. pr's answer is blame's, whatever
// diff.renames says: git blame follows a renamed file, never a copy (only
// with -C), so the copy's lines are its commit's (no record), and the
// original keeps its writer.
func TestCopiesAsBlame(t *testing.T) {
	f := newFixture(t, "x")
	body := "package app\n\nfunc Hello() string {\n\treturn \"hi\"\n}\n"
	if err := os.WriteFile(filepath.Join(f.dir, "copy.go"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(f.dir, "app.go"), []byte(body+"\n// Bye is a person's.\nfunc Bye() {}\n\nvar Z = 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, f.dir, "add", "-A")
	git(t, f.dir, "commit", "-q", "-m", "copy")
	if out := git(t, f.dir, "-c", "diff.renames=copies", "show", "--format=", "--name-status", "HEAD"); !strings.Contains("\n"+out, "\nC") {
		t.Fatalf("git does not see the copy: %s", out)
	}
	head := git(t, f.dir, "rev-parse", "HEAD")
	for _, l := range strings.Split(git(t, f.dir, "-c", "diff.renames=copies", "blame", "-l", "-s", "copy.go"), "\n") {
		if !strings.HasPrefix(l, head) {
			t.Fatalf("git blame gives a line of the copy to another commit: %s", l)
		}
	}
	var want string
	for _, renames := range []string{"", "true", "false", "copies"} {
		if renames != "" {
			git(t, f.dir, "config", "diff.renames", renames)
		}
		s := f.summarize(t, f.st, false, "main..feature")
		got := fmt.Sprintf("%+v %+v", s.Headline.Lines, s.Files)
		if renames == "" {
			want = got
			// app.go: the agent's 3 lines, the person's 2, Z no record;
			// copy.go: 4 lines of the copy's commit (no record).
			if s.Headline.Agent != 3 || s.Headline.NoEdit != 2 || s.Headline.NoRecord != 2+1+4 {
				t.Errorf("headline %+v", s.Headline.Lines)
			}
			continue
		}
		if got != want {
			t.Errorf("diff.renames=%s:\n%s\nwant (unset)\n%s", renames, got, want)
		}
	}
}
