// Package agents names the coding agents git-convo reads and builds each
// one's source.Source for an environment. The CLI and the MCP server reach
// the agents through it, so both read a conversation the same way.
package agents

import (
	"path/filepath"

	"github.com/git-convo/git-convo/pkg/claude"
	"github.com/git-convo/git-convo/pkg/cursor"
	"github.com/git-convo/git-convo/pkg/source"
)

// The agents' names, as conversations.agent stores them.
const (
	Cursor = cursor.Name
	Claude = claude.Name
)

// Names lists every agent, in the order import reads them (--limit's
// budget goes to the first ones first): Cursor, then Claude Code.
func Names() []string { return []string{Cursor, Claude} }

// All returns every agent's source for an environment, in Names' order.
func All(getenv func(string) string) []source.Source {
	var out []source.Source
	for _, name := range Names() {
		out = append(out, For(name, getenv))
	}
	return out
}

// For returns the named agent's source; an empty or unknown name is Cursor,
// the agent of every conversation recorded before there were two.
func For(name string, getenv func(string) string) source.Source {
	if name == claude.Name {
		return claude.Source{Dir: claude.ConfigDir(getenv)}
	}
	return cursor.Source{Getenv: getenv}
}

// Display is the agent's name as people call it.
func Display(name string) string {
	switch name {
	case claude.Name:
		return "Claude Code"
	case cursor.Name, "":
		return "Cursor"
	}
	return name
}

// Where is where the named agent keeps its conversations (Cursor's
// database, Claude Code's projects folder), or what stops it from being
// located, said so that the user can act.
func Where(name string, getenv func(string) string) (string, error) {
	if name == claude.Name {
		return filepath.Join(claude.ConfigDir(getenv), "projects"), nil
	}
	return cursor.DefaultDBPath(getenv)
}
