package ingest

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/claude"
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
	ids, done, err := Writer{Store: s, Now: now}.Import(ctx, claude.Source{Dir: configDir}, []string{repo}, func(i, n int) {
		steps = append(steps, [2]int{i, n})
	})
	if err != nil || done != 1 || !reflect.DeepEqual(ids, []string{"s-here"}) {
		t.Fatalf("Import = %q, %d, %v", ids, done, err)
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
