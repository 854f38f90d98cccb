package store

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// TestUpdateNotes: an index's rows come back as written; an update on a
// tip the index no longer reflects writes nothing; a commit's rows are
// replaced, a full update replaces the ref's; another repository's and
// another ref's rows are never touched.
func TestUpdateNotes(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "links.sqlite"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	n := func(ref, commit, writers string, skips ...string) IndexedNote {
		return IndexedNote{Ref: ref, Commit: commit, Writers: writers, Skips: skips}
	}
	const ai, at = "refs/notes/ai", "refs/notes/agent-trace"
	must := func(key, ref string, u NotesUpdate) {
		t.Helper()
		if err := s.UpdateNotes(ctx, key, ref, u, time.Second); err != nil {
			t.Fatal(err)
		}
	}
	must("r", ai, NotesUpdate{Tip: "t1", Version: 1, Full: true,
		Notes: []IndexedNote{n(ai, "c1", "w1"), n(ai, "c2", "w2"), n(ai, "c3", "", "bad", `"quoted"\n`)}})
	must("r", at, NotesUpdate{Tip: "u1", Version: 1, Notes: []IndexedNote{n(at, "c1", "v1")}})
	must("other", ai, NotesUpdate{Tip: "x1", Version: 1, Notes: []IndexedNote{n(ai, "c1", "z1")}})
	got, err := s.IndexedNotes(ctx, "r", []string{ai, at}, []string{"c1", "c2", "c3", "c4"})
	want := []IndexedNote{n(at, "c1", "v1"), n(ai, "c1", "w1"), n(ai, "c2", "w2"), n(ai, "c3", "", "bad", `"quoted"\n`)}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("as written:\n%+v %v\nwant\n%+v", got, err, want)
	}
	if err := s.UpdateNotes(ctx, "r", ai, NotesUpdate{OldTip: "t0", Tip: "t2", Version: 1, Full: true}, time.Second); !errors.Is(err, ErrIndexMoved) {
		t.Errorf("an update from a tip not indexed: %v", err)
	}
	must("r", ai, NotesUpdate{OldTip: "t1", Tip: "t2", Version: 1, Cleared: []string{"c1", "c3"}, Notes: []IndexedNote{n(ai, "c1", "w1'")}})
	got, err = s.IndexedNotes(ctx, "r", []string{ai, at}, []string{"c1", "c2", "c3"})
	want = []IndexedNote{n(at, "c1", "v1"), n(ai, "c1", "w1'"), n(ai, "c2", "w2")}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("after c1 and c3 changed:\n%+v %v\nwant\n%+v", got, err, want)
	}
	tips, err := s.NotesTips(ctx, "r")
	if err != nil || len(tips) != 2 || tips[ai] != (NotesTip{"t2", 1}) || tips[at] != (NotesTip{"u1", 1}) {
		t.Errorf("tips %+v %v", tips, err)
	}
	must("r", ai, NotesUpdate{OldTip: "t2", Tip: "t3", Version: 1, Full: true, Notes: []IndexedNote{n(ai, "c2", "", "why")}})
	got, _ = s.IndexedNotes(ctx, "r", []string{ai}, []string{"c1", "c2"})
	if want := []IndexedNote{n(ai, "c2", "", "why")}; !reflect.DeepEqual(got, want) {
		t.Errorf("after a full update: %+v", got)
	}
	if got, _ := s.IndexedNotes(ctx, "other", []string{ai}, []string{"c1"}); len(got) != 1 || got[0].Writers != "z1" {
		t.Errorf("another repository's rows: %+v", got)
	}
	// Forgetting a repository forgets its index.
	if _, err := s.ForgetRepository(ctx, "r", "/nowhere"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.IndexedNotes(ctx, "r", []string{ai}, []string{"c2"}); len(got) != 0 {
		t.Errorf("after forget: %+v", got)
	}
	if tips, _ := s.NotesTips(ctx, "r"); len(tips) != 0 {
		t.Errorf("tips after forget: %+v", tips)
	}
	if got, _ := s.IndexedNotes(ctx, "other", []string{ai}, []string{"c1"}); len(got) != 1 {
		t.Errorf("another repository's rows after forget: %+v", got)
	}
}

// TestUpdateNotesLocked: with another writer holding the database, an
// update gives up after its wait (the read then reads the notes itself),
// and the store's own busy timeout is back for the next write.
func TestUpdateNotesLocked(t *testing.T) {
	ctx := context.Background()
	p := filepath.Join(t.TempDir(), "links.sqlite")
	s, err := Open(ctx, p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	other, err := Open(ctx, p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	tx, err := other.db.BeginTx(ctx, nil) // BEGIN IMMEDIATE: the write lock
	if err != nil {
		t.Fatal(err)
	}
	err = s.UpdateNotes(ctx, "r", "refs/notes/ai", NotesUpdate{Tip: "t", Version: 1}, 20*time.Millisecond)
	if !isBusy(errors.Unwrap(err)) && !isBusy(err) {
		t.Errorf("an update while another writer holds the lock: %v", err)
	}
	tx.Rollback()
	var ms int
	if err := s.db.QueryRowContext(ctx, "PRAGMA busy_timeout").Scan(&ms); err != nil || ms != int(BusyTimeout.Milliseconds()) {
		t.Errorf("busy timeout after the update: %d %v", ms, err)
	}
	if err := s.UpdateNotes(ctx, "r", "refs/notes/ai", NotesUpdate{Tip: "t", Version: 1}, 20*time.Millisecond); err != nil {
		t.Errorf("once the lock is free: %v", err)
	}
}
