package ingest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/agents/claude"
	"github.com/git-convo/git-convo/pkg/agents/cursor"
	"github.com/git-convo/git-convo/pkg/agents/cursor/cursortest"
	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/store"
)

// writeClaudeSession writes a Claude Code transcript in which the session
// running in cwd creates rel with content.
func writeClaudeSession(t *testing.T, configDir, cwd, sid, title, rel, content string) {
	t.Helper()
	q := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	file := filepath.Join(cwd, rel)
	at := "2026-01-02T03:04:05.000Z"
	lines := []string{
		`{"type":"custom-title","customTitle":` + q(title) + `,"sessionId":"` + sid + `"}`,
		`{"type":"user","uuid":"u1","sessionId":"` + sid + `","cwd":` + q(cwd) + `,"message":{"role":"user","content":"write it"},"timestamp":"` + at + `"}`,
		`{"type":"assistant","uuid":"a1","sessionId":"` + sid + `","cwd":` + q(cwd) + `,"message":{"id":"m1","role":"assistant","model":"claude-opus-4-6","content":[{"type":"tool_use","id":"t1","name":"Write","input":` + q(map[string]any{"file_path": file, "content": content}) + `}]},"timestamp":"` + at + `"}`,
		`{"type":"user","uuid":"u2","sessionId":"` + sid + `","cwd":` + q(cwd) + `,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]},"toolUseResult":` + q(map[string]any{"type": "create", "filePath": file, "content": content, "structuredPatch": []any{}}) + `,"timestamp":"` + at + `"}`,
	}
	path := filepath.Join(configDir, "projects", strings.NewReplacer("/", "-", ".", "-").Replace(cwd), sid+".jsonl")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestImport: a source's past conversations in the repository are read
// into the store with their written lines; another project's are not.
func TestImport(t *testing.T) {
	ctx := context.Background()
	repo := gitInit(t)
	configDir := t.TempDir()
	writeClaudeSession(t, configDir, repo, "s-here", "Areas", "geo/area.py", "def area(r):\n    return r * r\n")
	writeClaudeSession(t, configDir, filepath.Join(t.TempDir(), "elsewhere"), "s-elsewhere", "Other", "x.py", "x = 1\n")
	now := func() time.Time { return time.UnixMilli(1_800_000_000_000) }
	s, err := store.Open(ctx, filepath.Join(t.TempDir(), "links.sqlite"), store.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var steps [][2]int
	found, err := Writer{Store: s, Now: now}.ImportAll(ctx, []source.Source{claude.Source{Dir: configDir}}, []string{repo}, 0,
		ImportProgress{Step: func(_ source.Source, i, n int) { steps = append(steps, [2]int{i, n}) }})
	if err != nil || found.Imported != 1 || !reflect.DeepEqual(found.IDs, []string{"s-here"}) {
		t.Fatalf("ImportAll = %+v, %v", found, err)
	}
	if want := [][2]int{{0, 1}, {1, 1}}; !reflect.DeepEqual(steps, want) {
		t.Errorf("steps = %v, want %v", steps, want)
	}
	conv, err := s.GetConversation(ctx, "s-here")
	if err != nil || conv == nil || conv.Title != "Areas" || conv.Agent != claude.Name {
		t.Fatalf("conversation: %+v %v", conv, err)
	}
	files, err := s.ConversationFiles(ctx, "s-here")
	if err != nil || len(files) != 1 || files[0].Path != "geo/area.py" {
		t.Errorf("files = %+v %v", files, err)
	}
}

// TestImportCursorAndLinkPast: Cursor's past conversations of a repository
// are imported through cursor.Source (one database handle) with their
// edits, and LinkPast then links the past commits that share a file with
// them, additively: a second run links nothing new, and one cancelled during
// its first commit stops with Interrupted, saying none was linked.
func TestImportCursorAndLinkPast(t *testing.T) {
	ctx := context.Background()
	repo := gitInit(t)
	at := time.Now().Add(-48 * time.Hour).Truncate(time.Second)
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=T", "-c", "user.email=t@example.com"}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_DATE="+at.Format(time.RFC3339), "GIT_COMMITTER_DATE="+at.Format(time.RFC3339))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	for _, f := range []string{"a.go", "b.go", "unrelated.md"} {
		if err := os.WriteFile(filepath.Join(repo, f), []byte("package a\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		git("add", f)
		git("commit", "-q", "-m", "add "+f)
	}
	dbPath := filepath.Join(t.TempDir(), "state.vscdb")
	here := cursortest.Sample()
	here.ID, here.Workspace, here.Edited = "conv-here", repo, []string{filepath.Join(repo, "a.go"), filepath.Join(repo, "b.go")}
	here.Created, here.Updated = at.Add(-2*time.Hour), at.Add(-time.Hour)
	other := cursortest.Sample()
	other.ID, other.Workspace, other.Edited = "conv-other", "/elsewhere", []string{"/elsewhere/a.go"}
	if err := cursortest.Write(dbPath, here, other); err != nil {
		t.Fatal(err)
	}
	src := cursor.Source{Getenv: func(k string) string {
		if k == "CURSOR_DB_PATH" {
			return dbPath
		}
		return ""
	}}
	s, err := store.Open(ctx, filepath.Join(t.TempDir(), "links.sqlite"), store.Options{Now: time.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	w := Writer{Store: s, Now: time.Now}
	refs, err := src.ListConversations(ctx, []string{repo})
	if err != nil || len(refs) != 1 || refs[0].ID != "conv-here" || len(refs[0].Via) == 0 {
		t.Fatalf("ListConversations = %+v, %v", refs, err)
	}
	ids, done, err := w.ImportRefs(ctx, src, refs, nil)
	if err != nil || done != 1 || !reflect.DeepEqual(ids, []string{"conv-here"}) {
		t.Fatalf("ImportRefs = %q, %d, %v", ids, done, err)
	}
	conv, err := s.GetConversation(ctx, "conv-here")
	if err != nil || conv == nil || conv.Title != here.Title || conv.Status != "completed" {
		t.Fatalf("conversation: %+v %v", conv, err)
	}
	g, err := gitx.Open(ctx, repo, false)
	if err != nil {
		t.Fatal(err)
	}
	var steps []int
	past, err := w.LinkPast(ctx, g, ids, []string{"HEAD"}, func(i, n int) { steps = append(steps, i, n) })
	if err != nil {
		t.Fatal(err)
	}
	if past.Scanned != 3 || len(past.Relevant) != 2 || len(past.New) != 2 || past.New[0].ConversationID != "conv-here" ||
		past.New[0].Subject != "add b.go" || past.New[1].Subject != "add a.go" || !reflect.DeepEqual(steps, []int{1, 2, 2, 2}) {
		t.Fatalf("LinkPast = %+v, steps %v", past, steps)
	}
	if again, err := w.LinkPast(ctx, g, ids, []string{"HEAD"}, nil); err != nil || len(again.New) != 0 || len(again.Relevant) != 2 {
		t.Errorf("second LinkPast = %+v, %v", again, err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	defer cancel()
	_, err = w.LinkPast(cancelled, g, ids, []string{"HEAD"}, func(i, n int) { cancel() })
	var ie Interrupted
	if !errors.As(err, &ie) || !errors.Is(err, context.Canceled) || ie.What != "0 of 2 commits linked" {
		t.Errorf("cancelled LinkPast: %v", err)
	}
}

// TestImportAll: every agent's conversations of the repository, one loop:
// --limit is one budget over the agents in order; an agent with one way of
// finding them is counted under its name; an agent without its store is
// skipped unless nothing is found anywhere; Ctrl-C stops with Interrupted.
func TestImportAll(t *testing.T) {
	ctx := context.Background()
	repo := gitInit(t)
	dbPath := filepath.Join(t.TempDir(), "state.vscdb")
	var convs []cursortest.Conversation
	for _, id := range []string{"conv-a", "conv-b"} {
		c := cursortest.Sample()
		c.ID, c.Workspace, c.Edited = id, repo, []string{filepath.Join(repo, id+".go")}
		convs = append(convs, c)
	}
	if err := cursortest.Write(dbPath, convs...); err != nil {
		t.Fatal(err)
	}
	configDir := t.TempDir()
	writeClaudeSession(t, configDir, repo, "s-1", "One", "one.py", "one = 1\n")
	writeClaudeSession(t, configDir, repo, "s-2", "Two", "two.py", "two = 2\n")
	cursorAt := func(p string) source.Source {
		return cursor.Source{Getenv: func(k string) string { return map[string]string{"CURSOR_DB_PATH": p}[k] }}
	}
	both := []source.Source{cursorAt(dbPath), claude.Source{Dir: configDir}}
	noCursor := []source.Source{cursorAt(filepath.Join(t.TempDir(), "none.vscdb")), claude.Source{Dir: configDir}}
	nothing := []source.Source{cursorAt(filepath.Join(t.TempDir(), "none.vscdb")), claude.Source{Dir: t.TempDir()}}
	tests := []struct {
		name     string
		srcs     []source.Source
		limit    int
		cursor   int      // Cursor's conversations found
		imported []string // in the store after
		steps    string
		err      string
	}{
		{"all", both, 0, 2, []string{"conv-a", "conv-b", "s-1", "s-2"}, "cursor 0/2 1/2 2/2 claude 0/2 1/2 2/2", ""},
		{"limit over both", both, 3, 2, []string{"conv-a", "conv-b", "s-1"}, "cursor 0/2 1/2 2/2 claude 0/1 1/1", ""},
		{"limit within the first", both, 1, 2, []string{"conv-a"}, "cursor 0/1 1/1", ""},
		{"no Cursor", noCursor, 0, 0, []string{"s-1", "s-2"}, "claude 0/2 1/2 2/2", ""},
		{"nothing", nothing, 0, 0, nil, "", "nothing to import"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := store.Open(ctx, filepath.Join(t.TempDir(), "links.sqlite"), store.Options{Now: time.Now})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			var listed, steps []string
			found, err := Writer{Store: s, Now: time.Now}.ImportAll(ctx, tt.srcs, []string{repo}, tt.limit, ImportProgress{
				Listing: func(src source.Source) { listed = append(listed, src.Name()) },
				Step: func(src source.Source, i, n int) {
					if i == 0 {
						steps = append(steps, src.Name())
					}
					steps = append(steps, fmt.Sprintf("%d/%d", i, n))
				},
			})
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("ImportAll: %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(listed, []string{"cursor", "claude"}) || strings.Join(steps, " ") != tt.steps {
				t.Errorf("listed %v, steps %q; want %q", listed, strings.Join(steps, " "), tt.steps)
			}
			if found.Imported != len(tt.imported) || found.Via["claude"] != 2 || found.PerAgent["claude"] != 2 {
				t.Errorf("found = %+v", found)
			}
			// Every conversation found, imported or not, for LinkPast.
			if len(found.IDs) != 2+tt.cursor || found.PerAgent["cursor"] != tt.cursor ||
				found.Via["cursor"] != 0 || found.Via[cursor.ViaWorkspaceID] != tt.cursor {
				t.Errorf("found = %+v", found)
			}
			for _, id := range []string{"conv-a", "conv-b", "s-1", "s-2"} {
				c, err := s.GetConversation(ctx, id)
				if in := slices.Contains(tt.imported, id); err != nil || (c != nil) != in {
					t.Errorf("%s in the store: %v (%v), want %v", id, c != nil, err, in)
				}
			}
		})
	}

	// Ctrl-C during Claude Code's first session: Interrupted, saying how
	// far over all the agents.
	s, err := store.Open(ctx, filepath.Join(t.TempDir(), "links.sqlite"), store.Options{Now: time.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cancelled, cancel := context.WithCancel(ctx)
	defer cancel()
	_, err = Writer{Store: s, Now: time.Now}.ImportAll(cancelled, both, []string{repo}, 0, ImportProgress{
		Step: func(src source.Source, i, _ int) {
			if src.Name() == "claude" && i == 1 {
				cancel()
			}
		},
	})
	var ie Interrupted
	if !errors.As(err, &ie) || !errors.Is(err, context.Canceled) || ie.What != "3 of 4 conversations imported" {
		t.Errorf("cancelled ImportAll: %v", err)
	}
}
