package cursor

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/agents/cursor/cursortest"
	"github.com/git-convo/git-convo/pkg/agents/source"
)

const fixtureID = "00812842-49fe-4699-afae-bb22cda3f6e1"

func fixtureDB(t *testing.T) string {
	t.Helper()
	return cursortest.Shared(t, "state-vscdb-git-ai", "cursor_test.vscdb")
}

func fileSum(t *testing.T, path string) [32]byte {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

func TestRealFixture(t *testing.T) {
	src := fixtureDB(t)
	path := filepath.Join(t.TempDir(), "state.vscdb")
	b, _ := os.ReadFile(src)
	os.WriteFile(path, b, 0o644)
	before := fileSum(t, path)
	ctx := context.Background()
	db, err := OpenDB(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := db.Composer(ctx, fixtureID)
	if err != nil {
		t.Fatal(err)
	}
	if c.Title != "Retrieve SQLite cursor queries" || c.Model != "gpt-5" || c.Status != "completed" || c.Mode != "agent" {
		t.Errorf("composer = %+v", c)
	}
	if c.CreatedAt.UnixMilli() != 1759861723898 || c.UpdatedAt.UnixMilli() != 1759863763312 {
		t.Errorf("times = %v %v", c.CreatedAt, c.UpdatedAt)
	}
	if c.FirstUserMessage != "Give me the queries used in the cursor sqlite storage db" {
		t.Errorf("first message = %q", c.FirstUserMessage)
	}
	found := false
	for _, f := range c.EditedFiles {
		if strings.HasSuffix(f.Path, "src/commands/checkpoint_agent/agent_preset.rs") && !f.At.IsZero() {
			found = true
		}
	}
	if !found {
		t.Errorf("edited files = %+v", c.EditedFiles)
	}
	if len(c.ContextFiles) == 0 {
		t.Error("no context files")
	}
	written := 0
	for p, lines := range c.WrittenLines {
		if strings.HasSuffix(p, "agent_preset.rs") {
			for _, l := range lines {
				if strings.Contains(l.Text, "let bubble_created_at = bubble_content.get") {
					written++
				}
			}
		}
	}
	if written == 0 {
		t.Errorf("codeBlockDiff lines not read: %d files", len(c.WrittenLines))
	}
	msgs, err := db.Messages(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 42 {
		t.Fatalf("%d messages, want 42", len(msgs))
	}
	for i, h := range c.headers {
		if msgs[i].BubbleID != h.BubbleID {
			t.Fatalf("message %d is %s, header order says %s", i, msgs[i].BubbleID, h.BubbleID)
		}
	}
	var thinking, tools, code int
	for _, m := range msgs {
		if m.Thinking != "" {
			thinking++
		}
		tools += len(m.Tools)
		code += len(m.CodeBlocks)
	}
	if msgs[0].Role != "user" || tools == 0 || code == 0 {
		t.Errorf("roles/tools/code: first %s, %d tools, %d code blocks, %d thinking", msgs[0].Role, tools, code, thinking)
	}
	var md strings.Builder
	st, err := source.RenderMarkdown(&md, source.Meta{ID: fixtureID, Title: c.Title}, msgs)
	if err != nil || st.Messages != 42 || !strings.HasPrefix(md.String(), "# Conversation: Retrieve SQLite cursor queries\n") ||
		!strings.Contains(md.String(), "## Message 1 (User) — 2025-10-07T18:28:55Z") {
		t.Errorf("markdown: %+v %v\n%.400s", st, err, md.String())
	}
	db.Close()
	if fileSum(t, path) != before {
		t.Fatal("reading modified Cursor's database")
	}
	if _, err := os.Stat(path + "-wal"); err == nil {
		t.Error("reading created a -wal file")
	}
}

// newCursorDB creates a database with Cursor's real schema.
func newCursorDB(t *testing.T, wal bool) (string, *sql.DB) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "state.vscdb")
	w, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	w.SetMaxOpenConns(1)
	t.Cleanup(func() { w.Close() })
	stmts := []string{`CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)`,
		`CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)`}
	if wal {
		stmts = append([]string{`PRAGMA journal_mode=WAL`, `PRAGMA wal_autocheckpoint=0`}, stmts...)
	}
	for _, s := range stmts {
		if _, err := w.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	return path, w
}

func put(t *testing.T, db *sql.DB, key string, v any) {
	t.Helper()
	b, _ := json.Marshal(v)
	if _, err := db.Exec(`INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)`, key, b); err != nil {
		t.Fatal(err)
	}
}

func TestLegacyInlineConversation(t *testing.T) {
	path, w := newCursorDB(t, false)
	put(t, w, "composerData:old", map[string]any{"name": "Old style", "createdAt": 1700000000000,
		"conversation":      []map[string]any{{"type": 1, "bubbleId": "u", "text": "hello"}, {"type": 2, "bubbleId": "a", "text": "hi there"}},
		"newlyCreatedFiles": []any{"file:///r/new.go", map[string]any{"uri": map[string]any{"fsPath": "/r/other.go"}}}})
	db, err := OpenDB(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	c, err := db.Composer(context.Background(), "old")
	if err != nil {
		t.Fatal(err)
	}
	msgs, _ := db.Messages(context.Background(), c)
	if c.Title != "Old style" || len(msgs) != 2 || msgs[1].Text != "hi there" || c.FirstUserMessage != "hello" || len(c.EditedFiles) != 2 {
		t.Errorf("legacy: %+v %+v", c, msgs)
	}
}

func TestMissingAndStaleBubbles(t *testing.T) {
	path, w := newCursorDB(t, false)
	put(t, w, "composerData:c1", map[string]any{"name": "T",
		"fullConversationHeadersOnly": []map[string]any{{"bubbleId": "b1", "type": 1}, {"bubbleId": "b2", "type": 2}}})
	put(t, w, "bubbleId:c1:b1", map[string]any{"type": 1, "text": "q"})
	put(t, w, "bubbleId:c1:zz", map[string]any{"type": 2, "text": "stale, not in the headers"})
	put(t, w, "bubbleId:c10:b1", map[string]any{"type": 1, "text": "another conversation's bubble"})
	ctx := context.Background()
	db, _ := OpenDB(ctx, path)
	defer db.Close()
	c, err := db.Composer(ctx, "c1")
	if err != nil {
		t.Fatal(err)
	}
	msgs, _ := db.Messages(ctx, c)
	if len(msgs) != 1 || msgs[0].Text != "q" {
		t.Errorf("messages = %+v", msgs)
	}
	if _, err := db.Composer(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing conversation: %v", err)
	}
	missing := filepath.Join(t.TempDir(), "none.vscdb")
	if _, err := OpenDB(ctx, missing); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing file: %v", err)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("OpenDB created a missing database")
	}
}

func TestLockedDatabase(t *testing.T) {
	path, w := newCursorDB(t, false)
	put(t, w, "composerData:c1", map[string]any{"name": "T"})
	ctx := context.Background()
	conn, err := w.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	defer conn.ExecContext(ctx, "ROLLBACK")
	db, err := OpenDB(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	start := time.Now()
	_, err = db.Composer(ctx, "c1")
	if !errors.Is(err, ErrBusy) {
		t.Fatalf("locked: %v, want ErrBusy", err)
	}
	_ = start
}

func TestWALUncheckpointedRows(t *testing.T) {
	path, w := newCursorDB(t, true)
	// The writer stays open and never checkpoints: the rows live only in -wal.
	put(t, w, "composerData:fresh", map[string]any{"name": "Just written",
		"fullConversationHeadersOnly": []map[string]any{{"bubbleId": "b1", "type": 1}}})
	put(t, w, "bubbleId:fresh:b1", map[string]any{"type": 1, "text": "recent"})
	if fi, err := os.Stat(path + "-wal"); err != nil || fi.Size() == 0 {
		t.Fatalf("expected a non-empty -wal file: %v", err)
	}
	ctx := context.Background()
	db, err := OpenDB(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	c, err := db.Composer(ctx, "fresh")
	if err != nil || c.Title != "Just written" || c.FirstUserMessage != "recent" {
		t.Fatalf("WAL rows: %+v, %v", c, err)
	}
}

func TestReadTranscript(t *testing.T) {
	path := cursortest.Shared(t, "transcripts", "cursor-session-simple.jsonl")
	msgs, err := ReadTranscript(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 11 || msgs[0].Role != "user" || !strings.HasPrefix(msgs[0].Text, "Generate a file with all the HBO shows") || len(msgs[1].Tools) != 2 {
		t.Errorf("transcript: %d messages, first %+v", len(msgs), msgs[0])
	}
}

func TestDBPath(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	tests := []struct {
		goos string
		env  map[string]string
		want string
	}{
		{"linux", map[string]string{"HOME": "/h"}, "/h/.config/Cursor/User/globalStorage/state.vscdb"},
		{"linux", map[string]string{"HOME": "/h", "XDG_CONFIG_HOME": "/x"}, "/x/Cursor/User/globalStorage/state.vscdb"},
		{"darwin", map[string]string{"HOME": "/Users/a"}, "/Users/a/Library/Application Support/Cursor/User/globalStorage/state.vscdb"},
		{"linux", map[string]string{"HOME": "/h", "CURSOR_DB_PATH": "/o/s.vscdb"}, "/o/s.vscdb"},
		{"windows", map[string]string{"APPDATA": `C:\Users\a\AppData\Roaming`}, `C:\Users\a\AppData\Roaming\Cursor\User\globalStorage\state.vscdb`},
		{"windows", map[string]string{"USERPROFILE": `C:\Users\a`}, `C:\Users\a\AppData\Roaming\Cursor\User\globalStorage\state.vscdb`},
	}
	for _, tt := range tests {
		got, err := dbPathFor(env(tt.env), tt.goos)
		if err != nil || got != tt.want {
			t.Errorf("%s %v: %q %v, want %q", tt.goos, tt.env, got, err, tt.want)
		}
	}
}
