package mcpserver

import (
	"context"
	"fmt"
	"github.com/git-convo/git-convo/pkg/agents"
	"os"
	"runtime"
	"time"

	"github.com/git-convo/git-convo/pkg/queue"
	"github.com/git-convo/git-convo/pkg/repokey"
	"github.com/git-convo/git-convo/pkg/spool"
	"github.com/git-convo/git-convo/pkg/store"
)

// drainer records the agents' spooled events and the queued commits before
// a tool answers. The recorder lives in git-convo, so it runs `git convo
// record --hook=drain` and waits, only when the spool or the queue holds
// something (two stats otherwise).
func drainer(dbPath string) func(context.Context) {
	dir, spooled := queue.Dir(dbPath), spool.Dir(dbPath)
	return func(ctx context.Context) {
		if !spool.Waiting(spooled) && !queue.Pending(dir) {
			return
		}
		_ = convoCommand(ctx, "", "record", "--hook=drain").Run() // a failed drain keeps the queue; the answer goes on
	}
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}

// Main runs the server on stdin/stdout for the repository in the current
// directory and returns the process exit code. It is the git-convo-mcp
// binary's whole job; `git convo mcp` starts that binary, so the MCP SDK is
// not linked into (nor initialised by) every git-convo hook process.
func Main(version string, reg *agents.Registry) int {
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
	server := New(&Deps{Store: s, Dir: dir, Getenv: os.Getenv, Agents: reg, Now: time.Now, Version: version, Drain: afterFetch(dir, drainer(path))})
	if err := server.Run(ctx, guardedTransport(os.Stdin, os.Stdout)); err != nil && ctx.Err() == nil {
		fmt.Fprintln(os.Stderr, "git-convo mcp:", err)
		return 1
	}
	return 0
}
