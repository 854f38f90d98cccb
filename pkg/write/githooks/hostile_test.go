//go:build !windows

package githooks

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/git-convo/git-convo/hooks/templates"
	"github.com/git-convo/git-convo/pkg/write/queue"
)

// TestHostileCommitHookNeverBlocksOnASpecialQueue (issue 28, item 11): a FIFO
// where the queue goes blocked git commit in the hook's append; a link
// there sent the record anywhere. The block appends to a regular file (or
// creates one) only, and returns at once.
func TestHostileCommitHookNeverBlocksOnASpecialQueue(t *testing.T) {
	for _, kind := range []string{"fifo", "link"} {
		for _, hook := range []string{"post-commit", "post-merge"} {
			t.Run(kind+"/"+hook, func(t *testing.T) {
				dir := t.TempDir()
				q := filepath.Join(dir, queue.FileName)
				target := filepath.Join(dir, "target")
				var err error
				if kind == "fifo" {
					err = syscall.Mkfifo(q, 0o600)
				} else {
					os.WriteFile(target, nil, 0o600)
					err = os.Symlink(target, q)
				}
				if err != nil {
					t.Skip(err)
				}
				block, _ := templates.Render(hook, filepath.Join(dir, "no-git-convo"), q)
				path := filepath.Join(dir, hook)
				if _, err := InstallFile(path, block); err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				cmd := exec.CommandContext(ctx, path, "0")
				cmd.Dir = dir
				cmd.Env = []string{"PATH=/usr/bin:/bin"}
				out, err := cmd.CombinedOutput()
				if ctx.Err() != nil {
					t.Fatal("the hook blocked")
				}
				if err != nil || len(out) > 0 {
					t.Errorf("hook: %v %q", err, out)
				}
				if b, _ := os.ReadFile(target); len(b) > 0 {
					t.Errorf("the record went through the link: %q", b)
				}
			})
		}
	}
}
