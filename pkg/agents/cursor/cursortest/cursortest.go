// Package cursortest is for tests: it writes Cursor's state.vscdb and agent
// transcripts in Cursor's real formats, so tests need no copy of a user's
// database, and it finds the shared real-world fixtures when they are present.
//
// It must not import package cursor: cursor's own tests use it.
package cursortest

import (
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/agents/cursor/cursordb"
	"github.com/git-convo/git-convo/pkg/util/testshared"
)

// The writer of Cursor's database is cursordb's, shared with the demo and
// the benchmark generator; these names keep the tests' spelling.
type (
	Conversation = cursordb.Conversation
	Message      = cursordb.Message
)

// Open opens (creating it) a database in Cursor's schema (cursordb.Open).
func Open(path string) (*sql.DB, error) { return cursordb.Open(path, nil) }

// Put writes JSON values into a table of Cursor's schema (cursordb.Put).
func Put(path, table string, rows map[string]any) error { return cursordb.Put(path, table, rows) }

// Write adds conversations to the state.vscdb at path (cursordb.Write).
func Write(path string, convs ...Conversation) error { return cursordb.Write(path, convs...) }

// SampleID and SampleTitle name Sample's conversation: the id and title of
// the real fixture (../shared/fixtures/state-vscdb-git-ai), so output looks
// the same whichever database a test reads.
const (
	SampleID    = "00812842-49fe-4699-afae-bb22cda3f6e1"
	SampleTitle = "Retrieve SQLite cursor queries"
)

// Sample is a small conversation shaped like the real fixture's: same id,
// title, model, mode, times and first prompt, and six messages (a prompt,
// thinking, two tool calls, an answer, a follow-up).
func Sample() Conversation {
	at := func(sec int) time.Time { return time.UnixMilli(1759861723898).Add(time.Duration(sec) * time.Second) }
	return Conversation{
		ID: SampleID, Title: SampleTitle, Model: "gpt-5", Status: "completed", Mode: "agent",
		Created: time.UnixMilli(1759861723898), Updated: time.UnixMilli(1759863763312),
		Edited: []string{"/Users/svarlamov/projects/git-ai/src/commands/checkpoint_agent/agent_preset.rs"},
		Messages: []Message{
			{User: true, Text: "Give me the queries used in the cursor sqlite storage db", At: at(11)},
			{Thinking: "Looking for the SQL the Cursor preset runs against state.vscdb.", At: at(14)},
			{Tool: "codebase_search", Params: `{"query":"SELECT value FROM cursorDiskKV"}`, Result: `{"codeResults":[]}`, At: at(16)},
			{Tool: "read_file", Params: `{"targetFile":"src/commands/checkpoint_agent/agent_preset.rs"}`, Result: `{"contents":"..."}`, At: at(19)},
			{Text: "The preset runs `SELECT value FROM cursorDiskKV WHERE key = ?` for composerData and bubbleId keys.", At: at(25)},
			{User: true, Text: "Add a comment above each query", At: at(60)},
		},
	}
}

// TranscriptLine is one line of a Cursor agent transcript (the JSONL file
// hooks name in transcript_path).
type TranscriptLine struct {
	User  bool
	Text  string
	Tools []Tool
}

// Tool is a tool_use content block.
type Tool struct {
	Name  string
	Input map[string]any
}

// WriteTranscript writes a transcript in Cursor's format: one
// {"role","message":{"content":[...]}} per line, user text wrapped in
// <user_query>.
func WriteTranscript(path string, lines ...TranscriptLine) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	var b strings.Builder
	for _, l := range lines {
		role, text := "assistant", l.Text
		if l.User {
			role, text = "user", "<user_query>\n"+l.Text+"\n</user_query>"
		}
		content := []map[string]any{}
		if l.Text != "" {
			content = append(content, map[string]any{"type": "text", "text": text})
		}
		for _, t := range l.Tools {
			content = append(content, map[string]any{"type": "tool_use", "name": t.Name, "input": t.Input})
		}
		line, err := json.Marshal(map[string]any{"role": role, "message": map[string]any{"content": content}})
		if err != nil {
			return err
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// NoSharedEnv hides ../shared (testshared.NoSharedEnv).
const NoSharedEnv = testshared.NoSharedEnv

// SharedPath returns the shared real-world fixture at parts (relative to
// ../shared/fixtures beside the module root), or false when it is absent or
// hidden by GIT_CONVO_TEST_NO_SHARED.
func SharedPath(parts ...string) (string, bool) {
	return testshared.Fixture(parts...)
}

// Shared returns the shared fixture at parts, or skips the test with a
// message saying so.
func Shared(t testing.TB, parts ...string) string {
	t.Helper()
	p, ok := SharedPath(parts...)
	if !ok {
		t.Skipf("shared fixture %s not present (../shared/fixtures beside the repository, or %s is set)", filepath.Join(parts...), NoSharedEnv)
	}
	return p
}
