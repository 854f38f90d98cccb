package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "hook")
	os.WriteFile(p, []byte("old"), 0o755)
	if err := Write(p, []byte("new"), 0o750); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	fi, _ := os.Stat(p)
	if string(b) != "new" || fi.Mode().Perm() != 0o750 {
		t.Errorf("%q %v", b, fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
	if err := Write(filepath.Join(dir, "missing", "x"), []byte("x"), 0o600); err == nil {
		t.Error("writing into a missing directory should fail")
	}
}
