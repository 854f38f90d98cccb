package store

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"
)

// TestLogLinksAsFull: the log's lean query returns, for every commit, the
// links ConversationsForCommits returns, in its order, with the fields a
// log line prints; a titled conversation's prompt is not read.
func TestLogLinksAsFull(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	at := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC).UnixMilli()
	for i := range 6 {
		id := fmt.Sprint("c", i)
		agent := []string{"", "claude"}[i%2]
		if err := s.RecordActivity(ctx, Activity{ConversationID: id, Agent: agent, AtMs: at + int64(i), Prompt: fmt.Sprint("prompt ", i)}); err != nil {
			t.Fatal(err)
		}
		if i%3 != 0 {
			if _, err := s.db.ExecContext(ctx, `UPDATE conversations SET title = ? WHERE conversationId = ?`, fmt.Sprint("title ", i), id); err != nil {
				t.Fatal(err)
			}
		}
	}
	links := map[string][]Link{
		"aaa": {{ConversationID: "c0", Confidence: 0.5}, {ConversationID: "c1", Confidence: 0.9}, {ConversationID: "c2", Confidence: 0.5}},
		"bbb": {{ConversationID: "c3", Confidence: 0.4}, {ConversationID: "unknown", Confidence: 0.7}},
	}
	for h, ls := range links {
		if err := s.ReplaceAutoLinks(ctx, h, ls); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SetManualLink(ctx, "c4", "bbb", ""); err != nil {
		t.Fatal(err)
	}
	hashes := []string{"aaa", "bbb", "ccc"}
	full, err := s.ConversationsForCommits(ctx, hashes)
	if err != nil {
		t.Fatal(err)
	}
	lean, err := s.LogLinksForCommits(ctx, hashes)
	if err != nil {
		t.Fatal(err)
	}
	type line struct {
		id, status, title, agent, prompt string
		conf                             float64
	}
	lines := func(lcs []LinkedConversation, lean bool) []line {
		var out []line
		for _, lc := range lcs {
			l := line{lc.ConversationID, lc.Status, lc.Conv.Title, lc.Conv.Agent, lc.Conv.FirstPrompt, lc.Confidence}
			if !lean && l.title != "" {
				l.prompt = ""
			}
			out = append(out, l)
		}
		return out
	}
	if len(full) != 2 || len(lean) != len(full) {
		t.Fatalf("commits: full %d, lean %d; want 2", len(full), len(lean))
	}
	for _, h := range hashes {
		if got, want := lines(lean[h], true), lines(full[h], false); !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n lean %+v\n full %+v", h, got, want)
		}
		for _, lc := range lean[h] {
			if lc.Conv.Title != "" && lc.Conv.FirstPrompt != "" {
				t.Errorf("%s: titled conversation %s read its prompt", h, lc.ConversationID)
			}
		}
	}
}

// TestHasLinks: none in a new store; one once a commit is linked.
func TestHasLinks(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	if has, err := s.HasLinks(ctx); err != nil || has {
		t.Fatalf("empty store: %v, %v", has, err)
	}
	if err := s.ReplaceAutoLinks(ctx, "aaa", []Link{{ConversationID: "c1", Confidence: 0.5}}); err != nil {
		t.Fatal(err)
	}
	if has, err := s.HasLinks(ctx); err != nil || !has {
		t.Fatalf("one link: %v, %v", has, err)
	}
}
