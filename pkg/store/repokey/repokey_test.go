package repokey

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/store/prototypetest"
)

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_AUTHOR_NAME=A", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=A", "GIT_COMMITTER_EMAIL=a@example.com")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// repoWithWorktree is a real repository with one commit and a linked
// worktree beside it, reached also through a symbolic link.
func repoWithWorktree(t *testing.T) (main, wt, link string) {
	t.Helper()
	root := t.TempDir()
	main, wt, link = filepath.Join(root, "api"), filepath.Join(root, "api-wt"), filepath.Join(root, "via-link")
	os.MkdirAll(filepath.Join(main, "src"), 0o755)
	git(t, main, "init", "-q")
	os.WriteFile(filepath.Join(main, "src", "auth.ts"), []byte("x\n"), 0o644)
	git(t, main, "add", "-A")
	git(t, main, "commit", "-q", "-m", "a")
	git(t, main, "worktree", "add", "-q", wt)
	if err := os.Symlink(main, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	return main, wt, link
}

func TestLocate(t *testing.T) {
	main, wt, link := repoWithWorktree(t)
	key, rel, ok := Locate(filepath.Join(main, "src", "auth.ts"))
	if !ok || rel != "src/auth.ts" {
		t.Fatalf("Locate in the main work tree: %q %q %v", key, rel, ok)
	}
	for _, p := range []string{filepath.Join(wt, "src", "auth.ts"), filepath.Join(link, "src", "new.ts")} {
		if k, _, ok := Locate(p); !ok || k != key {
			t.Errorf("Locate(%s) = %q, %v; want the repository's key %q", p, k, ok, key)
		}
	}
	for _, p := range []string{main, filepath.Join(filepath.Dir(main), "elsewhere.txt")} {
		if k, rel, ok := Locate(p); ok {
			t.Errorf("Locate(%s) = %q %q: not a file in a work tree", p, k, rel)
		}
	}
	r := Resolver()
	if got := r.RepoKey(main); got != key {
		t.Errorf("RepoKey(top level) = %q, want %q", got, key)
	}
	for _, dir := range []string{filepath.Join(main, "src"), filepath.Join(filepath.Dir(main), "gone")} {
		if got := r.RepoKey(dir); got != "" {
			t.Errorf("RepoKey(%s) = %q: not a work tree's top level", dir, got)
		}
	}
}

// TestResolverAdoptsPrototype: the store refuses a prototype's database
// without a resolver; with this one it adopts it and places its files in
// the repository, under the key capture and record use.
func TestResolverAdoptsPrototype(t *testing.T) {
	ctx := context.Background()
	main, _, _ := repoWithWorktree(t)
	path := filepath.Join(t.TempDir(), "links.sqlite")
	if err := prototypetest.Write(path, prototypetest.Sample(main, "0123456789abcdef0123456789abcdef01234567", time.Now())); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Open(ctx, path, store.Options{MustExist: true}); !errors.Is(err, store.ErrPrototypeNeedsResolver) {
		t.Fatalf("without a resolver: %v", err)
	}
	s, err := store.Open(ctx, path, store.Options{MustExist: true, Resolver: Resolver()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	key, _, _ := Locate(filepath.Join(main, "src", "auth.ts"))
	convs, err := s.ConversationsForFile(ctx, key, PathKey("src/auth.ts"), 10)
	if err != nil || len(convs) == 0 {
		t.Errorf("the adopted conversations of src/auth.ts: %+v, %v", convs, err)
	}
}
