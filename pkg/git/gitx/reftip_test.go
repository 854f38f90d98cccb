package gitx

import (
	"os"
	"testing"
)

// TestRefTip: a full ref's tip from the ref files, loose or packed, as git
// says it; none for a ref no file names or a file git may read otherwise.
func TestRefTip(t *testing.T) {
	r := newTestRepo(t)
	r.write("f", "a")
	r.commit("c")
	r.git("notes", "--ref=ai", "add", "-m", "one", "HEAD")
	r.git("notes", "--ref=agent-trace", "add", "-m", "two", "HEAD")
	r.git("pack-refs", "--all")
	r.git("notes", "--ref=ai", "add", "-f", "-m", "one again", "HEAD") // loose, beside the packed one
	repo, ok := Discover(r.dir, os.Getenv)
	if !ok {
		t.Fatal("Discover declined a plain repository")
	}
	for _, ref := range []string{"refs/notes/ai", "refs/notes/agent-trace", "refs/heads/main"} {
		if got, ok := repo.RefTip(ref); !ok || got != r.git("rev-parse", ref) {
			t.Errorf("%s: %s %v, git says %s", ref, got, ok, r.git("rev-parse", ref))
		}
	}
	if tips, ok := repo.RefTipsFromFiles([]string{"refs/notes/agent-trace", "refs/notes/ai"}); !ok || len(tips) != 2 ||
		tips["refs/notes/ai"] != r.git("rev-parse", "refs/notes/ai") {
		t.Errorf("both notes refs: %v %v", tips, ok)
	}
	if tips, ok := repo.RefTipsFromFiles([]string{"refs/notes/ai", "refs/notes/none"}); ok {
		t.Errorf("a ref no file names among others: %v", tips)
	}
	if got, ok := repo.RefTip("refs/notes/none"); ok {
		t.Errorf("a ref no file names: %s", got)
	}
	if err := os.WriteFile(r.dir+"/.git/refs/notes/ai", []byte("ref:refs/heads/main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, ok := repo.RefTip("refs/notes/ai"); ok {
		t.Errorf("a ref file git reads otherwise: %s", got)
	}
	if got, ok := (&Repo{}).RefTip("refs/notes/ai"); ok {
		t.Errorf("a repository with no git dirs: %s", got)
	}
}
