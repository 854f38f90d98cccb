package mcpserver

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/git-convo/git-convo/pkg/fetchwatch"
)

// afterFetch adds to drain, which runs before every tool call, the
// recognition of squash merges a plain git fetch brought to the repository
// at dir (git runs no hook on fetch): `git convo fetch --after-fetch`, only
// when a fetch happened since (a stat of FETCH_HEAD and a read of a small
// stamp otherwise).
func afterFetch(dir string, drain func(context.Context)) func(context.Context) {
	return func(ctx context.Context) {
		drain(ctx)
		if common, ok := fetchwatch.Locate(dir, os.Getenv); ok && fetchwatch.Due(common) {
			_ = convoCommand(ctx, dir, "fetch", "--after-fetch").Run() // errors go to git-convo's log
		}
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
