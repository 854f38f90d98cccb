//go:build !windows

package regfile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// within fails the test when fn runs past a few seconds: a regression
// blocks on a FIFO or reads /dev/zero for ever, and must fail, not hang.
func within(t *testing.T, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("still running after 10 s: it blocked")
	}
}

func TestHostileRead(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain")
	os.WriteFile(plain, []byte("hello"), 0o600)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	zero := filepath.Join(dir, "zero")
	os.Symlink("/dev/zero", zero)
	link := filepath.Join(dir, "link")
	os.Symlink(plain, link)
	tests := []struct {
		path string
		max  int64
		want string
		err  error
	}{
		{plain, 5, "hello", nil},
		{plain, 4, "", ErrTooLarge},
		{fifo, 1 << 20, "", ErrNotRegular},
		{zero, 1 << 20, "", nil}, // ELOOP: Refused
		{link, 1 << 20, "", nil},
		{dir, 1 << 20, "", ErrNotRegular},
	}
	for _, tt := range tests {
		within(t, func() {
			got, err := Read(tt.path, tt.max)
			switch {
			case tt.want != "":
				if err != nil || string(got) != tt.want {
					t.Errorf("Read(%s) = %q, %v", filepath.Base(tt.path), got, err)
				}
			case err == nil || !Refused(err) || tt.err != nil && !errors.Is(err, tt.err):
				t.Errorf("Read(%s) = %d bytes, %v; want refused (%v)", filepath.Base(tt.path), len(got), err, tt.err)
			}
		})
	}
}
