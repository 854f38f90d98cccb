package gitx

import (
	"context"
	"path/filepath"
	"testing"
)

func TestWorktrees(t *testing.T) {
	r := newTestRepo(t)
	r.git("commit", "-q", "--allow-empty", "-m", "x")
	linked := filepath.Join(t.TempDir(), "linked tree")
	r.git("worktree", "add", "-q", "-b", "side", linked)
	for _, from := range []string{r.dir, linked} {
		repo, err := Open(context.Background(), from, false)
		if err != nil {
			t.Fatal(err)
		}
		got, err := repo.Worktrees(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || !samePath(got[0], r.dir) || !samePath(got[1], linked) {
			t.Errorf("from %s: %v", from, got)
		}
	}
}

func samePath(a, b string) bool {
	ra, _ := filepath.EvalSymlinks(a)
	rb, _ := filepath.EvalSymlinks(b)
	return ra == rb
}
