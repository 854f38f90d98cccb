package agents

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/agents/claude"
	"github.com/git-convo/git-convo/pkg/agents/cursor"
)

// shipped is the registry of the shipped agents (pkg/agents/builtin's,
// which this package's tests cannot import: it imports this package).
func shipped() *Registry { return New(cursor.Agent{}, claude.Agent{}) }

func TestFor(t *testing.T) {
	r := shipped()
	env := func(k string) string { return map[string]string{"HOME": "/h"}[k] }
	tests := []struct{ name, want, display string }{
		{"claude", "claude", "Claude Code"},
		{"cursor", "cursor", "Cursor"},
		{"", "cursor", "Cursor"},
	}
	for _, tt := range tests {
		src, err := r.For(tt.name, env)
		if err != nil || src.Name() != tt.want {
			t.Errorf("For(%q) = %v, %v; want %s", tt.name, src, err, tt.want)
		}
		if got := r.Display(tt.name); got != tt.display {
			t.Errorf("Display(%q) = %s", tt.name, got)
		}
	}
}

// TestUnknownAgent: a name no agent answers to is an error that lists the
// known ones, never another agent's source (it used to be Cursor's).
func TestUnknownAgent(t *testing.T) {
	r := shipped()
	src, err := r.For("codex", func(string) string { return "" })
	var ue *UnknownError
	if src != nil || !errors.As(err, &ue) || !strings.Contains(err.Error(), `"codex"`) || !strings.Contains(err.Error(), "cursor, claude") {
		t.Errorf("For(codex) = %v, %v; want an error listing cursor, claude", src, err)
	}
	if r.Display("codex") != "codex" {
		t.Errorf("Display(codex) = %s", r.Display("codex"))
	}
	if _, err := r.Where("codex", func(string) string { return "" }); err == nil {
		t.Error("Where(codex): no error")
	}
	var none *Registry
	if _, err := none.For("", nil); err == nil || none.Default() != "" || len(none.All(nil)) != 0 {
		t.Errorf("a nil registry: For = %v, Default %q", err, none.Default())
	}
}

// TestAll: every agent named, each source answering to its name, in the
// order import reads them; the late writers are Cursor alone.
func TestAll(t *testing.T) {
	r := shipped()
	env := func(string) string { return "" }
	var got []string
	for _, src := range r.All(env) {
		got = append(got, src.Name())
	}
	if want := []string{cursor.Name, claude.Name}; strings.Join(got, ",") != strings.Join(want, ",") || strings.Join(r.Names(), ",") != strings.Join(want, ",") {
		t.Errorf("All = %v, Names = %v, want %v", got, r.Names(), want)
	}
	for _, name := range r.Names() {
		if src, _ := r.For(name, env); src.Name() != name || r.Display(name) == name {
			t.Errorf("%s: For names %s, Display %s", name, src.Name(), r.Display(name))
		}
	}
	if lw := r.LateWriters(env); len(lw) != 1 || lw[0] != cursor.Name {
		t.Errorf("LateWriters = %v, want [cursor]", lw)
	}
}

// TestDuplicateName: two agents of one name are a wiring mistake, found at
// start-up.
func TestDuplicateName(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("New with a duplicate name did not panic")
		}
	}()
	New(cursor.Agent{}, cursor.Agent{})
}

func TestWhere(t *testing.T) {
	r := shipped()
	tests := []struct {
		name string
		env  map[string]string
		want string // "": an error naming CURSOR_DB_PATH
	}{
		{cursor.Name, map[string]string{"CURSOR_DB_PATH": "/c/state.vscdb", "HOME": "/h"}, "/c/state.vscdb"},
		{cursor.Name, nil, ""},
		{claude.Name, map[string]string{"CLAUDE_CONFIG_DIR": "/cc", "HOME": "/h"}, "/cc/projects"},
		{claude.Name, map[string]string{"HOME": "/h"}, "/h/.claude/projects"},
	}
	for _, tt := range tests {
		got, err := r.Where(tt.name, func(k string) string { return tt.env[k] })
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
