package cli

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/store"
)

// Blame of a teammate's shared lines keeps the clip's diffs in
// links.sqlite (notes.AddedCache): its output is the same, byte for byte,
// with no database, with one that is filled by this blame, with one that
// answers it, and with a read-only one, in every column form and in
// --json, over fetched notes, hostile ones among them.
func TestBlameKeptDiffsSameBytes(t *testing.T) {
	_, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	b := cloneAs(t, bare, "b")
	a.convo(a.dir, "share", "on")
	const c1, c2 = "aaaaaaaa-0000-0000-0000-0000000000f1", "aaaaaaaa-0000-0000-0000-0000000000f2"
	agent := "package t\n\nfunc A() error {\n\tx := 1\n\n\treturn use(x)\n}\n"
	a.capture(a.dir, c1, "beforeSubmitPrompt", map[string]any{"prompt": "A"})
	a.cursorEdit(a.dir, c1, "t.go", agent, "", agent)
	a.cursorEdit(a.dir, c1, "sp ace.go", agent, "", agent)
	a.commit(a.dir, "a", "t.go", "sp ace.go")
	mine := agent + "\nfunc B() error {\n\treturn use(2)\n}\n"
	a.write(a.dir, "t.go", mine)
	hand := a.commit(a.dir, "b by hand", "t.go")
	more := strings.Replace(mine, "\tx := 1\n", "\tx := 1\n\ty := x\n\t_ = y\n", 1)
	a.capture(a.dir, c2, "beforeSubmitPrompt", map[string]any{"prompt": "\x1b[31mred\x1b[0m"})
	a.cursorEdit(a.dir, c2, "t.go", more, "\tx := 1\n", "\tx := 1\n\ty := x\n\t_ = y\n")
	a.commit(a.dir, "c", "t.go")
	a.run(a.dir, "git", "push", "-q", "origin", "main")
	// A hostile note on the person's commit: escapes, ranges past any end,
	// a path outside the repository, then a line that is no record.
	conv := map[string]any{"url": "git-convo:conversation/evil", "contributor": map[string]any{"type": "ai", "model_id": "m\x1b]8;;x\x07"}}
	rec := map[string]any{"version": "0.1.0", "id": "x", "timestamp": "2026-01-01T00:00:00Z",
		"vcs": map[string]any{"type": "git", "revision": hand},
		"files": []any{
			map[string]any{"path": "t.go", "conversations": []any{mergeMaps(conv, map[string]any{"ranges": []any{
				map[string]any{"start_line": 1, "end_line": 2000000000}}})}},
			map[string]any{"path": "../../etc/passwd", "conversations": []any{mergeMaps(conv, map[string]any{"ranges": []any{
				map[string]any{"start_line": -9000000000000000000, "end_line": 9000000000000000000}}})}},
		},
		"metadata": map[string]any{"dev.git-convo": map[string]any{"format": 1, "writer": "mallory",
			"conversations": map[string]any{"evil": map[string]any{"title": "\x1b[2Jevil\u202e", "confidence": 0.9}}}}}
	line, _ := json.Marshal(rec)
	a.pushRawNote(t, hand, string(line)+"\n{\"version\": 7, \"files\": \"no\"}\n")
	b.run(b.dir, "git", "pull", "-q", "--ff-only")
	b.run(b.dir, "git", "fetch", "-q", "origin", "+refs/notes/convo:refs/notes/remotes/origin/convo")

	db := filepath.Join(t.TempDir(), "links.sqlite")
	s, err := store.Open(context.Background(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	kept := func() int {
		t.Helper()
		h, err := sql.Open("sqlite3", "file:"+db+"?mode=ro")
		if err != nil {
			t.Fatal(err)
		}
		defer h.Close()
		var n int
		if err := h.QueryRow(`SELECT count(*) FROM added_lines`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	none := filepath.Join(t.TempDir(), "none.sqlite")
	forms := [][]string{
		{"t.go"}, {"--json", "t.go"}, {"-s", "t.go"}, {"-e", "-l", "t.go"}, {"-L", "2,7", "t.go"}, {"-w", "t.go"},
		{"HEAD~1", "--", "t.go"}, {"sp ace.go"}, {"--json", "sp ace.go"},
	}
	blame := func(dbPath string, args []string) string {
		t.Helper()
		r := b.runEnv(b.dir, b.with("GIT_CONVO_DB="+dbPath), "", append([]string{"git", "convo", "blame"}, args...)...)
		if r.code != 0 {
			t.Fatalf("blame %q with %s: exit %d\n%s", args, dbPath, r.code, r.stderr)
		}
		return r.stdout
	}
	agentLines := 0
	for i, args := range forms {
		want := blame(none, args)
		if i == 1 {
			agentLines = strings.Count(want, `"attribution":"agent"`)
		}
		for _, step := range []string{"filled", "answered"} {
			if got := blame(db, args); got != want {
				t.Errorf("blame %q, links.sqlite %s:\n%s\nwithout:\n%s", args, step, got, want)
			}
		}
	}
	if agentLines < 5 || strings.Contains(blame(none, forms[0]), "\x1b") {
		t.Fatalf("the teammate's lines: %d an agent's (want the note's), or an escape reached the terminal", agentLines)
	}
	if kept() == 0 {
		t.Fatal("blame kept no diff in links.sqlite: the test proves nothing")
	}
	// Read-only: nothing kept, the same output.
	if err := os.Chmod(db, 0o444); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(db, 0o644)
	before := kept()
	for _, args := range forms {
		if got, want := blame(db, append([]string{"-M"}, args...)), blame(none, append([]string{"-M"}, args...)); got != want {
			t.Errorf("blame -M %q, links.sqlite read-only:\n%s\nwithout:\n%s", args, got, want)
		}
	}
	if kept() != before {
		t.Errorf("a read-only links.sqlite was written")
	}
}
