package source

import (
	"strings"
	"testing"
	"time"
)

func TestRenderMarkdown(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	msgs := []Message{
		{Role: "user", Text: "do it", CreatedAt: at},
		{Role: "assistant", Thinking: "how\nto", Text: "ok", Tools: []ToolCall{{Name: "Task", Params: `{"p":1}`, Result: "r```x", Status: "completed"}}},
		{Role: "assistant", Text: "sub says hi", Subagent: "a1"},
	}
	tests := []struct {
		name    string
		meta    Meta
		want    []string
		notWant []string
	}{
		{"the default agent stays as it was", Meta{ID: "c1", Title: "T", Agent: "cursor", DefaultAgent: true, Model: "gpt-5", Summary: "S"},
			[]string{"# Conversation: T\n", "| ID | c1 |\n| Created |", "## Message 1 (User) — 2026-01-02T03:04:05Z", "> **Thinking:** how\n> to", "````\nr```x\n````", "## Message 3 (Assistant, subagent a1)"},
			[]string{"| Agent |", "| Model |", "**Summary:**"}},
		{"claude names itself", Meta{ID: "k1", Agent: "claude", Model: "claude-opus-4-6", Summary: "S"},
			[]string{"# Conversation: (untitled)", "| Agent | claude |\n| Model | claude-opus-4-6 |", "**Summary:** S"}, nil},
	}
	for _, tt := range tests {
		var b strings.Builder
		st, err := RenderMarkdown(&b, tt.meta, msgs)
		if err != nil || st.Messages != 3 {
			t.Fatalf("%s: %v %+v", tt.name, err, st)
		}
		for _, w := range tt.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: lacks %q:\n%s", tt.name, w, b.String())
			}
		}
		for _, w := range tt.notWant {
			if strings.Contains(b.String(), w) {
				t.Errorf("%s: has %q", tt.name, w)
			}
		}
	}
}
