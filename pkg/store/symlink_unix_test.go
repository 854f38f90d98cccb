//go:build unix

package store

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A dangling symlink at the database path (a dotfiles manager, a data folder
// moved to another disk): the target, its -wal and -shm are still private.
func TestOpenThroughDanglingSymlinkIsPrivate(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := t.TempDir()
	for _, tt := range []struct{ name, link, target string }{
		{"absolute, missing directory", "abs.sqlite", filepath.Join(dir, "elsewhere", "disk", "links.sqlite")},
		{"relative, chained", "rel.sqlite", "hop.sqlite"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.link)
			if err := os.Symlink(tt.target, path); err != nil {
				t.Fatal(err)
			}
			final := tt.target
			if !filepath.IsAbs(final) { // hop.sqlite -> real.sqlite, dangling too
				if err := os.Symlink("real.sqlite", filepath.Join(dir, final)); err != nil {
					t.Fatal(err)
				}
				final = filepath.Join(dir, "real.sqlite")
			}
			s, err := Open(context.Background(), path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.CheckWritable(context.Background()); err != nil {
				t.Fatal(err)
			}
			for _, p := range []string{final, final + "-wal", final + "-shm"} {
				fi, err := os.Stat(p)
				if err != nil {
					t.Fatal(err)
				}
				if fi.Mode().Perm() != 0o600 {
					t.Errorf("%s mode = %v, want 0600", p, fi.Mode().Perm())
				}
			}
			s.Close()
		})
	}
}
