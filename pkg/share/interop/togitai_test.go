package interop

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/interop/gitai"
	"github.com/git-convo/git-convo/pkg/share/notes"
	"github.com/git-convo/git-convo/pkg/share/trace"
)

// TestToGitAIRoundTrip: git-convo's record written as a git-ai log reads
// back through the reader with the same lines, agent, conversation and
// model; people's and mixed lines stay untracked.
func TestToGitAIRoundTrip(t *testing.T) {
	commit := strings.Repeat("ab", 20)
	rec := trace.Record{Version: "0.1.0", Files: []trace.File{
		{Path: "api/limit.go", Conversations: []trace.Conversation{
			{URL: trace.ConversationURL("conv-1"), Contributor: &trace.Contributor{Type: "ai"}, Ranges: []trace.Range{{StartLine: 9, EndLine: 12}, {StartLine: 1, EndLine: 4}}},
			{URL: trace.ConversationURL("conv-2"), Contributor: &trace.Contributor{Type: "ai"}, Ranges: []trace.Range{{StartLine: 5, EndLine: 5}}},
			{Contributor: &trace.Contributor{Type: "human"}, Ranges: []trace.Range{{StartLine: 6, EndLine: 8}}},
		}},
		{Path: "my dir/file.go", Conversations: []trace.Conversation{
			{URL: trace.ConversationURL("conv-1"), Contributor: &trace.Contributor{Type: "mixed"}, Ranges: []trace.Range{{StartLine: 1, EndLine: 3}}},
			{URL: trace.ConversationURL("conv-2"), Contributor: &trace.Contributor{Type: "ai"}, Ranges: []trace.Range{{StartLine: 2, EndLine: 2}}},
		}},
		{Path: "../escape.go", Conversations: []trace.Conversation{
			{URL: trace.ConversationURL("conv-1"), Contributor: &trace.Contributor{Type: "ai"}, Ranges: []trace.Range{{StartLine: 1, EndLine: 1}}},
		}},
	}}
	rec.SetMeta(trace.Meta{Format: 1, Conversations: map[string]trace.ConvMeta{
		"conv-1": {Agent: "cursor", Model: "claude-4.5-sonnet"},
		"conv-2": {Agent: "claude", Model: "claude-opus-4-6"},
	}})
	b, err := ToGitAI(commit, rec)
	if err != nil {
		t.Fatal(err)
	}
	l, err := gitai.Parse(b)
	if err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if !strings.Contains(string(b), "\"my dir/file.go\"\n") || strings.Contains(string(b), "escape") {
		t.Errorf("paths:\n%s", b)
	}
	if l.Meta.BaseCommitSHA != commit || l.Meta.SchemaVersion != gitai.SchemaVersion {
		t.Errorf("meta %+v", l.Meta)
	}
	lines := l.Lines("api/limit.go")
	for n := 1; n <= 12; n++ {
		a, ok := lines[n]
		switch {
		case n <= 4 || n >= 9:
			if !ok || a.Agent.Tool != "cursor" || a.Agent.ID != "conv-1" || a.Agent.Model != "claude-4.5-sonnet" || a.Session != gitai.SessionKey("cursor", "conv-1") {
				t.Errorf("line %d: %+v", n, a)
			}
		case n == 5:
			if !ok || a.Agent.Tool != "claude" || a.Agent.ID != "conv-2" {
				t.Errorf("line %d: %+v", n, a)
			}
		default:
			if ok {
				t.Errorf("a person's line %d written as %+v", n, a)
			}
		}
	}
	other := l.Lines("my dir/file.go")
	if len(other) != 1 || other[2].Agent.ID != "conv-2" {
		t.Errorf("my dir/file.go: %+v", other)
	}
	again, _ := ToGitAI(commit, rec)
	if string(again) != string(b) {
		t.Error("the same attribution written twice differs")
	}
	if !strings.Contains(string(b), "  "+gitai.SessionKey("cursor", "conv-1")+"::t_") || !strings.Contains(string(b), " 1-4,9-12\n") {
		t.Errorf("attestations:\n%s", b)
	}
}

// TestWriteGitAIShadowsNoNote: git-convo writes its log into refs/notes/ai
// only on a commit with no git-ai note on any ref: a note there would win
// over a remote's copy (CompareRefs), hiding a teammate's git-ai note.
func TestWriteGitAIShadowsNoNote(t *testing.T) {
	ctx := context.Background()
	dir, copied := repo(t)
	git(t, dir, "commit", "-q", "--allow-empty", "-m", "two")
	bare := git(t, dir, "rev-parse", "HEAD")
	addNote(t, dir, "refs/notes/remotes/origin/ai", copied, gitAINote(copied, "teammate-model"))
	g := notes.Git{Dir: dir, Env: []string{"GIT_AUTHOR_NAME=A", "GIT_AUTHOR_EMAIL=a@b", "GIT_COMMITTER_NAME=A", "GIT_COMMITTER_EMAIL=a@b"}}
	n, err := WriteGitAI(ctx, g, map[string][]byte{copied: []byte(gitAINote(copied, "ours")), bare: []byte(gitAINote(bare, "ours"))})
	if err != nil || n != 1 {
		t.Fatalf("wrote %d, %v; want 1", n, err)
	}
	r, _ := gitx.Discover(dir, os.Getenv)
	ws, _, err := NewReader(r, g, Refs(ctx, g)).ReadWriters(ctx, []string{copied, bare}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if w := ws[copied]; len(w) == 0 || w[0].Model != "teammate-model" {
		t.Errorf("the teammate's note: %+v", w)
	}
	if w := ws[bare]; len(w) == 0 || w[0].Model != "ours" {
		t.Errorf("the note written: %+v", w)
	}
}
