// Package cursortest is for tests: it writes Cursor's state.vscdb and agent
// transcripts in Cursor's real formats, so tests need no copy of a user's
// database, and it finds the shared real-world fixtures when they are present.
//
// It must not import package cursor: cursor's own tests use it.
package cursortest

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3" // the SQLite driver

	"github.com/git-convo/git-convo/pkg/sqliteuri"
)

// Schema is Cursor's real state.vscdb schema: two key/value tables, values
// are JSON.
var Schema = []string{
	`CREATE TABLE IF NOT EXISTS ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)`,
	`CREATE TABLE IF NOT EXISTS cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)`,
}

// Open opens (creating it and its directory if needed) a database in
// Cursor's schema for writing; the caller closes it.
func Open(path string) (*sql.DB, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite3", sqliteuri.File(path, nil))
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	for _, s := range Schema {
		if _, err := db.Exec(s); err != nil {
			db.Close()
			return nil, err
		}
	}
	return db, nil
}

// Put writes JSON values into table (cursorDiskKV or ItemTable) of the
// database at path, creating it in Cursor's schema if needed.
func Put(path, table string, rows map[string]any) error {
	if table != "cursorDiskKV" && table != "ItemTable" {
		return fmt.Errorf("cursortest: no table %q in Cursor's schema", table)
	}
	db, err := Open(path)
	if err != nil {
		return err
	}
	defer db.Close()
	for k, v := range rows {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		if _, err := db.Exec(`INSERT INTO `+table+` (key, value) VALUES (?, ?)`, k, b); err != nil {
			return err
		}
	}
	return nil
}

// Conversation is one agent conversation as Cursor stores it: a
// composerData:<id> row and one bubbleId:<id>:<bubble> row per message.
type Conversation struct {
	ID, Title, Model, Status, Mode string
	Created, Updated               time.Time
	Summary                        string // latestConversationSummary (after compaction)
	Messages                       []Message
	// Edited lists files the agent changed (codeBlockData keys), absolute.
	Edited []string
	// Workspace is the workspaceIdentifier's folder ("" for none).
	Workspace string
}

// Message is one bubble.
type Message struct {
	User     bool
	Text     string
	Thinking string
	Tool     string // toolFormerData.name
	Params   string // toolFormerData.params
	Result   string // toolFormerData.result
	At       time.Time
}

func ms(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// Rows returns the cursorDiskKV rows of c, with the fields Cursor 1.7+
// writes (composerData _v 10, bubbles _v 3).
func (c Conversation) Rows() map[string]any {
	rows := map[string]any{}
	var headers []map[string]any
	for i, m := range c.Messages {
		bid := fmt.Sprintf("%08x-0000-4000-8000-%012x", i+1, i+1)
		typ := 2
		if m.User {
			typ = 1
		}
		headers = append(headers, map[string]any{"bubbleId": bid, "type": typ})
		b := map[string]any{"_v": 3, "type": typ, "bubbleId": bid, "text": m.Text, "relevantFiles": []string{},
			"isAgentic": true, "codeBlocks": []any{}, "toolResults": []any{}, "capabilities": []any{}}
		if !m.At.IsZero() {
			b["createdAt"] = m.At.UTC().Format("2006-01-02T15:04:05.000Z")
		}
		if m.Thinking != "" {
			b["thinking"] = map[string]any{"text": m.Thinking, "signature": ""}
		}
		if m.Tool != "" {
			b["toolFormerData"] = map[string]any{"tool": 5, "name": m.Tool, "params": m.Params, "rawArgs": m.Params,
				"result": m.Result, "status": "completed", "toolCallId": fmt.Sprintf("call_%d", i+1)}
		}
		rows["bubbleId:"+c.ID+":"+bid] = b
	}
	code := map[string]any{}
	for i, f := range c.Edited {
		uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(f)}).String()
		code[uri] = map[string]any{fmt.Sprintf("block-%d", i+1): map[string]any{"_v": 3, "uri": map[string]any{"fsPath": f, "scheme": "file"},
			"status": "accepted", "createdAt": ms(c.Updated), "lastAppliedAt": ms(c.Updated)}}
	}
	if headers == nil {
		headers = []map[string]any{}
	}
	cd := map[string]any{"_v": 10, "composerId": c.ID, "name": c.Title, "status": c.Status, "unifiedMode": c.Mode,
		"forceMode": "edit", "createdAt": ms(c.Created), "lastUpdatedAt": ms(c.Updated), "hasLoaded": true,
		"modelConfig": map[string]any{"modelName": c.Model, "maxMode": false}, "fullConversationHeadersOnly": headers,
		"conversationMap": map[string]any{}, "codeBlockData": code, "originalFileStates": map[string]any{},
		"newlyCreatedFiles": []any{}, "context": map[string]any{"fileSelections": []any{}, "folderSelections": []any{}},
		"isAgentic": true, "text": "", "richText": ""}
	if c.Summary != "" {
		cd["latestConversationSummary"] = map[string]any{"summary": map[string]any{"summary": c.Summary}}
	}
	if c.Workspace != "" {
		cd["workspaceIdentifier"] = map[string]any{"id": "ws-" + c.ID[:min(8, len(c.ID))],
			"uri": map[string]any{"fsPath": c.Workspace, "scheme": "file"}}
	}
	rows["composerData:"+c.ID] = cd
	return rows
}

// Write adds the conversations to the state.vscdb at path (created in
// Cursor's schema if needed).
func Write(path string, convs ...Conversation) error {
	for _, c := range convs {
		if err := Put(path, "cursorDiskKV", c.Rows()); err != nil {
			return err
		}
	}
	return nil
}

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

// NoSharedEnv hides the shared fixtures when set to a non-empty value other
// than 0, so a run proves the suite passes on a clone with nothing beside it.
const NoSharedEnv = "GIT_CONVO_TEST_NO_SHARED"

// FixturesEnv names the fixtures directory when it is not ../shared/fixtures.
const FixturesEnv = "GIT_CONVO_TEST_FIXTURES"

// SharedPath returns the shared real-world fixture at parts (relative to
// ../shared/fixtures beside the module root), or false when it is absent or
// hidden by GIT_CONVO_TEST_NO_SHARED.
func SharedPath(parts ...string) (string, bool) {
	if v := os.Getenv(NoSharedEnv); v != "" && v != "0" {
		return "", false
	}
	dir := os.Getenv(FixturesEnv) // a worktree whose ../shared is elsewhere
	if dir == "" {
		root, err := moduleRoot()
		if err != nil {
			return "", false
		}
		dir = filepath.Join(root, "..", "shared", "fixtures")
	}
	p := filepath.Join(append([]string{dir}, parts...)...)
	if _, err := os.Stat(p); err != nil {
		return "", false
	}
	return p, true
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

// moduleRoot walks up from the working directory (a package directory under
// go test) to the directory holding go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}
