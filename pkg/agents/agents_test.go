package agents

import "testing"

func TestFor(t *testing.T) {
	env := func(k string) string { return map[string]string{"HOME": "/h"}[k] }
	tests := []struct{ name, want, display string }{
		{"claude", "claude", "Claude Code"},
		{"cursor", "cursor", "Cursor"},
		{"", "cursor", "Cursor"},
		{"codex", "cursor", "codex"},
	}
	for _, tt := range tests {
		if got := For(tt.name, env).Name(); got != tt.want {
			t.Errorf("For(%q) = %s, want %s", tt.name, got, tt.want)
		}
		if got := Display(tt.name); got != tt.display {
			t.Errorf("Display(%q) = %s", tt.name, got)
		}
	}
}
