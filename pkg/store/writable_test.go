package store

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteFix names the directory when it is the directory that is
// read-only (chmod u+w on the file would not help), else the file.
func TestWriteFix(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	path := filepath.Join(dir, "links.sqlite")
	s, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if cause, fix := WriteFix(path); fix != "" {
		t.Errorf("writable: %q %q", cause, fix)
	}
	os.Chmod(path, 0o400)
	if _, fix := WriteFix(path); fix != "chmod u+w "+path {
		t.Errorf("read-only file: %q", fix)
	}
	os.Chmod(path, 0o600)
	os.Chmod(dir, 0o500)
	defer os.Chmod(dir, 0o700)
	if cause, fix := WriteFix(path); fix != "chmod u+w "+dir || !strings.Contains(cause, "directory") {
		t.Errorf("read-only directory: %q %q", cause, fix)
	}
}

// TestOpenRepairsShmMode: a -shm left 0400 by a read-only spell gets its
// mode back once links.sqlite is writable.
func TestOpenRepairsShmMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "links.sqlite")
	s, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	os.WriteFile(path+"-shm", make([]byte, 32768), 0o400) // as a hook run on a 0400 links.sqlite leaves it
	os.Chmod(path+"-shm", 0o400)
	s, err = Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if fi, _ := os.Stat(path + "-shm"); fi.Mode().Perm() != 0o600 {
		t.Errorf("-shm mode %v", fi.Mode().Perm())
	}
	if err := s.CheckWritable(context.Background()); err != nil {
		t.Errorf("CheckWritable: %v", err)
	}
}
