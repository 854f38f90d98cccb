// Package cursordb writes Cursor's state.vscdb in Cursor's real schema and
// key shapes (composerData, bubbleId). It is the one writer of that
// database outside Cursor: git convo demo's scripted conversations, the
// tests (through cursortest) and the benchmark generator (scripts/benchgen)
// all use it. It reads nothing: package cursor reads.
package cursordb

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"

	_ "github.com/mattn/go-sqlite3" // the SQLite driver

	"github.com/git-convo/git-convo/pkg/util/mstime"
	"github.com/git-convo/git-convo/pkg/util/sqliteuri"
)

// Schema is Cursor's real state.vscdb schema: two key/value tables, values
// are JSON.
var Schema = []string{
	`CREATE TABLE IF NOT EXISTS ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)`,
	`CREATE TABLE IF NOT EXISTS cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)`,
}

// InsertKV writes one row of cursorDiskKV: a key and its JSON value.
const InsertKV = `INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)`

// Open opens (creating it and its directory if needed) a database in
// Cursor's schema for writing, with SQLite's URI params (nil: none); the
// caller closes it.
func Open(path string, params url.Values) (*sql.DB, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite3", sqliteuri.File(path, params))
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
		return fmt.Errorf("cursordb: no table %q in Cursor's schema", table)
	}
	db, err := Open(path, nil)
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
			"status": "accepted", "createdAt": mstime.Ms(c.Updated), "lastAppliedAt": mstime.Ms(c.Updated)}}
	}
	if headers == nil {
		headers = []map[string]any{}
	}
	cd := map[string]any{"_v": 10, "composerId": c.ID, "name": c.Title, "status": c.Status, "unifiedMode": c.Mode,
		"forceMode": "edit", "createdAt": mstime.Ms(c.Created), "lastUpdatedAt": mstime.Ms(c.Updated), "hasLoaded": true,
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
