package vscode

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/agents/cursor/cursortest"
	"github.com/git-convo/git-convo/pkg/agents/source"
)

// TestReadRealTranscript reads the event stream of the shared fixtures
// (vscode-copilot/transcripts, from git-ai's tests: VS Code 1.119).
func TestReadRealTranscript(t *testing.T) {
	p := cursortest.Shared(t, "vscode-copilot", "transcripts", "copilot_vscode_event_stream.jsonl")
	c, err := Source{}.ReadConversation(context.Background(), "5fcddc54-3ba1-4fc4-88ac-86bd2ce74c19", source.Hint{TranscriptPath: p})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Prompts) != 1 || c.Prompts[0] != "Add a comment to the file" {
		t.Errorf("prompts %q", c.Prompts)
	}
	if len(c.Edits) != 1 || c.Edits[0].Path != "/Users/test/project/src/main.ts" || c.Edits[0].Added != "// Entry point" ||
		c.Edits[0].Words != "Now I'll apply the patch." { // the last words before it, not "I'll read the file first."
		t.Errorf("edits %+v", c.Edits)
	}
	if c.Created.IsZero() || !c.Updated.After(c.Created) {
		t.Errorf("times %v %v", c.Created, c.Updated)
	}
	tools := 0
	for _, m := range c.Messages {
		tools += len(m.Tools)
	}
	if tools != 2 {
		t.Errorf("%d tool requests, want 2 (read_file, apply_patch)", tools)
	}
	if _, err := (Source{}).ReadConversation(context.Background(), "another-session", source.Hint{TranscriptPath: p}); !errors.Is(err, source.ErrNotFound) {
		t.Errorf("another session's stream was read as this one's: %v", err)
	}
}

// TestReadTranscriptDamaged: a truncated last line, lines out of order and
// lines of unknown types or versions are skipped or kept by their own
// times; nothing fails.
func TestReadTranscriptDamaged(t *testing.T) {
	dir := t.TempDir()
	lines := []string{
		`{"type":"user.message","data":{"content":"second"},"timestamp":"2026-05-11T23:20:00Z"}`,
		`{"type":"session.start","data":{"sessionId":"s1","version":99},"timestamp":"2026-05-11T23:13:12Z"}`,
		`{"type":"some.future.event","data":{"x":[1,2]},"timestamp":"2026-05-11T23:14:00Z"}`,
		`{"type":"tool.execution_start","data":{"toolName":"create_file","arguments":{"filePath":"/r/a.go","content":"package a\n"}},"timestamp":"2026-05-11T23:15:00Z"}`,
		`not json`,
		`{"type":"user.message","data":"a string"}`,
		`{"type":"user.message","data":{"content":"cut`,
	}
	p := filepath.Join(dir, "s1.jsonl")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := ReadTranscript(p)
	if err != nil {
		t.Fatal(err)
	}
	if c.ID != "s1" || len(c.Prompts) != 1 || len(c.Edits) != 1 || c.Edits[0].Added != "package a\n" {
		t.Errorf("%+v", c)
	}
	if got := c.Created.Format("15:04:05"); got != "23:13:12" {
		t.Errorf("created %s: the earliest line's time", got)
	}
	if _, err := (Source{}).ReadConversation(context.Background(), "s1", source.Hint{}); !errors.Is(err, source.ErrNotFound) {
		t.Errorf("no transcript path: %v", err)
	}
}
