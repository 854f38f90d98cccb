// Package builtin lists the agents git-convo ships. It is the one place an
// agent is registered: both binaries (cmd/git-convo, cmd/git-convo-mcp)
// build their registry from it, and so do tests that want the real agents.
// A new agent is one line here; nothing else outside its package changes.
package builtin

import (
	"github.com/git-convo/git-convo/pkg/agents"
	"github.com/git-convo/git-convo/pkg/agents/claude"
	"github.com/git-convo/git-convo/pkg/agents/codex"
	"github.com/git-convo/git-convo/pkg/agents/copilot"
	"github.com/git-convo/git-convo/pkg/agents/cursor"
	"github.com/git-convo/git-convo/pkg/agents/gemini"
	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/agents/vscode"
)

// Agents are the shipped agents, in the registry's order: the first is the
// default (the agent of conversations stored before there were two).
func Agents() []source.Agent {
	return []source.Agent{cursor.Agent{}, claude.Agent{}, vscode.Agent{}, codex.Agent{}, gemini.Agent{}, copilot.Agent{}}
}

// Registry is the registry of the shipped agents.
func Registry() *agents.Registry { return agents.New(Agents()...) }
