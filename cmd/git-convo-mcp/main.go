// Command git-convo-mcp is git-convo's MCP server (`git convo mcp` runs it).
// It is a binary of its own so the MCP SDK stays out of the git-convo binary
// that every hook starts.
package main

import (
	"os"

	"github.com/git-convo/git-convo/pkg/agents/builtin"
	"github.com/git-convo/git-convo/pkg/app"
	"github.com/git-convo/git-convo/pkg/mcpserver"
)

// version matches git-convo's; scripts/release.sh and the Homebrew formula
// stamp both with -ldflags "-X main.version=...", which needs a variable.
var version = "0.1.0"

// main wires the server: the agents, and git-convo's application run in
// this process (the read drain, a manual link's effects), so the server
// starts no git-convo.
func main() {
	a := app.New(app.InProcess(builtin.Registry(), version))
	os.Exit(mcpserver.Main(version, mcpserver.Wiring{App: a}))
}
