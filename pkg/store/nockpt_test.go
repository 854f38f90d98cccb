package store

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recordOnce opens links.sqlite at path, records one hook event with a
// prompt of size bytes, and closes it, as one capture process does.
func recordOnce(t *testing.T, path, conv string, size int) {
	t.Helper()
	ctx := context.Background()
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	a := Activity{ConversationID: conv, Event: "beforeSubmitPrompt", AtMs: 1, Prompt: strings.Repeat("p", size)}
	if err := s.RecordActivity(ctx, a); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

func walSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path + "-wal")
	if err != nil {
		t.Fatalf("no log beside %s: %v", path, err)
	}
	return fi.Size()
}

// TestCloseLeavesTheLog: closing the last connection writes nothing more:
// the transaction stays in the log for a later process, and is read back.
func TestCloseLeavesTheLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "links.sqlite")
	recordOnce(t, path, "c1", 10)
	if n := walSize(t, path); n == 0 {
		t.Fatal("the log is empty: Close checkpointed it")
	}
	s, err := Open(context.Background(), path, Options{MustExist: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if c, err := s.GetConversation(context.Background(), "c1"); err != nil || c == nil {
		t.Fatalf("the logged conversation = %v, %v", c, err)
	}
}

// TestLogStaysShort: process after process, the log never passes the size
// at which Close truncates it by more than one capture's worth, and what
// the checkpoints moved is all there.
func TestLogStaysShort(t *testing.T) {
	path := filepath.Join(t.TempDir(), "links.sqlite")
	truncated := false
	for i := 0; i < 60; i++ {
		recordOnce(t, path, "c"+string(rune('A'+i)), 8000)
		n := walSize(t, path)
		if n > walTruncateBytes {
			t.Fatalf("after %d processes the log has %d bytes, past %d", i+1, n, walTruncateBytes)
		}
		truncated = truncated || n == 0
	}
	if !truncated {
		t.Error("Close never truncated the log")
	}
	s, err := Open(context.Background(), path, Options{MustExist: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var n int
	if err := s.db.QueryRow(`SELECT count(*) FROM conversations`).Scan(&n); err != nil || n != 60 {
		t.Fatalf("conversations = %d, %v; want 60", n, err)
	}
}

// TestOtherDatabasesStillCheckpoint: only links.sqlite's connections skip
// the checkpoint at close; another database opened through go-sqlite3 in
// the same process (an agent's) behaves as SQLite's default.
func TestOtherDatabasesStillCheckpoint(t *testing.T) {
	dir := t.TempDir()
	recordOnce(t, filepath.Join(dir, "links.sqlite"), "c1", 10) // registers the hook
	other := filepath.Join(dir, "other.sqlite")
	db, err := sql.Open("sqlite3", "file:"+other+"?_journal_mode=WAL")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE t (x); INSERT INTO t VALUES (1)`); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(other + "-wal"); !os.IsNotExist(err) {
		t.Errorf("the other database's log is still there (%v): its checkpoint at close was skipped", err)
	}
}
