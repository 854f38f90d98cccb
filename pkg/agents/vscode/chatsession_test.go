package vscode

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/agents/cursor/cursortest"
	"github.com/git-convo/git-convo/pkg/agents/source"
)

// TestReadRealChatSessions reads the real chat sessions of the shared
// fixtures: the JSONL mutation log (Copilot Chat 0.37.1, agent mode) and
// the older whole-file JSON.
func TestReadRealChatSessions(t *testing.T) {
	dir := cursortest.Shared(t, "vscode-copilot", "chatSessions")
	c, err := ReadChatSession(filepath.Join(dir, "copilot_session_multiline.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if c.ID != "7de89a80-6d93-43e7-be0a-0a9afe980198" || c.Title != "Adding a joke to jokes.csv file" || c.Model != "gpt-4o" {
		t.Errorf("header %q %q %q", c.ID, c.Title, c.Model)
	}
	if len(c.Prompts) != 2 || !strings.Contains(c.Prompts[0], "jokes.csv") {
		t.Errorf("prompts %q: want the first request and the one appended by a kind-2 line", c.Prompts)
	}
	if len(c.Edits) == 0 || !strings.HasSuffix(c.Edits[0].Path, "/jokes.csv") || c.Edits[0].Added == "" {
		t.Errorf("edits %+v", c.Edits)
	}
	simple, err := ReadChatSession(filepath.Join(dir, "copilot_session_simple.json"))
	if err != nil {
		t.Fatal(err)
	}
	if simple.ID == "" || len(simple.Prompts) != 3 || simple.Created.IsZero() {
		t.Errorf("whole-file session: %q, %d prompts, created %v", simple.ID, len(simple.Prompts), simple.Created)
	}
}

// TestChatSessionDamagedAndImport: a truncated line, an unknown kind, a
// path that leads nowhere and a part of the wrong type are skipped; import
// lists the sessions of the workspaces in the repository.
func TestChatSessionDamagedAndImport(t *testing.T) {
	storage := t.TempDir()
	ws := filepath.Join(storage, "0a1b2c", "chatSessions")
	os.MkdirAll(ws, 0o700)
	os.WriteFile(filepath.Join(storage, "0a1b2c", "workspace.json"), []byte(`{"folder":"file:///work/my%20repo"}`), 0o600)
	lines := []string{
		`{"kind":0,"v":{"version":9,"sessionId":"vs-import-1","creationDate":1770580242421,"requests":[]}}`,
		`{"kind":7,"k":["future"],"v":1}`,
		`{"kind":1,"k":["no","such","path"],"v":"x"}`,
		`{"kind":2,"k":["requests"],"v":[{"timestamp":1770580257491,"message":{"text":"add b"},"response":[{"value":"Done."},"junk",{"kind":"textEditGroup","uri":{"scheme":"file","path":"/work/my repo/b.go"},"edits":[[{"text":"func b() {}"}],["junk"]]}]}]}`,
		`{"kind":1,"k":["customTitle"],"v":"Add b"}`,
		`{"kind":2,"k":["requests"],"v":[{"message":{"text":"cut`,
	}
	os.WriteFile(filepath.Join(ws, "vs-import-1.jsonl"), []byte(strings.Join(lines, "\n")), 0o600)
	other := filepath.Join(storage, "ffff", "chatSessions")
	os.MkdirAll(other, 0o700)
	os.WriteFile(filepath.Join(storage, "ffff", "workspace.json"), []byte(`{"folder":"file:///elsewhere"}`), 0o600)
	os.WriteFile(filepath.Join(other, "x.json"), []byte(`{"sessionId":"not-ours","requests":[]}`), 0o600)

	src := Source{Storage: storage}
	refs, err := src.ListConversations(context.Background(), []string{"/work/my repo"})
	if err != nil || len(refs) != 1 || refs[0].ID != "vs-import-1" || refs[0].Cwd != "/work/my repo" {
		t.Fatalf("%+v %v", refs, err)
	}
	c, err := src.ReadConversation(context.Background(), "vs-import-1", source.Hint{TranscriptPath: refs[0].TranscriptPath})
	if err != nil {
		t.Fatal(err)
	}
	if c.Title != "Add b" || len(c.Prompts) != 1 || len(c.Edits) != 1 || c.Edits[0].Added != "func b() {}" || c.Messages[1].Text != "Done." {
		t.Errorf("%+v", c)
	}
	if refs, err := (Source{}).ListConversations(context.Background(), nil); err != nil || refs != nil {
		t.Errorf("no storage: %v", err)
	}
}
