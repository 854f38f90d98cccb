package mcpserver

import (
	"context"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/git-convo/git-convo/pkg/app"
)

// Wiring is what the composition root (cmd/git-convo-mcp) gives the
// server: git-convo's application, run in process (the server starts no
// git-convo: app.InProcess).
type Wiring struct {
	App *app.App
}

// AllRepositoriesFlag, on the command line, lets the tools answer for every
// repository (Deps.AllRepositories).
const AllRepositoriesFlag = "--all-repositories"

// Main runs the server on stdin/stdout for the repository in the current
// directory and returns the process exit code. It is the git-convo-mcp
// binary's whole job; `git convo mcp` starts that binary, so the MCP SDK is
// not linked into (nor initialised by) every git-convo hook process.
func Main(version string, w Wiring) int {
	ctx := context.Background()
	a := w.App
	s, err := a.OpenStore(ctx, false)
	if err != nil {
		fmt.Fprintln(os.Stderr, "git-convo mcp:", err)
		return 1
	}
	defer s.Close()
	dir, _ := os.Getwd()
	all := slices.Contains(os.Args[1:], AllRepositoriesFlag)
	// Every tool call first runs the read drain, in this process.
	d := &Deps{App: a, Store: s, Dir: dir, Getenv: os.Getenv, Agents: a.Agents(), Now: time.Now, Version: a.Version(), AllRepositories: all,
		Drain: a.Drain(dir)}
	server := New(d)
	if err := server.Run(ctx, guardedTransport(os.Stdin, os.Stdout)); err != nil && ctx.Err() == nil {
		fmt.Fprintln(os.Stderr, "git-convo mcp:", err)
		return 1
	}
	return 0
}
