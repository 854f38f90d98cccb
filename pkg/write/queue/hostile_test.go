//go:build !windows

package queue

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestHostileDrainRefusesSpecialEntries (issue 28, item 11): a FIFO where the
// queue goes, or a claimed file linked to /dev/zero, never blocks a drain
// or doctor's count: each is removed unread (the link, not /dev/zero), and
// the real records are applied.
func TestHostileDrainRefusesSpecialEntries(t *testing.T) {
	for _, kind := range []string{"fifo at the queue", "fifo claimed", "link to /dev/zero", "link to a queue"} {
		t.Run(kind, func(t *testing.T) {
			dir := t.TempDir()
			q := filepath.Join(dir, FileName)
			real := filepath.Join(dir, FileName+".00000000000000000001-1.claimed")
			os.WriteFile(real, Format(Record{Hook: "post-commit", Dir: "/w"}), 0o600)
			var err error
			switch kind {
			case "fifo at the queue":
				err = syscall.Mkfifo(q, 0o600)
			case "fifo claimed":
				err = syscall.Mkfifo(q+".00000000000000000002-1.claimed", 0o600)
			case "link to /dev/zero":
				err = os.Symlink("/dev/zero", q)
			case "link to a queue":
				other := filepath.Join(t.TempDir(), "elsewhere")
				os.WriteFile(other, Format(Record{Hook: "post-commit", Dir: "/elsewhere"}), 0o600)
				err = os.Symlink(other, q)
			}
			if err != nil {
				t.Skip(err)
			}
			if !Pending(dir) {
				t.Fatal("not pending: the special entry would stay for ever")
			}
			var got []Record
			done := make(chan struct{})
			go func() {
				defer close(done)
				if n := Waiting(dir); n != 1 {
					t.Errorf("Waiting = %d, want 1", n)
				}
				n, err := Drain(dir, time.Second, func(r []Record) error { got = append(got, r...); return nil })
				if n != 1 || !errors.Is(err, ErrRefused) {
					t.Errorf("Drain = %d, %v", n, err)
				}
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("blocked on a FIFO or read /dev/zero")
			}
			if len(got) != 1 || got[0].Dir != "/w" {
				t.Errorf("applied %+v", got)
			}
			left, _ := filepath.Glob(filepath.Join(dir, FileName+"*"))
			for _, f := range left {
				if fi, err := os.Lstat(f); err == nil && !fi.Mode().IsRegular() {
					t.Errorf("left behind: %s (%v)", f, fi.Mode())
				}
			}
		})
	}
}
