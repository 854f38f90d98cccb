package app

import (
	"testing"

	"github.com/git-convo/git-convo/pkg/agents/builtin"
)

// TestSpooledConversation: forget finds a spooled event's conversation by
// the agent that sent it: Cursor's conversation_id, Claude Code's
// session_id; anything else names none.
func TestSpooledConversation(t *testing.T) {
	a := New(Config{Agents: builtin.Registry()})
	tests := []struct{ name, entry, want string }{
		{"cursor", `{"event":"beforeSubmitPrompt","atMs":1,"payload":{"conversation_id":"conv-1","prompt":"p"}}`, "conv-1"},
		{"cursor, named", `{"event":"stop","agent":"cursor","atMs":1,"payload":{"conversation_id":"conv-2"}}`, "conv-2"},
		{"claude", `{"agent":"claude","atMs":1,"payload":{"session_id":"s-1","hook_event_name":"UserPromptSubmit","prompt":"p"}}`, "s-1"},
		{"a commit", `{"atMs":1,"repo":"/r","commit":"abc"}`, ""},
		{"not JSON", `{`, ""},
		{"a payload that is no object", `{"agent":"claude","payload":[1]}`, ""},
	}
	for _, tt := range tests {
		if got := a.spooledConversation([]byte(tt.entry)); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
