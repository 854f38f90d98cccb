package mcpserver

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"time"

	"github.com/git-convo/git-convo/pkg/agents"
	"github.com/git-convo/git-convo/pkg/queue"
	"github.com/git-convo/git-convo/pkg/repokey"
	"github.com/git-convo/git-convo/pkg/spool"
	"github.com/git-convo/git-convo/pkg/store"
)

// drainer records the agents' spooled events and the queued commits before
// a tool answers, through drain (git-convo's own, in process), only when
// the spool or the queue holds something (two stats otherwise).
func drainer(dbPath string, drain func(context.Context)) func(context.Context) {
	dir, spooled := queue.Dir(dbPath), spool.Dir(dbPath)
	return func(ctx context.Context) {
		if !spool.Waiting(spooled) && !queue.Pending(dir) {
			return
		}
		drain(ctx) // a failed drain keeps the queue; the answer goes on
	}
}

// Wiring is what the composition root (cmd/git-convo-mcp) gives the
// server: the agents, and git-convo's own work, run in process (the server
// starts no git-convo).
type Wiring struct {
	Agents *agents.Registry
	// Drain is the work a read does first (`git convo record --hook=drain`).
	Drain func(context.Context)
	// Linked is Deps.Linked.
	Linked func(ctx context.Context, s *store.Store, dir, convID, hash string)
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
	path, err := store.DefaultPath(os.Getenv, runtime.GOOS)
	if err != nil {
		fmt.Fprintln(os.Stderr, "git-convo mcp:", err)
		return 1
	}
	// The resolver lets the server, like every git-convo command, adopt a
	// database the prototype wrote instead of refusing it.
	s, err := store.Open(ctx, path, store.Options{Resolver: repokey.Resolver()})
	if err != nil {
		fmt.Fprintln(os.Stderr, "git-convo mcp:", err)
		return 1
	}
	defer s.Close()
	dir, _ := os.Getwd()
	all := slices.Contains(os.Args[1:], AllRepositoriesFlag)
	d := &Deps{Store: s, Dir: dir, Getenv: os.Getenv, Agents: w.Agents, Now: time.Now, Version: version, Linked: w.Linked, AllRepositories: all}
	if w.Drain != nil {
		d.Drain = afterFetch(dir, w.Drain, drainer(path, w.Drain))
	}
	server := New(d)
	if err := server.Run(ctx, guardedTransport(os.Stdin, os.Stdout)); err != nil && ctx.Err() == nil {
		fmt.Fprintln(os.Stderr, "git-convo mcp:", err)
		return 1
	}
	return 0
}
