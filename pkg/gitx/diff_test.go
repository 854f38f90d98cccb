package gitx

import (
	"context"
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

// TestParseAddedLinesHugeLine: a line over 64 MiB (a minified bundle) is
// counted, cut short, and the files after it keep their lines.
func TestParseAddedLinesHugeLine(t *testing.T) {
	huge := strings.Repeat("x", 65<<20)
	diff := "diff --git a/bundle.js b/bundle.js\n--- /dev/null\n+++ b/bundle.js\n@@ -0,0 +1,2 @@\n+" + huge + "\n+tail();\n" +
		"diff --git a/a.go b/a.go\n--- /dev/null\n+++ b/a.go\n@@ -0,0 +1 @@\n+package a\n"
	got, err := ParseAddedLines(strings.NewReader(diff))
	if err != nil {
		t.Fatal(err)
	}
	b := got["bundle.js"]
	if len(b) != 2 || len(b[0].Text) != MaxAddedLine-1 || b[1].Line != 2 || b[1].Text != "tail();" {
		t.Errorf("bundle.js: %d lines", len(b))
	}
	if a := got["a.go"]; len(a) != 1 || a[0].Text != "package a" {
		t.Errorf("a.go after the huge line: %+v", a)
	}
}
