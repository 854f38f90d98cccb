package store

import (
	"context"
	"testing"
)

func TestAgentColumn(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	tests := []struct {
		id    string
		write func() error
		want  string
	}{
		{"c1", func() error { return s.RecordActivity(ctx, Activity{ConversationID: "c1", Event: "stop"}) }, "cursor"},
		{"k1", func() error {
			return s.RecordActivity(ctx, Activity{ConversationID: "k1", Agent: "claude", Event: "Stop"})
		}, "claude"},
		// A later event that names no agent keeps the agent.
		{"k1", func() error { return s.ApplyEnrichment(ctx, Enrichment{ConversationID: "k1", Title: "t"}) }, "claude"},
		{"k2", func() error { return s.ApplyEnrichment(ctx, Enrichment{ConversationID: "k2", Agent: "claude"}) }, "claude"},
	}
	for _, tt := range tests {
		if err := tt.write(); err != nil {
			t.Fatal(err)
		}
		c, err := s.GetConversation(ctx, tt.id)
		if err != nil || c == nil || c.Agent != tt.want {
			t.Errorf("%s: agent %v, %v; want %s", tt.id, c, err, tt.want)
		}
	}
}

// TestAgentCommitLinkKeptByScorer: the scorer's re-linking never lowers nor
// removes the link of a commit the agent made itself; a manual link stays.
func TestAgentCommitLinkKeptByScorer(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	if err := s.SetAgentCommitLink(ctx, "k1", "abc"); err != nil {
		t.Fatal(err)
	}
	if err := s.ReplaceAutoLinks(ctx, "abc", []Link{{ConversationID: "k1", Confidence: 0.3, Reason: "scored", WrittenLines: 4, AddedLines: 5}}); err != nil {
		t.Fatal(err)
	}
	if err := s.ReplaceAutoLinks(ctx, "abc", nil); err != nil {
		t.Fatal(err)
	}
	got, err := s.ConversationsForCommits(ctx, []string{"abc"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got["abc"]) != 1 {
		t.Fatalf("links %+v", got)
	}
	l := got["abc"][0]
	if l.Confidence != 1 || l.Reason != ReasonAgentCommit || l.Source != LinkSourceAgentCommit || l.Status != StatusAuto || l.WrittenLines != 4 {
		t.Errorf("link %+v", l.Link)
	}
	if err := s.SetManualLink(ctx, "k2", "abc", "by hand"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetAgentCommitLink(ctx, "k2", "abc"); err != nil {
		t.Fatal(err)
	}
	got, _ = s.ConversationsForCommits(ctx, []string{"abc"})
	for _, l := range got["abc"] {
		if l.ConversationID == "k2" && (l.Status != StatusManual || l.Reason != "by hand") {
			t.Errorf("the manual link changed: %+v", l.Link)
		}
	}
}
