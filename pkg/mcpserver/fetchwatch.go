package mcpserver

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/git-convo/git-convo/pkg/fetchwatch"
)

// afterFetch makes drain, which runs before every tool call, also run when
// a plain git fetch happened in the repository at dir since the last
// command (git runs no hook on fetch): `git convo record --hook=drain` then
// recognises the squash merges the fetch brought, as a read command does
// before it answers. With no new fetch this costs a stat of FETCH_HEAD and
// a read of a small stamp.
func afterFetch(dir string, drain func(context.Context)) func(context.Context) {
	return func(ctx context.Context) {
		if common, ok := fetchwatch.Locate(dir, os.Getenv); ok && fetchwatch.Due(common) {
			_ = convoCommand(ctx, dir, "record", "--hook=drain").Run() // errors go to git-convo's log
			return
		}
		drain(ctx)
	}
}

// convoCommand runs git-convo (the one beside this binary, else PATH's) in
// dir ("": here), synchronously: the answer waits for it.
func convoCommand(ctx context.Context, dir string, args ...string) *exec.Cmd {
	bin := "git-convo"
	if exe, err := os.Executable(); err == nil {
		if p := filepath.Join(filepath.Dir(exe), "git-convo"); fileExists(p) {
			bin = p
		}
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONVO_SYNC=1")
	return cmd
}
