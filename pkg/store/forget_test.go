package store

import (
	"context"
	"testing"
	"time"
)

// TestForgetConversationUnexaminesItsCommits: a commit whose lines a
// forgotten conversation wrote is no longer one whose lines were examined
// (its record would now say a person wrote them: a teammate's note, or
// nothing, answers instead); a commit it wrote no line of keeps its
// examination.
func TestForgetConversationUnexaminesItsCommits(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	for _, h := range []string{"wrote", "other"} {
		if err := s.UpsertCommit(ctx, Commit{Hash: h, RepoPath: "/w", CommittedAt: time.Unix(1700000000, 0), ParentCount: 1, Files: []string{"a.go"}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SetCommitLines(ctx, "wrote", []FileLines{{Path: "a.go", Added: 2, Agent: 2}}, []CommitLine{
		{Path: "a.go", Line: 1, ConversationID: "gone"}, {Path: "a.go", Line: 2, ConversationID: "kept"}}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetCommitLines(ctx, "other", []FileLines{{Path: "a.go", Added: 1, Agent: 1}}, []CommitLine{
		{Path: "a.go", Line: 1, ConversationID: "kept"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ForgetConversation(ctx, "gone"); err != nil {
		t.Fatal(err)
	}
	writers, recorded, err := s.CommitLineWriters(ctx, []string{"wrote", "other"})
	if err != nil {
		t.Fatal(err)
	}
	if recorded["wrote"] || !recorded["other"] {
		t.Errorf("examined after forget: %v, want only other", recorded)
	}
	if w := writers["wrote"]["a.go"]; len(w) != 1 || w[2].ConversationID != "kept" {
		t.Errorf("the lines left of wrote: %v", w)
	}
}

// TestForgottenStaysUnexamined: examining a forgotten conversation's
// commit again (record, relink of an unrecorded rewrite) keeps it
// unexamined, with the lines the conversations still here claim; a
// rewrite of it (MarkRewritten) is unexamined too, as is the rewrite of a
// commit never recorded here (a teammate's); other commits are examined as
// before.
func TestForgottenStaysUnexamined(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	for _, h := range []string{"wrote", "other", "wrote2", "other2", "theirs2"} {
		if err := s.UpsertCommit(ctx, Commit{Hash: h, RepoPath: "/w", CommittedAt: time.Unix(1700000000, 0), ParentCount: 1, Files: []string{"a.go"}}); err != nil {
			t.Fatal(err)
		}
	}
	two := []CommitLine{{Path: "a.go", Line: 1, ConversationID: "gone"}, {Path: "a.go", Line: 2, ConversationID: "kept"}}
	for _, h := range []string{"wrote", "other"} {
		ls := two
		if h == "other" {
			ls = two[1:]
		}
		if err := s.SetCommitLines(ctx, h, []FileLines{{Path: "a.go", Added: 2, Agent: len(ls)}}, ls); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.ForgetConversation(ctx, "gone"); err != nil {
		t.Fatal(err)
	}
	// Examined again: the forgotten conversation's evidence is gone, so
	// only kept's line is found.
	for _, h := range []string{"wrote", "other"} {
		if err := s.SetCommitLines(ctx, h, []FileLines{{Path: "a.go", Added: 2, Agent: 1}}, two[1:]); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range [][2]string{{"wrote", "wrote2"}, {"other", "other2"}, {"theirs", "theirs2"}} {
		if err := s.SetCommitLines(ctx, p[1], []FileLines{{Path: "a.go", Added: 2, Agent: 1}}, two[1:]); err != nil {
			t.Fatal(err)
		}
		if err := s.MarkRewritten(ctx, p[0], p[1]); err != nil {
			t.Fatal(err)
		}
	}
	// A commit forgotten before linesForgotten was (left not examined,
	// with the others' lines): examined again, it stays unexamined too.
	if err := s.UpsertCommit(ctx, Commit{Hash: "old", RepoPath: "/w", CommittedAt: time.Unix(1700000000, 0), ParentCount: 1, Files: []string{"a.go"}}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetCommitLines(ctx, "old", nil, two[1:]); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE commits SET linesRecorded = 0 WHERE commitHash = 'old'`); err != nil {
		t.Fatal(err)
	}
	if err := s.SetCommitLines(ctx, "old", []FileLines{{Path: "a.go", Added: 2, Agent: 1}}, two[1:]); err != nil {
		t.Fatal(err)
	}
	hashes := []string{"wrote", "other", "wrote2", "other2", "old", "theirs2"}
	writers, recorded, err := s.CommitLineWriters(ctx, hashes)
	if err != nil {
		t.Fatal(err)
	}
	in, recordedIn, err := s.CommitLineWritersIn(ctx, hashes, []string{"a.go"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		hash     string
		examined bool
	}{{"wrote", false}, {"wrote2", false}, {"other", true}, {"other2", true}, {"old", false}, {"theirs2", false}} {
		_, _, ok, err := s.CommitLineCounts(ctx, tc.hash)
		if err != nil {
			t.Fatal(err)
		}
		if recorded[tc.hash] != tc.examined || recordedIn[tc.hash] != tc.examined || ok != tc.examined {
			t.Errorf("%s: examined %v, %v, %v; want %v", tc.hash, recorded[tc.hash], recordedIn[tc.hash], ok, tc.examined)
		}
		if w := writers[tc.hash]["a.go"]; len(w) != 1 || w[2].ConversationID != "kept" || len(in[tc.hash]["a.go"]) != 1 {
			t.Errorf("%s: lines %v", tc.hash, w)
		}
	}
	stats, err := s.CommitFileStats(ctx, hashes)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range stats {
		if st.CommitHash == "wrote" || st.CommitHash == "wrote2" || st.CommitHash == "old" || st.CommitHash == "theirs2" {
			t.Errorf("stats count an unexamined commit: %+v", st)
		}
	}
}
