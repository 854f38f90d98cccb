package accuracy

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The harness's own parts, checked so that its table can be trusted.

func TestJudge(t *testing.T) {
	conv, other := "aaaaaaaa-1", "bbbbbbbb-2"
	for _, tc := range []struct {
		name        string
		text        string
		writtenBy   *string
		attribution string
		truth       string
		want        lineScore
		wantNote    string
	}{
		{"the agent's line given to it", "\treturn nil", &conv, "agent", conv, lineScore{given: 1, truth: 1, found: 1}, ""},
		{"the agent's line given to another", "}", &other, "agent", conv, lineScore{given: 1, wrong: 1, truth: 1}, "given to bbbbbbbb"},
		{"the agent's line not known", "}", nil, "unknown", conv, lineScore{truth: 1}, "given to no conversation"},
		{"the agent's line given to a person", "}", nil, "human", conv, lineScore{truth: 1, toPerson: 1}, "given to a person"},
		{"a person's line given to an agent", "}", &conv, "agent", "", lineScore{given: 1, wrong: 1}, "written by a person"},
		{"a person's line given to a person", "}", nil, "human", "", lineScore{}, ""},
		{"a person's line not known", "}", nil, "unknown", "", lineScore{}, ""},
		{"the agent's blank line given to a person: not counted", "  ", nil, "human", conv, lineScore{}, ""},
		{"a person's blank line given to an agent", "", &conv, "agent", "", lineScore{given: 1, wrong: 1}, "written by a person"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l lineScore
			note := l.judge(tc.text, tc.writtenBy, tc.attribution, tc.truth)
			if l != tc.want || (tc.wantNote == "") != (note == "") || !strings.Contains(note, tc.wantNote) {
				t.Errorf("judge = %+v %q, want %+v %q", l, note, tc.want, tc.wantNote)
			}
		})
	}
}

func TestAnchor(t *testing.T) {
	file := []string{"package x", "", "func a() error {", "\treturn nil", "}", "", "func b() error {", "\treturn nil", "}"}
	for _, tc := range []struct {
		at            int
		before, after string
	}{
		{5, "func a() error {\n\treturn nil\n}", ""}, // "}" and "\treturn nil\n}" repeat
		{1, "package x", ""},
		{0, "", "package x"},
		{9, "func b() error {\n\treturn nil\n}", ""},
	} {
		before, after := anchor(file, tc.at)
		if got := strings.Join(before, "\n"); got != tc.before || strings.Join(after, "\n") != tc.after {
			t.Errorf("anchor(%d) = %q / %q, want %q / %q", tc.at, got, strings.Join(after, "\n"), tc.before, tc.after)
		}
		if ctx := strings.Join(append(before, after...), "\n"); strings.Count(strings.Join(file, "\n"), ctx) != 1 {
			t.Errorf("anchor(%d) = %q is not unique", tc.at, ctx)
		}
	}
}

// TestHistory: fast-import makes the commits asked for, the tip is the
// harness's model, and the usual lines repeat as in real code.
func TestHistory(t *testing.T) {
	root := t.TempDir()
	u := newUser(t, root, "importer", "Importer", "importer@example.com")
	bare := filepath.Join(root, "h.git")
	h, err := importHistory(u, bare, 300, 24, time.Now().AddDate(0, -3, 0))
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := strconv.Atoi(strings.TrimSpace(u.git(bare, "rev-list", "--count", "main"))); n != 300 {
		t.Errorf("%d commits, want 300", n)
	}
	braces, total := 0, 0
	for p, ls := range h.files {
		if got := u.git(bare, "show", "main:"+p); got != strings.Join(ls, "\n")+"\n" {
			t.Fatalf("%s at the tip differs from the model", p)
		}
		for _, l := range ls {
			total++
			if l == "}" || l == "\treturn nil" || l == "\t}" {
				braces++
			}
		}
	}
	if braces*5 < total {
		t.Errorf("only %d of %d lines are braces or return nil: not real-shaped", braces, total)
	}
}

// TestTextLine: the label of text blame, as git convo blame prints it.
func TestTextLine(t *testing.T) {
	for _, tc := range []struct {
		line, label string
	}{
		{"843a2778 (by hand)                (Ada Lovelace   2026-11-25 236) ", "(by hand)"},
		{"843a2778 add limitRate (retry)    (Ada Lovelace   2026-11-25 238) \tif x < 0 {", "add limitRate (retry)"},
		{"610e6233                          (Ken Thompson   2026-01-30 226) }", ""},
		{"^4c1d8e2                          (Grace Hopper   2025-08-01 1) package x", ""},
	} {
		m := textLine.FindStringSubmatch(tc.line)
		if m == nil || strings.TrimSpace(m[1]) != tc.label {
			t.Errorf("%q: %q, want the label %q", tc.line, m, tc.label)
		}
	}
}

// TestAddedRanges: blame's -L options are the hunks a commit added to a
// file, none for a file it only shortened.
func TestAddedRanges(t *testing.T) {
	root := t.TempDir()
	u := newUser(t, root, "me", "Ada", "ada@example.com")
	dir := filepath.Join(root, "r")
	u.git("", "init", "-q", dir)
	write := func(body string) {
		if err := os.WriteFile(filepath.Join(dir, "f.go"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		u.git(dir, "commit", "-qam", "c", "--allow-empty")
	}
	if err := os.WriteFile(filepath.Join(dir, "f.go"), []byte("a\nb\nc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	u.git(dir, "add", "f.go")
	u.git(dir, "commit", "-qm", "root")
	if got := strings.Join(addedRanges(u, dir, "HEAD", "f.go"), " "); got != "-L 1,+3" {
		t.Errorf("root commit: %q", got)
	}
	write("a\nx\ny\nb\nc\nz\n")
	if got := strings.Join(addedRanges(u, dir, "HEAD", "f.go"), " "); got != "-L 2,+2 -L 6,+1" {
		t.Errorf("two insertions: %q", got)
	}
	write("a\nb\nc\n")
	if got := addedRanges(u, dir, "HEAD", "f.go"); len(got) != 0 {
		t.Errorf("deletions only: %q", got)
	}
}

// TestFindingsNameScenarios: a finding names a scenario that exists; one left
// behind when its scenario is renamed or removed would mislead.
func TestFindingsNameScenarios(t *testing.T) {
	names := map[string]bool{}
	for _, sc := range scenarios {
		names[sc.name] = true
	}
	for name := range findings {
		if !names[name] {
			t.Errorf("finding %q names no scenario", name)
		}
	}
}
