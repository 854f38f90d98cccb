package agents

import (
	"path/filepath"
	"strings"
	"testing"
)

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

// TestAll: every agent named, each source answering to its name, in the
// order import reads them.
func TestAll(t *testing.T) {
	env := func(string) string { return "" }
	var got []string
	for _, src := range All(env) {
		got = append(got, src.Name())
	}
	if want := []string{Cursor, Claude}; len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("All = %v, want %v", got, want)
	}
	for _, name := range Names() {
		if For(name, env).Name() != name || Display(name) == name {
			t.Errorf("%s: For names %s, Display %s", name, For(name, env).Name(), Display(name))
		}
	}
}

func TestWhere(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want string // "": an error naming CURSOR_DB_PATH
	}{
		{Cursor, map[string]string{"CURSOR_DB_PATH": "/c/state.vscdb", "HOME": "/h"}, "/c/state.vscdb"},
		{Cursor, nil, ""},
		{Claude, map[string]string{"CLAUDE_CONFIG_DIR": "/cc", "HOME": "/h"}, "/cc/projects"},
		{Claude, map[string]string{"HOME": "/h"}, "/h/.claude/projects"},
	}
	for _, tt := range tests {
		got, err := Where(tt.name, func(k string) string { return tt.env[k] })
		if tt.want == "" {
			if err == nil || !strings.Contains(err.Error(), "CURSOR_DB_PATH") {
				t.Errorf("Where(%s, %v) = %q, %v; want an error that says what to set", tt.name, tt.env, got, err)
			}
			continue
		}
		if err != nil || got != filepath.FromSlash(tt.want) {
			t.Errorf("Where(%s, %v) = %q, %v; want %s", tt.name, tt.env, got, err, tt.want)
		}
	}
}
