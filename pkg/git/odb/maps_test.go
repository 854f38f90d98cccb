package odb

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

func TestMapsShare(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	write := func(s string) {
		t.Helper()
		tmp := path + ".tmp"
		if err := os.WriteFile(tmp, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, path); err != nil { // a new file, as git writes one
			t.Fatal(err)
		}
	}
	write("first")
	var m Maps
	a, releaseA, err := m.mapFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b, releaseB, err := m.mapFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if &a[0] != &b[0] {
		t.Fatal("two readers of one file hold two mappings")
	}
	releaseA()
	releaseA() // a second call lets nothing more go
	if string(b) != "first" || m.files[path] == nil {
		t.Fatalf("after one release: %q, shared %v", b, m.files[path] != nil)
	}
	write("second, longer")
	c, releaseC, err := m.mapFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(c) != "second, longer" || string(b) != "first" {
		t.Fatalf("a file replaced: new reader %q, old %q", c, b)
	}
	releaseB()
	if f := m.files[path]; f == nil || string(f.data) != "second, longer" {
		t.Fatal("the old file's last release dropped the new one's mapping")
	}
	releaseC()
	if len(m.files) != 0 {
		t.Fatalf("after the last release %d files stay mapped", len(m.files))
	}

	var none *Maps // each reader maps its own
	d, releaseD, err := none.mapFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer releaseD()
	e, releaseE, err := none.mapFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer releaseE()
	if string(d) != string(e) || &d[0] == &e[0] {
		t.Fatal("a nil Maps shared a mapping")
	}
	if _, _, err := m.mapFile(filepath.Join(dir, "missing")); err == nil {
		t.Fatal("a missing file mapped")
	}
}

// TestStoreSharesIndexWithNames: a store opened through a Maps and the
// abbreviations' names of its pack index (MapIndexNames) read one mapping.
func TestStoreSharesIndexWithNames(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"commit", "-q", "--allow-empty", "-m", "one"}, {"repack", "-adq"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_AUTHOR_NAME=A",
			"GIT_AUTHOR_EMAIL=a@b", "GIT_COMMITTER_NAME=C", "GIT_COMMITTER_EMAIL=c@d")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	idxs, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.idx"))
	if len(idxs) != 1 {
		t.Fatalf("%d pack indexes", len(idxs))
	}
	var m Maps
	st := OpenShared(filepath.Join(dir, ".git"), &m)
	if _, _, err := st.Object(plumbing.ZeroHash); err == nil {
		t.Fatal("the zero hash read")
	}
	names, _, release, ok := MapIndexNames(&m, idxs[0])
	if !ok {
		t.Fatal("the index's names not read")
	}
	if f := m.files[idxs[0]]; f == nil || f.refs != 2 || &names[0] != &f.data[idxNames] {
		t.Fatal("the store and the names map the index apart")
	}
	st.Close()
	if string(names[:20]) == "" || m.files[idxs[0]] == nil {
		t.Fatal("the store's closing let the names' mapping go")
	}
	release()
	if len(m.files) != 0 {
		t.Fatal("the index stays mapped after its readers let go")
	}
}
