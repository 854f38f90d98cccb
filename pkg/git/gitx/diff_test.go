package gitx

import (
	"context"
	"io"
	"reflect"
	"strings"
	"testing"
)

func TestAddedLines(t *testing.T) {
	r := newTestRepo(t)
	r.write("a.go", "one\ntwo\nthree\n")
	r.write("sp ace.go", "x\n")
	r.write("ü.go", "u\n")
	r.commit("root")
	r.write("a.go", "one\nTWO\nthree\nfour\n")
	r.git("rm", "-q", "sp ace.go")
	r.write("new.go", "n1\n\nn3\n")
	r.write("ü.go", "u\r\nv\r\n")
	r.commit("second")
	repo := r.open()
	ctx := context.Background()
	for _, tc := range []struct {
		rev  string
		want map[string][]AddedLine
	}{
		{"HEAD~1", map[string][]AddedLine{"a.go": {{1, "one"}, {2, "two"}, {3, "three"}}, "sp ace.go": {{1, "x"}}, "ü.go": {{1, "u"}}}},
		{"HEAD", map[string][]AddedLine{"a.go": {{2, "TWO"}, {4, "four"}}, "new.go": {{1, "n1"}, {2, ""}, {3, "n3"}}, "ü.go": {{1, "u"}, {2, "v"}}}},
	} {
		c, err := repo.ReadCommit(ctx, tc.rev)
		if err != nil {
			t.Fatal(err)
		}
		got, err := repo.AddedLines(ctx, c)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %v %v, want %v", tc.rev, got, err, tc.want)
		}
	}
}

func TestParseAddedLinesQuotedNames(t *testing.T) {
	diff := "diff --git \"a/tab\\there\" \"b/tab\\there\"\n--- /dev/null\n+++ \"b/tab\\there\"\n@@ -0,0 +1 @@\n+x\n"
	got, err := ParseAddedLines(strings.NewReader(diff))
	if err != nil || !reflect.DeepEqual(got, map[string][]AddedLine{"tab\there": {{1, "x"}}}) {
		t.Errorf("%v %v", got, err)
	}
}

