package store

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mattn/go-sqlite3"
)

// roMountEnv names, for TestOpenReadOnlyMountChild, the directory that
// TestOpenReadOnlyMount made a read-only mount of.
const roMountEnv = "GIT_CONVO_TEST_RO_MOUNT_DB"

// TestOpenReadOnlyMount: a links.sqlite on a read-only mount (a container's
// bind mount) is read where SQLite can (its -wal and -shm files there, as
// git-convo leaves them, and its schema current); where it cannot (no
// -shm to read through, or a schema to bring up to date), the error names
// the file and the likely cause, and keeps SQLite's for callers that tell
// causes apart. Root can write whatever its modes say, so the mount is made
// read-only in a mount namespace of the test's own (unshare), where the
// child test opens the files.
func TestOpenReadOnlyMount(t *testing.T) {
	if os.Getenv(roMountEnv) != "" {
		t.Skip("the child's run")
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil || os.Geteuid() != 0 {
		t.Skip("needs root and unshare(1) to make a read-only mount")
	}
	if out, err := exec.Command(unshare, "-m", "true").CombinedOutput(); err != nil {
		t.Skipf("no mount namespace here: %v %s", err, out)
	}
	dir := t.TempDir()
	s, err := Open(context.Background(), filepath.Join(dir, "current.sqlite"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close() // its -wal and -shm stay (nockpt.go)
	// A WAL database with no -shm beside it: copied alone, or closed by
	// SQLite itself, which then removes both files.
	bare := filepath.Join(dir, "bare.sqlite")
	if s, err = Open(context.Background(), bare, Options{}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	db, err := sql.Open("sqlite3", "file:"+bare)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	for _, f := range []string{bare + "-wal", bare + "-shm"} {
		os.Remove(f)
	}
	os.Rename(atVersion(t, 8), filepath.Join(dir, "old.sqlite"))
	script := `mount --bind "$1" "$1" && mount -o remount,ro,bind "$1" "$1" || exit 3; shift; exec "$@"`
	cmd := exec.Command(unshare, "-m", "sh", "-c", script, "sh", dir, os.Args[0], "-test.run=^TestOpenReadOnlyMountChild$", "-test.v")
	cmd.Env = append(os.Environ(), roMountEnv+"="+dir)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 3 {
		t.Skipf("no read-only mount here: %s", out)
	}
	if err != nil || !strings.Contains(string(out), "--- PASS: TestOpenReadOnlyMountChild") {
		t.Fatalf("child: %v\n%s", err, out)
	}
}

// TestOpenReadOnlyMountChild is TestOpenReadOnlyMount's other half.
func TestOpenReadOnlyMountChild(t *testing.T) {
	dir := os.Getenv(roMountEnv)
	if dir == "" {
		t.Skip("run by TestOpenReadOnlyMount")
	}
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(dir, "current.sqlite"), Options{MustExist: true})
	if err != nil {
		t.Fatalf("current schema, its -wal and -shm beside it: %v", err)
	}
	if _, err := s.HasLinks(ctx); err != nil {
		t.Errorf("reading it: %v", err)
	}
	s.Close()
	for _, name := range []string{"bare.sqlite", "old.sqlite"} {
		path := filepath.Join(dir, name)
		s, err := Open(ctx, path, Options{MustExist: true})
		if err == nil {
			s.Close()
			t.Errorf("%s opened on a read-only mount", name)
			continue
		}
		var se sqlite3.Error
		if msg := err.Error(); !strings.Contains(msg, path+" cannot be opened for writing") ||
			!strings.Contains(msg, "read-only mount") || !strings.Contains(msg, "git convo doctor") || !errors.As(err, &se) {
			t.Errorf("%s: %v", name, err)
		}
	}
}
