package copilot

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/agents/cursor/cursortest"
	"github.com/git-convo/git-convo/pkg/agents/source"
)

// TestReadRealEvents reads the events.jsonl of the shared fixtures (Copilot
// CLI 1.0.45, from git-ai's tests), and finds it for import by its cwd.
func TestReadRealEvents(t *testing.T) {
	p := cursortest.Shared(t, "copilot-cli", "session-state", "copilot_cli_session_events.jsonl")
	dir := t.TempDir()
	state := filepath.Join(dir, "session-state", "301561f1-558a-43e9-a144-82d3ca12ab62")
	os.MkdirAll(state, 0o700)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(state, "events.jsonl"), b, 0o600)
	src := Source{Dir: dir}
	refs, err := src.ListConversations(context.Background(), []string{"/Users/test/project"})
	if err != nil || len(refs) != 1 || refs[0].ID != "301561f1-558a-43e9-a144-82d3ca12ab62" {
		t.Fatalf("%+v %v", refs, err)
	}
	c, err := src.ReadConversation(context.Background(), refs[0].ID, source.Hint{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Model != "gpt-4.1" || len(c.Prompts) != 1 || c.Prompts[0] != "create a hello world file" || c.Cwd != "/Users/test/project" {
		t.Errorf("%q %q %q", c.Model, c.Prompts, c.Cwd)
	}
	if len(c.Edits) != 1 || c.Edits[0].Path != "/Users/test/project/hello.py" || c.Edits[0].Added != "print('hello world')\n" ||
		c.Edits[0].Words != "I'll create a hello world file for you." {
		t.Errorf("edits %+v", c.Edits)
	}
}

// TestReadEventsDamaged: truncated, reordered and unknown lines.
func TestReadEventsDamaged(t *testing.T) {
	lines := []string{
		`{"type":"user.message","data":{"content":"later"},"timestamp":"2026-05-12T00:22:00Z"}`,
		`{"type":"session.start","data":{"sessionId":"s9","version":7,"context":{"cwd":"/p"}},"timestamp":"2026-05-12T00:21:05Z"}`,
		`{"type":"session.shutdown","data":{"modelMetrics":{}},"timestamp":"2026-05-12T00:23:00Z"}`,
		`{"type":"tool.execution_start","data":{"toolName":"edit","arguments":{"path":"/p/a.go","old_str":"a","new_str":"b"}},"timestamp":"2026-05-12T00:21:30Z"}`,
		`{"type":"user.message","data":{"content":"cut`,
	}
	dir := filepath.Join(t.TempDir(), "session-state", "s9")
	os.MkdirAll(dir, 0o700)
	os.WriteFile(filepath.Join(dir, "events.jsonl"), []byte(strings.Join(lines, "\n")), 0o600)
	c, err := (Source{Dir: filepath.Dir(filepath.Dir(dir))}).ReadConversation(context.Background(), "s9", source.Hint{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Prompts) != 1 || len(c.Edits) != 1 || c.Edits[0].Added != "b" || c.Created.Format("15:04:05") != "00:21:05" {
		t.Errorf("%+v", c)
	}
}
