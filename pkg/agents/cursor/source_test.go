package cursor

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/agents/cursor/cursortest"
	"github.com/git-convo/git-convo/pkg/agents/source"
)

// TestReadConversation reads a conversation from a state.vscdb in Cursor's
// schema: with its messages in order for reading, without them for
// enrichment (which still gets status, mode, prompts, edits and context),
// and from the transcript only when messages are wanted and the database
// lacks the conversation.
func TestReadConversation(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "state.vscdb")
	conv := cursortest.Sample()
	conv.Edited = []string{filepath.Join(dir, "a.go")}
	if err := cursortest.Write(dbPath, conv); err != nil {
		t.Fatal(err)
	}
	transcript := filepath.Join(dir, "t.jsonl")
	if err := cursortest.WriteTranscript(transcript, cursortest.TranscriptLine{User: true, Text: "from the transcript"}); err != nil {
		t.Fatal(err)
	}
	src := Source{Getenv: func(k string) string {
		if k == "CURSOR_DB_PATH" {
			return dbPath
		}
		return ""
	}}
	tests := []struct {
		name       string
		id         string
		hint       source.Hint
		messages   int    // how many messages, -1 for an error
		firstText  string // the first message's text
		wantStatus string
	}{
		{name: "database, with messages", id: conv.ID, messages: len(conv.Messages), firstText: conv.Messages[0].Text, wantStatus: "completed"},
		{name: "database, no messages", id: conv.ID, hint: source.Hint{NoMessages: true}, messages: 0, wantStatus: "completed"},
		{name: "transcript fallback", id: "not-in-db", hint: source.Hint{TranscriptPath: transcript}, messages: 1, firstText: "from the transcript"},
		{name: "no transcript for enrichment", id: "not-in-db", hint: source.Hint{TranscriptPath: transcript, NoMessages: true}, messages: -1},
		{name: "nowhere", id: "not-in-db", messages: -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := src.ReadConversation(ctx, tc.id, tc.hint)
			if tc.messages < 0 {
				if !errors.Is(err, source.ErrNotFound) || !strings.Contains(err.Error(), "is not in Cursor's database") {
					t.Fatalf("err = %v, want a source.ErrNotFound naming Cursor's database", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Messages) != tc.messages {
				t.Fatalf("%d messages, want %d", len(c.Messages), tc.messages)
			}
			if tc.messages > 0 && c.Messages[0].Text != tc.firstText {
				t.Errorf("first message %q, want %q", c.Messages[0].Text, tc.firstText)
			}
			if c.Status != tc.wantStatus {
				t.Errorf("status %q, want %q", c.Status, tc.wantStatus)
			}
			if tc.wantStatus == "" {
				return
			}
			if c.Mode != conv.Mode || c.Title != conv.Title || len(c.Prompts) != 2 || c.EditSource != EditSource {
				t.Errorf("conversation = %+v", c)
			}
			if len(c.Edits) != 1 || c.Edits[0].Path != conv.Edited[0] || c.Edits[0].LinesOnly || c.Edits[0].At.IsZero() {
				t.Errorf("edits = %+v", c.Edits)
			}
		})
	}
}

// TestReadConversationNoDatabase: a missing database is source.ErrNotFound,
// with the message that says where it was looked for.
func TestReadConversationNoDatabase(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none.vscdb")
	src := Source{Getenv: func(k string) string {
		if k == "CURSOR_DB_PATH" {
			return missing
		}
		return ""
	}}
	_, err := src.ReadConversation(context.Background(), "x", source.Hint{NoMessages: true})
	if !errors.Is(err, source.ErrNotFound) || !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), missing) {
		t.Errorf("err = %v", err)
	}
}

// TestListConversationsRoots: one pass finds the conversations of every
// work tree given, each with the first root it belongs to as its Cwd and
// the associations that said so; another folder's are not listed.
func TestListConversationsRoots(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	main, linked, other := filepath.Join(dir, "main"), filepath.Join(dir, "linked"), filepath.Join(dir, "other")
	dbPath := filepath.Join(dir, "state.vscdb")
	conv := func(id, workspace string, edited ...string) cursortest.Conversation {
		c := cursortest.Sample()
		c.ID, c.Workspace, c.Edited = id, workspace, edited
		return c
	}
	if err := cursortest.Write(dbPath,
		conv("c-main", main, filepath.Join(main, "a.go")),
		conv("c-linked", linked),
		conv("c-edits-linked", "", filepath.Join(linked, "b.go")),
		conv("c-other", other, filepath.Join(other, "c.go")),
		conv("c-both", linked, filepath.Join(main, "d.go")),
	); err != nil {
		t.Fatal(err)
	}
	src := Source{Getenv: func(k string) string { return map[string]string{"CURSOR_DB_PATH": dbPath}[k] }}
	tests := []struct {
		roots []string
		want  string // id@root:via...
	}{
		{[]string{main}, "c-both@main:editedFiles c-main@main:editedFiles,workspaceIdentifier"},
		{[]string{linked}, "c-both@linked:workspaceIdentifier c-edits-linked@linked:editedFiles c-linked@linked:workspaceIdentifier"},
		{[]string{main, linked}, "c-both@main:editedFiles,workspaceIdentifier c-edits-linked@linked:editedFiles " +
			"c-linked@linked:workspaceIdentifier c-main@main:editedFiles,workspaceIdentifier"},
		{nil, ""},
	}
	for _, tt := range tests {
		refs, err := src.ListConversations(ctx, tt.roots)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range refs {
			got = append(got, r.ID+"@"+filepath.Base(r.Cwd)+":"+strings.Join(r.Via, ","))
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("roots %v:\n got %s\nwant %s", tt.roots, strings.Join(got, " "), tt.want)
		}
	}
}
