package mcpserver

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-convo/git-convo/pkg/repokey"
	"github.com/git-convo/git-convo/pkg/store"
)

// Main runs the server on stdin/stdout for the repository in the current
// directory and returns the process exit code. It is the git-convo-mcp
// binary's whole job; `git convo mcp` starts that binary, so the MCP SDK is
// not linked into (nor initialised by) every git-convo hook process.
func Main(version string) int {
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
	server := New(&Deps{Store: s, Dir: dir, Getenv: os.Getenv, Now: time.Now, Version: version})
	if err := server.Run(ctx, &mcp.StdioTransport{}); err != nil && ctx.Err() == nil {
		fmt.Fprintln(os.Stderr, "git-convo mcp:", err)
		return 1
	}
	return 0
}
