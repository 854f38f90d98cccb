package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// atVersion is a new links.sqlite at schema version v, with the rows
// stmts write, for a test of what later migrations make of it.
func atVersion(t *testing.T, v int, stmts ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "links.sqlite")
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms[:v] {
		if _, err := db.Exec(m.sql); err != nil {
			t.Fatal(m.name, err)
		}
	}
	for _, q := range append([]string{fmt.Sprintf("PRAGMA user_version = %d", v)}, stmts...) {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(q, err)
		}
	}
	return path
}

// A database written before evidence by position migrates in place: its
// commit lines and links read as text matches, the weaker evidence.
func TestVersion3EvidenceReadsAsTextMatch(t *testing.T) {
	ctx := context.Background()
	path := atVersion(t, 3,
		`INSERT INTO commits (commitHash, repoKey, committedMs, linesRecorded) VALUES ('c1', 'r', 1, 1)`,
		`INSERT INTO commit_files (commitHash, path, pathKey, addedLines, agentLines) VALUES ('c1', 'a.go', 'a.go', 2, 1)`,
		`INSERT INTO commit_lines (commitHash, path, line, conversationId) VALUES ('c1', 'a.go', 1, 'conv')`,
		`INSERT INTO conversations (conversationId) VALUES ('conv')`,
		`INSERT INTO links (conversationId, commitHash, confidence, status, createdAt, writtenLines, addedLines) VALUES ('conv', 'c1', 0.8, 'auto', '', 1, 2)`,
	)
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	writers, recorded, err := s.CommitLineWriters(ctx, []string{"c1"})
	if err != nil || !recorded["c1"] || writers["c1"]["a.go"][1].Evidence != EvidenceText {
		t.Fatalf("writers %+v recorded %v: %v", writers, recorded, err)
	}
	linked, err := s.ConversationsForCommits(ctx, []string{"c1"})
	if err != nil || len(linked["c1"]) != 1 || linked["c1"][0].Evidence() != LinkEvidenceText {
		t.Fatalf("links %+v: %v", linked, err)
	}
	added, written, positioned, ok, err := s.CommitLineEvidence(ctx, "c1")
	if err != nil || !ok || added != 2 || written["conv"] != 1 || positioned["conv"] != 0 {
		t.Fatalf("added %d written %v positioned %v ok %v: %v", added, written, positioned, ok, err)
	}
}

// Located edits are kept per event and file, read back oldest first by
// repository, file and time, and bounded per conversation.
func TestEditSpans(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	var spans []EditSpan
	for i := 0; i < 3; i++ {
		spans = append(spans, EditSpan{RepoKey: "r", PathKey: fmt.Sprintf("f%d", i%2), AtMs: at + int64(i), Snapshot: []byte{byte(i), 0, 0, 0, 0, 0, 0, 0},
			Ranges: []Range{{1, 1}, {3, 5}}})
	}
	if err := s.RecordActivity(ctx, Activity{ConversationID: "c", AtMs: at, Spans: spans}); err != nil {
		t.Fatal(err)
	}
	got, err := s.EditSpans(ctx, "r", []string{"f0"}, at, at+10)
	if err != nil || len(got) != 2 || got[0].AtMs != at || got[1].AtMs != at+2 || got[1].Snapshot[0] != 2 ||
		fmt.Sprint(got[0].Ranges) != "[{1 1} {3 5}]" {
		t.Fatalf("%+v: %v", got, err)
	}
	if got, _ := s.EditSpans(ctx, "r", []string{"f0", "f1"}, at+1, at+1); len(got) != 1 || got[0].PathKey != "f1" {
		t.Fatalf("window: %+v", got)
	}
	if n, err := s.PruneEditLines(ctx, at+2); err != nil || n != 0 {
		t.Fatal(n, err)
	}
	if got, _ := s.EditSpans(ctx, "r", []string{"f0", "f1"}, 0, at+10); len(got) != 1 {
		t.Fatalf("after pruning: %+v", got)
	}
}
