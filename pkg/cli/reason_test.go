package cli

import (
	"strings"
	"testing"
)

// TestHandCommitReasonSaysNoLines: a commit made by hand later to a file an
// agent edited is a weaker link whose reason says none of its added lines
// were the conversation's.
func TestHandCommitReasonSaysNoLines(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.convo(repo, "install", "--cursor=none")
	sb.agentEdit(repo, fixtureConv, "src/cache.go", "package cache\n\nvar MaxAge = 60\n")
	sb.commit(repo, "cache: MaxAge", "src/cache.go")
	sb.write(repo, "src/cache.go", "package cache\n\nvar MaxAge = 60\n\n// Tuned by hand.\nvar MinAge = 5\n")
	sb.commit(repo, "cache: MinAge, by hand", "src/cache.go")
	s := sb.showJSON(repo, "HEAD")
	if len(s.Conversations) != 1 {
		t.Fatalf("hand commit links: %+v", s.Conversations)
	}
	c := s.Conversations[0]
	if c.Confidence > 0.5 || !strings.HasPrefix(c.Reason, "0 of 2 added lines written in this conversation; ") {
		t.Errorf("hand commit link: confidence %v, reason %q", c.Confidence, c.Reason)
	}
	if first := sb.showJSON(repo, "HEAD~1").Conversations; len(first) != 1 || !strings.HasPrefix(first[0].Reason, "2 of 2 added lines") {
		t.Errorf("agent commit link: %+v", first)
	}
}
