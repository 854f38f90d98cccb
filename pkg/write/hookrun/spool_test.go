package hookrun

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/agents/claude"
	"github.com/git-convo/git-convo/pkg/agents/cursor"
	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/write/queue"
	"github.com/git-convo/git-convo/pkg/write/spool"
)

// TestCaptureSpoolsTurnEvents: without GIT_CONVO_SYNC an edit event is
// spooled (the same reply, nothing on stderr, no database opened or
// created); the event that ends the turn records it first, then itself.
func TestCaptureSpoolsTurnEvents(t *testing.T) {
	for _, tc := range []struct {
		name       string
		src        func(r *rig) source.Source
		edit, stop func(r *rig, file string) map[string]any
	}{
		{"cursor", func(r *rig) source.Source { return cursor.Source{Getenv: r.o.Getenv} },
			func(r *rig, file string) map[string]any {
				return map[string]any{"conversation_id": "c1", "hook_event_name": "afterFileEdit", "workspace_roots": []string{r.repo},
					"file_path": file, "edits": []map[string]string{{"old_string": "", "new_string": "package a\n"}}}
			},
			func(r *rig, _ string) map[string]any {
				return map[string]any{"conversation_id": "c1", "hook_event_name": "stop", "workspace_roots": []string{r.repo}, "status": "completed"}
			}},
		{"claude", func(r *rig) source.Source { return claude.Source{Dir: r.env["CLAUDE_CONFIG_DIR"]} },
			func(r *rig, file string) map[string]any {
				return map[string]any{"session_id": "c1", "cwd": r.repo, "hook_event_name": "PostToolUse", "tool_name": "Edit",
					"tool_input": map[string]any{"file_path": file, "old_string": "", "new_string": "package a\n"}}
			},
			func(r *rig, _ string) map[string]any {
				return map[string]any{"session_id": "c1", "cwd": r.repo, "hook_event_name": "Stop"}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			file := filepath.Join(r.repo, "a.go")
			os.WriteFile(file, []byte("package a\n"), 0o600)
			want := r.capture(tc.src(r), "", tc.edit(r, file)) // GIT_CONVO_SYNC=1: the reply as it always was
			r = newRig(t)
			r.env["GIT_CONVO_SYNC"] = ""
			file = filepath.Join(r.repo, "a.go")
			os.WriteFile(file, []byte("package a\n"), 0o600)
			if got := r.capture(tc.src(r), "", tc.edit(r, file)); got != want || r.stderr.Len() > 0 {
				t.Errorf("spooling capture replied %q, stderr %q; want %q and nothing", got, r.stderr.String(), want)
			}
			if _, err := os.Stat(r.o.DBPath); !os.IsNotExist(err) {
				t.Errorf("the spooling capture made the database: %v", err)
			}
			if waiting, _ := spool.Pending(spool.Dir(r.o.DBPath)); len(waiting) != 1 {
				t.Fatalf("%d events spooled; want 1", len(waiting))
			}
			r.capture(tc.src(r), "", tc.stop(r, file))
			if got := r.query(`SELECT path FROM conversation_files WHERE conversationId = 'c1'`); got != "a.go" {
				t.Errorf("files after the turn ended: %q; want a.go", got)
			}
			if got := r.query(`SELECT lastHookEvent FROM conversations WHERE conversationId = 'c1'`); !strings.EqualFold(got, "stop") {
				t.Errorf("last event %q: the spooled edit was recorded after the stop", got)
			}
			if spool.Waiting(spool.Dir(r.o.DBPath)) {
				t.Error("events left in the spool after the turn ended")
			}
		})
	}
}

// TestSpooledEditsLinkAsRecorded: a commit queued after spooled edits is
// linked exactly as when the edits were recorded at once: the drain
// replays the spool before the queue.
func TestSpooledEditsLinkAsRecorded(t *testing.T) {
	at := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	t.Setenv("GIT_COMMITTER_DATE", at.Add(time.Minute).Format(time.RFC3339))
	t.Setenv("GIT_AUTHOR_DATE", at.Add(time.Minute).Format(time.RFC3339))
	links := map[string]string{}
	for _, sync := range []string{"1", ""} {
		r := newRig(t)
		r.env["GIT_CONVO_SYNC"] = sync
		r.o.Now = func() time.Time { return at }
		cur := cursor.Source{Getenv: r.o.Getenv}
		for _, f := range []string{"a.go", "b.go"} {
			body := "package a\n\nfunc " + strings.TrimSuffix(f, ".go") + "() {}\n"
			p := filepath.Join(r.repo, f)
			os.WriteFile(p, []byte(body), 0o600)
			r.capture(cur, "", map[string]any{"conversation_id": "c1", "generation_id": "g1", "hook_event_name": "afterFileEdit",
				"workspace_roots": []string{r.repo}, "file_path": p, "edits": []map[string]string{{"old_string": "", "new_string": body}}})
		}
		git(t, r.repo, "add", "a.go", "b.go")
		git(t, r.repo, "commit", "-q", "-m", "agent's work")
		if err := queue.Append(queue.Dir(r.o.DBPath), queue.Record{Hook: "post-commit", Dir: r.repo}); err != nil {
			t.Fatal(err)
		}
		r.o.DrainQueue(context.Background(), nil, time.Minute)
		links[sync] = r.query(`SELECT conversationId || ' ' || matchedFiles || ' ' || confidence || ' ' || status || ' ' || reason || ' ' ||
			writtenLines || ' ' || addedLines FROM links`)
		if spool.Waiting(spool.Dir(r.o.DBPath)) || queue.Waiting(queue.Dir(r.o.DBPath)) != 0 {
			t.Errorf("sync=%q: work left after the drain", sync)
		}
	}
	if links["1"] == "" || links["1"] != links[""] {
		t.Errorf("links with the edits spooled:\n%s\nwant, as recorded at once:\n%s", links[""], links["1"])
	}
}
