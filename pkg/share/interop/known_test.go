package interop

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/git-convo/git-convo/pkg/store"
)

// TestKnownBatch: a batch's sessions looked up at once name what KnownIn
// named one by one: the conversation of the same id and agent (an agent
// recorded as the default's when none), never one of another agent nor an
// unknown session; asked again, a primed session needs no query.
func TestKnownBatch(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "links.sqlite"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, a := range []store.Activity{
		{ConversationID: "sess-claude", Agent: "claude", Event: "x", AtMs: 1},
		{ConversationID: "sess-cursor", Event: "x", AtMs: 1}, // recorded with no agent: cursor
		{ConversationID: "sess-codex", Agent: "codex", Event: "x", AtMs: 1},
	} {
		if err := st.RecordActivity(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	claims := []*Claim{
		{Tool: "claude", Session: "sess-claude"},
		{Tool: "cursor", Session: "sess-cursor"},
		{Tool: "claude", Session: "sess-codex"}, // another agent's conversation
		{Tool: "claude", Session: "unknown"},
		{Tool: "", Session: "sess-claude"},
	}
	want := []string{"sess-claude", "sess-cursor", "", "", ""}
	one := KnownIn(ctx, st, "cursor")
	for i, c := range claims {
		if got := one(c.Tool, c.Session); c.Tool != "" && got != want[i] {
			t.Errorf("one by one, %s of %s: %q, want %q", c.Session, c.Tool, got, want[i])
		}
	}
	k := NewKnownBatch(ctx, st, "cursor")
	k.Prime(claims)
	st.Close() // a primed session needs no query
	for i, c := range claims {
		if c.Tool == "" {
			continue
		}
		if got := k.Known(c.Tool, c.Session); got != want[i] {
			t.Errorf("%s of %s: %q, want %q", c.Session, c.Tool, got, want[i])
		}
	}
	st2, err := store.Open(ctx, filepath.Join(t.TempDir(), "other.sqlite"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	if got := KnownIn(ctx, st2, "cursor")("claude", "sess-claude"); got != "" {
		t.Errorf("another database names %q", got)
	}
}
