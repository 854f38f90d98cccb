package prsummary

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/share/notes"
	"github.com/git-convo/git-convo/pkg/store"
)

func TestLineWords(t *testing.T) {
	t0 := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	type ed struct {
		path, added, words string
		sec                int // -1: no time
	}
	commitAt := t0.Add(time.Minute)
	for _, c := range []struct {
		name  string
		eds   []ed
		l     line
		words string
		ok    bool
	}{
		{"one edit", []ed{{"/r/a.go", "x := 1", "I add x.", 1}}, line{text: "\tx := 1", path: "a.go"}, "I add x.", true},
		{"another file", []ed{{"/r/b.go", "x := 1", "I add x.", 1}}, line{text: "x := 1", path: "a.go"}, "", false},
		{"a suffix is no path", []ed{{"/r/ba.go", "x := 1", "I add x.", 1}}, line{text: "x := 1", path: "a.go"}, "", false},
		{"another text", []ed{{"/r/a.go", "x := 2", "I add x.", 1}}, line{text: "x := 1", path: "a.go"}, "", false},
		{"same words twice", []ed{{"/r/a.go", "}", "w", 1}, {"/r/a.go", "}", "w", 2}}, line{text: "}", path: "a.go"}, "w", true},
		{"the last before the commit", []ed{{"/r/a.go", "}", "first", 1}, {"/r/a.go", "}", "second", 2}}, line{text: "}", path: "a.go"}, "second", true},
		{"an edit after the commit wrote nothing of it", []ed{{"/r/a.go", "}", "first", 1}, {"/r/a.go", "}", "later", 3600}},
			line{text: "}", path: "a.go"}, "first", true},
		{"no time to order by", []ed{{"/r/a.go", "}", "first", -1}, {"/r/a.go", "}", "second", 2}}, line{text: "}", path: "a.go"}, "", false},
		{"the same time, other words", []ed{{"/r/a.go", "}", "first", 2}, {"/r/a.go", "}", "second", 2}}, line{text: "}", path: "a.go"}, "", false},
		{"matched, nothing said", []ed{{"/r/a.go", "x := 1", "", 1}}, line{text: "x := 1", path: "a.go"}, "", true},
	} {
		eds := byText{}
		for _, e := range c.eds {
			at := time.Time{}
			if e.sec >= 0 {
				at = t0.Add(time.Duration(e.sec) * time.Second)
			}
			eds[e.added] = append(eds[e.added], edited{path: e.path, at: at, words: e.words})
		}
		words, ok := lineWords(eds, c.l, commitAt)
		if words != c.words || ok != c.ok {
			t.Errorf("%s: %q, %v; want %q, %v", c.name, words, ok, c.words, c.ok)
		}
	}
}

// TestWordsReadOnceBounded: a conversation's transcript is read once, only
// when it is local, and at most MaxTranscripts of them; a failed read says
// nothing.
func TestWordsReadOnceBounded(t *testing.T) {
	reads := map[string]int{}
	w := wordsOf{edits: map[string]byText{}, unread: map[string]bool{}, read: func(_ context.Context, conv store.Conversation) (*source.Conversation, error) {
		reads[conv.ID]++
		if conv.ID == "broken" {
			return nil, errors.New("unreadable")
		}
		return &source.Conversation{Cwd: "/repo", Edits: []source.Edit{
			{Path: "a.go", Added: "x := 1\n\ny := 2", Words: "I add x and y."},
			{Path: "a.go", Added: "x := 1", Words: "other", LinesOnly: true}, // evidence of lines, no edit
		}}, nil
	}}
	lc := func(id, src string) store.LinkedConversation {
		return store.LinkedConversation{Link: store.Link{ConversationID: id, Source: src}, Conv: store.Conversation{ID: id, Agent: "claude"}}
	}
	at := func(string) time.Time { return time.Time{} }
	lines := []line{{text: "x := 1", path: "a.go"}, {text: "y := 2", path: "a.go"}, {text: "z", path: "a.go"}}
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		if got := w.words(ctx, lc("c1", "hook"), lines, at); got != "I add x and y." {
			t.Fatalf("words %q", got)
		}
	}
	if got := w.words(ctx, lc("broken", "hook"), lines, at); got != "" {
		t.Errorf("an unreadable transcript: %q", got)
	}
	w.words(ctx, lc("broken", "hook"), lines, at)
	if got := w.words(ctx, lc("n1", notes.SourceNotes), lines, at); got != "" || reads["n1"] != 0 {
		t.Errorf("a teammate's conversation, from the notes: %q, %d reads", got, reads["n1"])
	}
	if reads["c1"] != 1 || reads["broken"] != 1 {
		t.Errorf("reads %v: want one per conversation", reads)
	}
	for i := 0; i < MaxTranscripts+5; i++ {
		w.words(ctx, lc(fmt.Sprintf("m%d", i), "hook"), lines, at)
	}
	if len(reads) != MaxTranscripts || len(w.unread) != 7 {
		t.Errorf("%d transcripts read, %d unread; want %d read", len(reads), len(w.unread), MaxTranscripts)
	}
	// A transcript file past the bytes left is not read either.
	big := filepath.Join(t.TempDir(), "big.jsonl")
	if err := os.WriteFile(big, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, MaxTranscriptBytes+1); err != nil {
		t.Fatal(err)
	}
	w = wordsOf{edits: map[string]byText{}, unread: map[string]bool{}, read: w.read}
	huge := lc("huge", "hook")
	huge.Conv.TranscriptPath = big
	if got := w.words(ctx, huge, lines, at); got != "" || reads["huge"] != 0 || !w.unread["huge"] {
		t.Errorf("a transcript over %d bytes: %q, %d reads", MaxTranscriptBytes, got, reads["huge"])
	}
	small := lc("small", "hook")
	small.Conv.TranscriptPath = filepath.Join(t.TempDir(), "small.jsonl")
	os.WriteFile(small.Conv.TranscriptPath, []byte("{}\n"), 0o600)
	if got := w.words(ctx, small, lines, at); got != "I add x and y." || w.bytes != 3 {
		t.Errorf("a small transcript: %q, %d bytes counted", got, w.bytes)
	}
}
