package app

import (
	"context"
	"strings"
	"testing"
)

// TestRecheckLeavesUnlinkedCommits: after a fetch moves teammates' notes,
// the recent commits this clone has no link for are looked at again as
// squash merges (unlinked). A commit whose links the user unlinked by
// hand is this clone's own work: looked at, a derived link could bring an
// unlinked conversation back.
func TestRecheckLeavesUnlinkedCommits(t *testing.T) {
	a, repo, head := testRepo(t)
	ctx := context.Background()
	s, err := a.OpenStore(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	const conv = "0f0e0d0c-1111-4222-8333-444455556666"
	if _, err := a.Link(ctx, s, LinkRequest{Repo: repo, Hash: head, Conversation: conv, Reason: "test"}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Unlink(ctx, s, repo, conv, head); err != nil {
		t.Fatal(err)
	}
	s.Close()
	other := strings.Repeat("e", 40) // a commit never linked here
	got, err := a.unlinked(ctx, []string{head, other})
	if err != nil || strings.Join(got, " ") != other {
		t.Errorf("looked at again: %v %v; want only %s", got, err, other[:7])
	}
}
