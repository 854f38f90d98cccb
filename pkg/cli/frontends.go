package cli

// The CLI's work for the other front ends (the MCP server), in process:
// their composition root (cmd/git-convo-mcp) wires these in, so no front
// end runs a git-convo child to get it done. (The application layer of
// issue 23 would own this; until then it is assembled here, from Env.)

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-convo/git-convo/pkg/agents"
	"github.com/git-convo/git-convo/pkg/hookrun"
	"github.com/git-convo/git-convo/pkg/store"
)

// InProcessEnv is the environment another front end runs the CLI's work
// in: the process's, with the agents given, nothing read from stdin or
// written to stdout or stderr (the MCP server's stdout is its transport;
// problems go to the log), everything in the foreground (GIT_CONVO_SYNC=1:
// the answer waits for it, and no detached git-convo is started), and
// git-convo beside this binary as the executable.
func InProcessEnv(reg *agents.Registry) *Env {
	env := SystemEnv()
	env.Agents = reg
	env.Stdin, env.Stdout, env.Stderr = strings.NewReader(""), io.Discard, io.Discard
	env.StdoutTTY, env.StderrTTY = false, false
	getenv := env.Getenv
	env.Getenv = func(k string) string {
		if k == "GIT_CONVO_SYNC" {
			return "1"
		}
		return getenv(k)
	}
	env.LookupEnv = nil
	env.Executable = "git-convo" // never this binary: it is not git-convo
	if exe, err := os.Executable(); err == nil {
		if p := filepath.Join(filepath.Dir(exe), "git-convo"); fileExists(p) {
			env.Executable = p
		}
	}
	return env
}

// ReadDrain is the work a read does first (the spooled events, the queued
// commits, the squash merges a plain git fetch brought), as `git convo
// record --hook=drain` does it.
func ReadDrain(env *Env) func(context.Context) {
	return func(ctx context.Context) { beforeRead(ctx, env, hookrun.BackgroundDrainWait) }
}

// ManualLinked is what a manual link does beyond the link itself, as `git
// convo link` does it (afterManualLink).
func ManualLinked(env *Env) func(ctx context.Context, s *store.Store, dir, convID, hash string) {
	return func(ctx context.Context, s *store.Store, dir, convID, hash string) {
		afterManualLink(ctx, env, s, dir, convID, hash)
	}
}
