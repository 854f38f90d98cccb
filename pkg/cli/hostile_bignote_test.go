package cli

import (
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/share/notes"
)

// TestHostileHugeNoteIsSkipped (issue 28, item 9): a 100 MB note no longer
// hung the read commands, but each held it in memory (320-470 MB) though
// it was never decoded: the in-process object reader read it whole, and
// log's %N brought it inline (where it also hid the ordinary note of the
// same commit). Each command now answers about the commit from the
// teammate's ordinary note, the huge one skipped (git-convo itself peaks at
// some 12 MB: docs/reliability.md; its bound is held in pkg/git/gitx).
func TestHostileHugeNoteIsSkipped(t *testing.T) {
	_, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	b := cloneAs(t, bare, "b")
	a.write(a.dir, "limiter.go", "package limiter\n\nfunc Allow() bool {\n\treturn true\n}\n")
	c := a.commit(a.dir, "limiter", "limiter.go")
	a.write(a.dir, "later.txt", "later\n")
	a.commit(a.dir, "later", "later.txt")
	a.run(a.dir, "git", "push", "-q", "origin", "main")
	conv := map[string]any{"url": "git-convo:conversation/fine", "contributor": map[string]any{"type": "ai"},
		"ranges": []any{map[string]any{"start_line": 1, "end_line": 5}}}
	rec := map[string]any{"version": "0.1.0", "id": "x", "timestamp": "2026-01-01T00:00:00Z",
		"vcs":   map[string]any{"type": "git", "revision": c},
		"files": []any{map[string]any{"path": "limiter.go", "conversations": []any{conv}}},
		"metadata": map[string]any{"dev.git-convo": map[string]any{"format": 1, "writer": "alice",
			"conversations": map[string]any{"fine": map[string]any{"title": "the ordinary note", "confidence": 0.9}}}}}
	line, _ := json.Marshal(rec)
	a.pushRawNote(t, c, string(line)+"\n")
	b.run(b.dir, "git", "pull", "-q", "--ff-only")

	// 100 MB of records on b's own notes ref, made from a stream.
	const size = 100 << 20
	rl := []byte(`{"files":[],"pad":"` + strings.Repeat("p", 80) + "\"}\n")
	hash := exec.Command("git", "hash-object", "-w", "--stdin")
	hash.Dir, hash.Env = b.dir, b.env
	hash.Stdin = io.LimitReader(&repeatReader{b: rl}, size)
	blob, err := hash.Output()
	if err != nil {
		t.Fatalf("hash-object: %v", err)
	}
	b.run(b.dir, "git", "notes", "--ref="+notes.Ref, "add", "-C", strings.TrimSpace(string(blob)), c)

	short := c[:7]
	show := []string{"show", "--no-pager", c}
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{show, []string{"commit " + c, "the ordinary note"}}, // after the pull: git grep
		{[]string{"log", "--no-pager", "-n", "5"}, []string{short, "the ordinary note"}},
		{[]string{"stats", c}, []string{"4 of 4 added lines"}}, // the blank line in no share
		{[]string{"blame", "limiter.go"}, []string{c[:8] + " the ordinary note"}},
		{[]string{"conversations"}, []string{"the ordinary note"}},
		{show, []string{"commit " + c, "the ordinary note"}},
		{[]string{"doctor"}, []string{"1 note(s) over 8 MiB"}},
	} {
		r := b.runWithin(time.Minute, b.dir, tc.args...)
		for _, w := range tc.want {
			if r.code != 0 || !strings.Contains(r.stdout, w) {
				t.Errorf("%v: exit %d, no %q in\n%s%s", tc.args, r.code, w, r.stdout, r.stderr)
			}
		}
		// Memory is not asserted here: a process's peak (rusage) includes
		// the git processes it waited for, which hold the note in git's
		// own memory at times (git grep after a pull, git log --notes), and
		// under the whole suite it read 473 MB where git-convo alone holds
		// 12. git-convo's own bound is held by runtime.MemStats in pkg/git/gitx
		// (TestHostileBlobsOverLimit, TestHostileLogNotesBounded); the
		// figures are in docs/reliability.md.
	}
}

// repeatReader reads b over and over.
type repeatReader struct{ b []byte }

func (r *repeatReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		n += copy(p[n:], r.b)
	}
	return n, nil
}