// TestAddedLinesLikeHeaders commits lines that read like diff headers
// ("++ x" is "+++ x" in the diff), and renames: a moved file adds only the
// lines it changed, under its new name.
func TestAddedLinesLikeHeaders(t *testing.T) {
	r := newTestRepo(t)
	r.write("a.txt", "keep\n")
	r.write("old.txt", "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\n")
	r.write("moved.txt", "m1\nm2\nm3\n")
	r.commit("root")
	r.write("a.txt", "keep\n++ b/not a header\n-- also content\ndiff --git a/x b/x\n@@ -1 +1 @@\nafter\n")
	r.git("mv", "old.txt", "new.txt")
	r.write("new.txt", "l1\nl2\nl3\nL4\nl5\nl6\nl7\nl8\n")
	r.git("mv", "moved.txt", "moved-too.txt")
	r.commit("second")
	repo := r.open()
	ctx := context.Background()
	c, err := repo.ReadCommit(ctx, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	got, err := repo.AddedLines(ctx, c)
	want := map[string][]AddedLine{
		"a.txt":   {{2, "++ b/not a header"}, {3, "-- also content"}, {4, "diff --git a/x b/x"}, {5, "@@ -1 +1 @@"}, {6, "after"}},
		"new.txt": {{4, "L4"}},
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("%v %v\nwant %v", got, err, want)
	}
}

// repeatReader yields n bytes of b.
type repeatReader struct {
	b byte
	n int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := min(len(p), r.n)
	for i := range p[:k] {
		p[i] = r.b
	}
	r.n -= k
	return k, nil
}

// TestParsersTakeAnyLineLength feeds the diff and blame parsers a line
// longer than 64 MiB.
func TestParsersTakeAnyLineLength(t *testing.T) {
	const n = 64<<20 + 10
	diff := io.MultiReader(strings.NewReader("diff --git a/f b/f\n--- /dev/null\n+++ b/f\n@@ -0,0 +1,2 @@\n+"),
		&repeatReader{'x', n}, strings.NewReader("\n+short\n"))
	got, err := ParseAddedLines(diff)
	if err != nil || len(got["f"]) != 2 || len(got["f"][0].Text) != n || got["f"][1] != (AddedLine{2, "short"}) {
		t.Errorf("diff: %d lines, %v", len(got["f"]), err)
	}
	h := strings.Repeat("ab", 20)
	blame := io.MultiReader(strings.NewReader(h+" 1 1 2\nauthor A\nfilename f\n\t"), &repeatReader{'y', n},
		strings.NewReader("\n"+h+" 2 2\n\tshort\r\n"))
	lines, err := ParseBlame(blame)
	if err != nil || len(lines) != 2 || len(lines[0].Text) != n || lines[1].Text != "short\r" {
		t.Errorf("blame: %d lines, %v", len(lines), err)
	}
}

// FuzzParseAddedLines: whatever it is given, the diff parser does not panic
// and every added line has a path and a line number.
func FuzzParseAddedLines(f *testing.F) {
	f.Add("diff --git a/f b/f\n--- /dev/null\n+++ b/f\n@@ -0,0 +1,2 @@\n+++ x\n+y\n")
	f.Add("diff --git \"a/t\\tb\" \"b/t\\tb\"\n--- a/x\n+++ \"b/t\\tb\"\n@@ -1,2 +1 @@\n-a\n-b\n+c\n\\ No newline at end of file\n")
	f.Fuzz(func(t *testing.T, in string) {
		got, err := ParseAddedLines(strings.NewReader(in))
		if err != nil {
			return
		}
		for p, lines := range got {
			for _, l := range lines {
				if p == "" || l.Line < 1 {
					t.Fatalf("%q: %+v", p, l)
				}
			}
		}
	})
}

// TestAddedLinesOf: one git for many commits gives each commit what
// AddedLines gives it alone: a root commit, renames, an empty commit, a
// merge, a line that is a bare commit hash, no newline at the end, CRLF, a
// binary file, the same commit twice, and a commit with no parent in the
// middle of the input.
func TestAddedLinesOf(t *testing.T) {
	r := newTestRepo(t)
	r.write("a.go", "one\ntwo\n")
	r.write("old.txt", "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\n")
	r.commit("root")
	root := r.git("rev-parse", "HEAD")
	r.write("a.go", "one\n"+root+"\n"+root+"\ntwo")
	r.git("mv", "old.txt", "new.txt")
	r.write("new.txt", "l1\nl2\nl3\nL4\nl5\nl6\nl7\nl8\n")
	r.commit("hash lines, rename, no newline")
	r.git("commit", "-q", "--allow-empty", "-m", "empty")
	r.git("checkout", "-q", "-b", "side", "HEAD~1")
	r.write("b.bin", "\x00\x01bin\n")
	r.write("c.txt", "c1\r\nc2\r\n")
	r.commit("side")
	r.git("checkout", "-q", "-")
	r.git("merge", "-q", "--no-edit", "side")
	r.git("checkout", "-q", "--orphan", "other")
	r.write("o.txt", "o\n")
	r.commit("another root")
	repo := r.open()
	ctx := context.Background()
	var commits []*Commit
	for _, rev := range append(strings.Fields(r.git("rev-list", "--reverse", "--all")), root) {
		c, err := repo.ReadCommit(ctx, rev)
		if err != nil {
			t.Fatal(err)
		}
		commits = append(commits, c)
	}
	got, err := repo.AddedLinesOf(ctx, commits)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(commits)-1 {
		t.Errorf("%d commits, want %d", len(got), len(commits)-1)
	}
	for _, c := range commits {
		want, err := repo.AddedLines(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got[c.Hash], want) {
			t.Errorf("%s %q:\n got %v\nwant %v", ShortHash(c.Hash), c.Subject, got[c.Hash], want)
		}
	}
	if empty, err := repo.AddedLinesOf(ctx, nil); err != nil || len(empty) != 0 {
		t.Errorf("no commits: %v %v", empty, err)
	}
}
