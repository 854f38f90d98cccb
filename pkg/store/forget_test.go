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
