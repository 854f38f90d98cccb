package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
)

// repairModes gives links.sqlite's -wal and -shm files back the owner's
// write permission when the database file itself has it. SQLite creates
// them with the database's mode: one hook run while links.sqlite was 0400
// leaves a 0400 -shm behind, and every later write would fail (and be
// spooled) for ever after the user made links.sqlite writable again. The
// -shm holds only an index of the -wal, and both are ours.
func repairModes(abs string) {
	fi, err := os.Stat(abs)
	if err != nil || fi.Mode().Perm()&0o200 == 0 {
		return
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		p := abs + suffix
		if si, err := os.Stat(p); err == nil && si.Mode().IsRegular() && si.Mode().Perm()&0o200 == 0 {
			_ = os.Chmod(p, 0o600)
		}
	}
}

// CheckWritable takes the write lock and lets it go: a database that opens
// and reads fine can still refuse every write (a read-only file or
// directory), and that is what sends hook events to the spool.
func (s *Store) CheckWritable(ctx context.Context) error {
	tx, err := s.db.BeginTx(ctx, nil) // BEGIN IMMEDIATE: asks for the write lock
	if err != nil {
		return classify(s.path, err)
	}
	// Some read-only cases only show on a real write: make one, then roll
	// it back.
	_, err = tx.ExecContext(ctx, `INSERT OR REPLACE INTO meta (key, value) VALUES ('writableProbe', '')`)
	tx.Rollback()
	return classify(s.path, err)
}

// WriteFix names what keeps the database at path from being written, and
// the command that fixes it: the directory (SQLite creates the -wal and
// -shm files there) or one of the files. "" when the modes look right.
func WriteFix(path string) (cause, fix string) {
	dir := filepath.Dir(path)
	if fi, err := os.Stat(dir); err == nil && fi.Mode().Perm()&0o200 == 0 {
		return fmt.Sprintf("the directory %s is read-only (SQLite creates links.sqlite-wal and -shm in it)", dir), "chmod u+w " + dir
	}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if fi, err := os.Stat(p); err == nil && fi.Mode().Perm()&0o200 == 0 {
			return p + " is read-only", "chmod u+w " + p
		}
	}
	return "", ""
}
