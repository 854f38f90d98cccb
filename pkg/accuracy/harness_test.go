package accuracy

import (
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
		name      string
		text      string
		writtenBy *string
		truth     string
		want      lineScore
		wantNote  string
	}{
		{"the agent's line given to it", "\treturn nil", &conv, conv, lineScore{given: 1, truth: 1, found: 1}, ""},
		{"the agent's line given to another", "}", &other, conv, lineScore{given: 1, wrong: 1, truth: 1}, "given to bbbbbbbb"},
		{"the agent's line given to none", "}", nil, conv, lineScore{truth: 1}, "given to no conversation"},
		{"a person's line given to an agent", "}", &conv, "", lineScore{given: 1, wrong: 1}, "written by a person"},
		{"a person's line given to none", "}", nil, "", lineScore{}, ""},
		{"the agent's blank line given to none: not counted", "  ", nil, conv, lineScore{}, ""},
		{"a person's blank line given to an agent", "", &conv, "", lineScore{given: 1, wrong: 1}, "written by a person"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l lineScore
			note := l.judge(tc.text, tc.writtenBy, tc.truth)
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
