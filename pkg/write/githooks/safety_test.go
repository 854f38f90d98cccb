package githooks

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/hooks/templates"
	"github.com/git-convo/git-convo/pkg/write/queue"
)

// A user's hook running under `set -e` or `set -u` goes on past git-convo's
// block whatever happens in it: the binary moved away, the queue directory
// gone, GIT_CONVO_SYNC set or not.
func TestBlockSafeUnderSetEAndSetU(t *testing.T) {
	for _, hook := range templates.Hooks() {
		for _, opt := range []string{"-e", "-u", "-eu"} {
			for _, sync := range []string{"", "1"} {
				t.Run(hook+" "+opt+" sync="+sync, func(t *testing.T) {
					dir := t.TempDir()
					marker := filepath.Join(dir, "user-ran")
					path := filepath.Join(dir, hook)
					user := "#!/bin/sh " + opt + "\necho ran > '" + marker + "'\n"
					os.WriteFile(path, []byte(user), 0o755)
					block, err := templates.Render(hook, filepath.Join(dir, "moved-away", "git-convo"), filepath.Join(dir, "gone", "commits"))
					if err != nil {
						t.Fatal(err)
					}
					if _, err := InstallFile(path, block); err != nil {
						t.Fatal(err)
					}
					cmd := exec.Command(path, "amend")
					cmd.Dir = dir
					cmd.Stdin = strings.NewReader("a b\n")
					// No git-convo on PATH either; keep sh findable.
					cmd.Env = []string{"PATH=/usr/bin:/bin", "GIT_CONVO_SYNC=" + sync}
					var stderr bytes.Buffer
					cmd.Stderr = &stderr
					if err := cmd.Run(); err != nil {
						t.Fatalf("the hook failed: %v %s", err, stderr.String())
					}
					if _, err := os.Stat(marker); err != nil {
						t.Error("the user's own lines after the block did not run")
					}
					if stderr.Len() > 0 {
						t.Errorf("the block printed to the terminal: %q", stderr.String())
					}
				})
			}
		}
	}
}

// Without GIT_CONVO_SYNC the commit hooks start no process: they append one
// record, naming the work tree, to the queue written into the block.
func TestCommitHookQueuesWithoutAProcess(t *testing.T) {
	for _, hook := range []string{"post-commit", "post-merge"} {
		t.Run(hook, func(t *testing.T) {
			dir := t.TempDir()
			wt := filepath.Join(dir, "work tree")
			os.MkdirAll(wt, 0o755)
			marker := filepath.Join(dir, "started")
			fake := filepath.Join(dir, "git-convo")
			os.WriteFile(fake, []byte("#!/bin/sh\necho \"$@\" >> '"+marker+"'\n"), 0o755)
			qdir := filepath.Join(dir, "it's queue")
			os.MkdirAll(qdir, 0o700)
			block, _ := templates.Render(hook, fake, filepath.Join(qdir, queue.FileName))
			path := filepath.Join(dir, hook)
			if _, err := InstallFile(path, block); err != nil {
				t.Fatal(err)
			}
			for range 3 {
				cmd := exec.Command(path, "0")
				cmd.Dir = wt
				cmd.Env = []string{"PATH=/usr/bin:/bin", "GIT_DIR=.git"}
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("%v %s", err, out)
				}
			}
			if _, err := os.Stat(marker); err == nil {
				t.Error("the hook started git-convo")
			}
			data, _ := os.ReadFile(filepath.Join(qdir, queue.FileName))
			recs := queue.Parse(data)
			if len(recs) != 3 {
				t.Fatalf("queued %d records, want 3: %q", len(recs), data)
			}
			want := queue.Record{Hook: hook, Dir: wt, GitDir: ".git"}
			if recs[0] != want {
				t.Errorf("record = %+v, want %+v", recs[0], want)
			}
			if st := Inspect(path); st.Queue != filepath.Join(qdir, queue.FileName) {
				t.Errorf("Inspect queue = %q", st.Queue)
			}
		})
	}
}
