package ingest

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/agents/builtin"
	"github.com/git-convo/git-convo/pkg/agents/cursor"
	"github.com/git-convo/git-convo/pkg/agents/cursor/cursortest"
	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/store"
)

// TestCursorWordsLeaveIngest: what ingest records of a Cursor conversation
// is the same whether its transcript, with edits and the words before
// them, is on disk or not: those edits are for pr's words alone, never
// evidence of lines.
func TestCursorWordsLeaveIngest(t *testing.T) {
	ctx := context.Background()
	repo := gitInit(t)
	dbPath := filepath.Join(t.TempDir(), "state.vscdb")
	conv := cursortest.Sample()
	conv.Edited = []string{filepath.Join(repo, "a.go")}
	if err := cursortest.Write(dbPath, conv); err != nil {
		t.Fatal(err)
	}
	tr := filepath.Join(t.TempDir(), "t.jsonl")
	if err := cursortest.WriteTranscript(tr,
		cursortest.TranscriptLine{User: true, Text: "Add b.go"},
		cursortest.TranscriptLine{Text: "Writing b.go now.", Tools: []cursortest.Tool{{Name: "Write",
			Input: map[string]any{"path": filepath.Join(repo, "b.go"), "contents": "package b\n\nfunc B() {}\n"}}}},
	); err != nil {
		t.Fatal(err)
	}
	now := func() time.Time { return time.UnixMilli(1_800_000_000_000) }
	s, err := store.Open(ctx, filepath.Join(t.TempDir(), "links.sqlite"), store.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	getenv := func(k string) string {
		if k == "CURSOR_DB_PATH" {
			return dbPath
		}
		return ""
	}
	src := cursor.Source{Getenv: getenv}
	// The transcript is readable, and pr would see its words.
	if c, err := src.ReadConversation(ctx, conv.ID, source.Hint{TranscriptPath: tr}); err != nil || len(c.WordEdits) != 1 || c.WordEdits[0].Words != "Writing b.go now." {
		t.Fatalf("transcript's edits: %+v %v", c, err)
	}
	w := Writer{Store: s, Now: now, Getenv: getenv, Agents: builtin.Registry()}
	with, err := w.read(ctx, src, conv.ID, source.Hint{TranscriptPath: tr}, []string{repo})
	if err != nil {
		t.Fatal(err)
	}
	without, err := w.read(ctx, src, conv.ID, source.Hint{TranscriptPath: filepath.Join(t.TempDir(), "gone.jsonl")}, []string{repo})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(with, without) || len(with.Files) != 1 {
		t.Errorf("ingest's enrichment changed with the transcript:\n%+v\n%+v", with, without)
	}
}
