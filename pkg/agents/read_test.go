package agents

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/agents/cursor/cursortest"
	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/store"
)

// TestRead reads conversations the way `conversation`, `show --full` and
// MCP's get_conversation do: from Cursor's database (with the header from
// both the store and the agent), from the transcript Cursor's hooks named,
// from the hook record when the agent has it no more, and not at all when
// nothing has it.
func TestRead(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "state.vscdb")
	conv := cursortest.Sample()
	if err := cursortest.Write(dbPath, conv); err != nil {
		t.Fatal(err)
	}
	transcript := filepath.Join(dir, "t.jsonl")
	if err := cursortest.WriteTranscript(transcript, cursortest.TranscriptLine{User: true, Text: "only in the transcript"},
		cursortest.TranscriptLine{Text: "answered"}); err != nil {
		t.Fatal(err)
	}
	getenv := func(k string) string {
		switch k {
		case "CURSOR_DB_PATH":
			return dbPath
		case "HOME":
			return dir // no Claude Code sessions there
		}
		return ""
	}
	s, err := store.Open(ctx, filepath.Join(dir, "links.sqlite"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	record := func(id, transcriptPath string, prompt bool) *store.Conversation {
		t.Helper()
		a := store.Activity{ConversationID: id, Event: "afterFileEdit", AtMs: 1_700_000_000_000, TranscriptPath: transcriptPath}
		if prompt {
			a.Event, a.Prompt = "beforeSubmitPrompt", "a prompt the hooks saw"
		}
		if err := s.RecordActivity(ctx, a); err != nil {
			t.Fatal(err)
		}
		c, err := s.GetConversation(ctx, id)
		if err != nil || c == nil {
			t.Fatalf("conversation %s: %v", id, err)
		}
		return c
	}
	tests := []struct {
		name      string
		id        string
		conv      *store.Conversation
		first     string // the first message's text; "" for an error
		wantErr   string
		wantTitle string
		note      bool
	}{
		{name: "Cursor's database, unknown to the store", id: conv.ID, first: conv.Messages[0].Text, wantTitle: conv.Title},
		{name: "Cursor's database", id: conv.ID, conv: record(conv.ID, "", false), first: conv.Messages[0].Text, wantTitle: conv.Title},
		{name: "transcript", id: "in-transcript", conv: record("in-transcript", transcript, false), first: "only in the transcript"},
		{name: "hook record", id: "hooks-only", conv: record("hooks-only", "", true), first: "a prompt the hooks saw", note: true},
		{name: "nowhere, known", id: "lost", conv: record("lost", "", false), wantErr: "the hooks recorded none of it"},
		{name: "nowhere", id: "unknown", wantErr: "no conversation unknown in links.sqlite or any agent's store"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			msgs, meta, err := shipped().Read(ctx, getenv, s, tc.id, tc.conv)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(msgs) == 0 || msgs[0].Text != tc.first {
				t.Fatalf("messages = %+v, want the first %q", msgs, tc.first)
			}
			if meta.ID != tc.id || meta.Agent != "cursor" || meta.Title != tc.wantTitle || (meta.Note == source.HookRecordNote) != tc.note {
				t.Errorf("meta = %+v", meta)
			}
			if tc.wantTitle != "" && (!meta.Created.Equal(conv.Created) || !meta.Updated.Equal(conv.Updated) || meta.Model != conv.Model) {
				t.Errorf("header from Cursor: %+v", meta)
			}
			if tc.conv != nil && tc.wantTitle == "" && !meta.Created.Equal(time.UnixMilli(tc.conv.FirstSeenMs)) {
				t.Errorf("header from the store: %+v", meta)
			}
		})
	}
}
