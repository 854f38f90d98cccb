package cursor

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/agents/cursor/cursortest"
	"github.com/git-convo/git-convo/pkg/agents/source"
)

// synthTranscript is a transcript in Cursor's format with words before some
// edits: redacted thinking between them, a new prompt that clears them, a
// replacement whose unchanged lines it did not add, a MultiEdit, a Delete.
func synthTranscript(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "agent-transcripts", "t.jsonl")
	w := func(path, contents string) cursortest.Tool {
		return cursortest.Tool{Name: "Write", Input: map[string]any{"path": path, "contents": contents}}
	}
	err := cursortest.WriteTranscript(p,
		cursortest.TranscriptLine{User: true, Text: "Add a greeting"},
		cursortest.TranscriptLine{Text: "I'll write greet.go."},
		cursortest.TranscriptLine{Tools: []cursortest.Tool{{Name: "Read", Input: map[string]any{"path": "/r/x.go"}}}},
		cursortest.TranscriptLine{Text: "[REDACTED]"},
		cursortest.TranscriptLine{Text: "\n[REDACTED]", Tools: []cursortest.Tool{w("/r/greet.go", "package greet\n\nfunc Hi() {}\n")}},
		cursortest.TranscriptLine{Text: "Now rename Hi.\n\n[REDACTED]", Tools: []cursortest.Tool{{Name: "StrReplace", Input: map[string]any{
			"path": "/r/greet.go", "old_string": "package greet\n\nfunc Hi() {}", "new_string": "package greet\n\nfunc Hello() {}"}}}},
		cursortest.TranscriptLine{User: true, Text: "And a bye"},
		cursortest.TranscriptLine{Tools: []cursortest.Tool{w("bye.go", "package greet\n")}},
		cursortest.TranscriptLine{Text: "Two edits at once.", Tools: []cursortest.Tool{{Name: "MultiEdit", Input: map[string]any{
			"path": "/r/bye.go", "edits": []any{
				map[string]any{"old_string": "package greet", "new_string": "package greet\n\nfunc Bye() {}"},
				map[string]any{"old_string": "x", "new_string": "y := 1"},
			}}}}},
		cursortest.TranscriptLine{Text: "Removing old.go.", Tools: []cursortest.Tool{{Name: "Delete", Input: map[string]any{"path": "/r/old.go"}}}},
	)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestTranscriptWords: the edits of a transcript, each with the agent's
// last words of the turn before the tool call that made it.
func TestTranscriptWords(t *testing.T) {
	type edit struct{ path, added, words string }
	tests := []struct {
		name       string
		transcript func(t *testing.T) string
		want       []edit
	}{
		{"synthetic", synthTranscript, []edit{
			{"/r/greet.go", "package greet\n\nfunc Hi() {}\n", "I'll write greet.go."}, // [REDACTED] is not words
			{"/r/greet.go", "func Hello() {}\n", "Now rename Hi."},
			{"bye.go", "package greet\n", ""}, // a new prompt: the old words are gone
			{"/r/bye.go", "\nfunc Bye() {}\n\ny := 1\n", "Two edits at once."},
		}},
		{"real", func(t *testing.T) string {
			return cursortest.Shared(t, "transcripts", "cursor-session-simple.jsonl")
		}, []edit{{"/Users/aidancunniffe/Desktop/testing-gitflows-git-ai/hbo-shows-1990s.txt", "",
			"Creating `hbo-shows-1990s.txt` in the same spirit as the PBS list: comprehensive coverage from Wikipedia's HBO programming tables plus well-documented co-productions (e.g., Tintin, Babar) that aired on HBO in the U.S. during the 1990s."}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, edits, err := readTranscript(tt.transcript(t))
			if err != nil {
				t.Fatal(err)
			}
			if len(edits) != len(tt.want) {
				t.Fatalf("%d edits %+v, want %d", len(edits), edits, len(tt.want))
			}
			for i, w := range tt.want {
				e := edits[i]
				if tt.name == "real" && !strings.Contains(e.Added, "The Chris Rock Show (1997–2000)\n") {
					t.Errorf("the Write's contents are not its added lines: %.200q", e.Added)
				}
				if e.Path != w.path || e.Words != w.words || (w.added != "" && e.Added != w.added) || e.Added == "" || e.LinesOnly || !e.At.IsZero() {
					t.Errorf("edit %d: %+v, want %+v", i, e, w)
				}
			}
		})
	}
}

// TestReadConversationWordEdits: the transcript's edits come as WordEdits
// only when messages are asked for; the database's edits, which ingest
// reads, are the same with the transcript or without it.
func TestReadConversationWordEdits(t *testing.T) {
	ctx := context.Background()
	dbPath := filepath.Join(t.TempDir(), "state.vscdb")
	conv := cursortest.Sample()
	if err := cursortest.Write(dbPath, conv); err != nil {
		t.Fatal(err)
	}
	src := Source{Getenv: func(k string) string {
		if k == "CURSOR_DB_PATH" {
			return dbPath
		}
		return ""
	}}
	tr := synthTranscript(t)
	read := func(hint source.Hint) *source.Conversation {
		t.Helper()
		c, err := src.ReadConversation(ctx, conv.ID, hint)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	with, without := read(source.Hint{TranscriptPath: tr}), read(source.Hint{})
	if len(with.WordEdits) != 4 || len(without.WordEdits) != 0 || len(with.Edits) == 0 || !reflect.DeepEqual(with.Edits, without.Edits) {
		t.Errorf("edits %+v / %+v, word edits %d / %d", with.Edits, without.Edits, len(with.WordEdits), len(without.WordEdits))
	}
	if len(with.Messages) != len(conv.Messages) { // the database's messages win
		t.Errorf("%d messages, want the database's %d", len(with.Messages), len(conv.Messages))
	}
	if c := read(source.Hint{TranscriptPath: tr, NoMessages: true}); len(c.WordEdits) != 0 || !reflect.DeepEqual(c.Edits, without.Edits) {
		t.Errorf("enrichment read the transcript: %+v", c.WordEdits)
	}
	// No database: the transcript gives the messages and the words.
	src.Getenv = func(k string) string {
		if k == "CURSOR_DB_PATH" {
			return filepath.Join(t.TempDir(), "none.vscdb")
		}
		return ""
	}
	if c := read(source.Hint{TranscriptPath: tr}); len(c.WordEdits) != 4 || len(c.Edits) != 0 || len(c.Messages) != 10 {
		t.Errorf("transcript alone: %d edits, %d word edits, %d messages", len(c.Edits), len(c.WordEdits), len(c.Messages))
	}
	// An unreadable transcript: the database alone, no words.
	if err := os.Remove(tr); err != nil {
		t.Fatal(err)
	}
	if _, err := src.ReadConversation(ctx, conv.ID, source.Hint{TranscriptPath: tr}); err == nil {
		t.Error("neither database nor transcript: no error")
	}
}
