package ingest

import (
	"context"
	"github.com/git-convo/git-convo/pkg/agents/builtin"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/agents/cursor/cursortest"
	"github.com/git-convo/git-convo/pkg/store"
)

// TestEnrichCursor reads a conversation from a state.vscdb in Cursor's
// schema into a real links database: title, status, mode, and the edited
// file resolved to its repository.
func TestEnrichCursor(t *testing.T) {
	ctx := context.Background()
	repo := gitInit(t)
	dbPath := filepath.Join(t.TempDir(), "state.vscdb")
	conv := cursortest.Sample()
	conv.Edited = []string{filepath.Join(repo, "src", "a.go")}
	if err := cursortest.Write(dbPath, conv); err != nil {
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
	w := Writer{Store: s, Now: now, Getenv: getenv, Agents: builtin.Registry()}
	if err := w.EnrichAgent(ctx, conv.ID); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetConversation(ctx, conv.ID)
	if err != nil || got == nil {
		t.Fatalf("conversation: %v %v", got, err)
	}
	if got.Title != conv.Title || got.Status != conv.Status || got.Mode != conv.Mode || got.EnrichedMs != now().UnixMilli() {
		t.Errorf("enriched %+v", got)
	}
	files, err := s.ConversationFiles(ctx, conv.ID)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range files {
		paths = append(paths, f.Path)
	}
	if len(paths) != 1 || paths[0] != "src/a.go" {
		t.Errorf("files = %q, want [src/a.go]", paths)
	}
	err = w.EnrichAgent(ctx, "not-there")
	if err == nil || !strings.Contains(err.Error(), "is not in Cursor's database") {
		t.Errorf("missing conversation: %v", err)
	}
}
