package cursortest_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/git-convo/git-convo/pkg/agents/cursor"
	"github.com/git-convo/git-convo/pkg/agents/cursor/cursortest"
)

// TestSampleReadsLikeTheRealFixture: the generated database is read by the
// real reader and says what the real fixture says about the conversation.
func TestSampleReadsLikeTheRealFixture(t *testing.T) {
	path := filepath.Join(t.TempDir(), "globalStorage", "state.vscdb")
	if err := cursortest.Write(path, cursortest.Sample()); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db, err := cursor.OpenDB(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	c, err := db.Composer(ctx, cursortest.SampleID)
	if err != nil {
		t.Fatal(err)
	}
	if c.Title != cursortest.SampleTitle || c.Model != "gpt-5" || c.Status != "completed" || c.Mode != "agent" ||
		c.CreatedAt.UnixMilli() != 1759861723898 || c.UpdatedAt.UnixMilli() != 1759863763312 ||
		c.FirstUserMessage != "Give me the queries used in the cursor sqlite storage db" || len(c.EditedFiles) != 1 {
		t.Errorf("composer = %+v", c)
	}
	msgs, err := db.Messages(ctx, c)
	if err != nil || len(msgs) != len(cursortest.Sample().Messages) || msgs[1].Thinking == "" || len(msgs[2].Tools) != 1 {
		t.Errorf("messages = %+v, %v", msgs, err)
	}
	ids, err := db.ComposerIDs(ctx)
	if err != nil || len(ids) != 1 || ids[0] != cursortest.SampleID {
		t.Errorf("composer ids = %v, %v", ids, err)
	}
}

func TestTranscript(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.jsonl")
	err := cursortest.WriteTranscript(path, cursortest.TranscriptLine{User: true, Text: "hello"},
		cursortest.TranscriptLine{Text: "done", Tools: []cursortest.Tool{{Name: "Write", Input: map[string]any{"path": "a.go"}}}})
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := cursor.ReadTranscript(path)
	if err != nil || len(msgs) != 2 || msgs[0].Role != "user" || msgs[0].Text != "hello" || len(msgs[1].Tools) != 1 {
		t.Errorf("transcript = %+v, %v", msgs, err)
	}
}

func TestSharedHidden(t *testing.T) {
	t.Setenv(cursortest.NoSharedEnv, "1")
	if p, ok := cursortest.SharedPath("hook-payloads", "examples.json"); ok {
		t.Errorf("%s=1 still finds %s", cursortest.NoSharedEnv, p)
	}
	if _, ok := cursortest.SharedPath("no-such-fixture"); ok {
		t.Error("a missing fixture was found")
	}
}
