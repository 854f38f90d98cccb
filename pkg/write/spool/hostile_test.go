//go:build !windows

package spool

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestHostileDrainRefusesSpecialEntries (issue 28, item 11): a FIFO in the spool
// hung every drain, and an entry linked to /dev/zero grew a process to
// 15 GB. Both are set aside unread, and the entries around them replayed.
func TestHostileDrainRefusesSpecialEntries(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "spool")
	base := time.Now()
	for i := range 3 {
		if err := Put(dir, []byte(fmt.Sprint(i)), base.Add(time.Duration(i)*time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	name := func(i int) string {
		return filepath.Join(dir, fmt.Sprintf("%020d-0-1.json", base.Add(time.Duration(i)*time.Second+1).UnixNano()))
	}
	if err := syscall.Mkfifo(name(0), 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	os.Symlink("/dev/zero", name(1))
	var got []string
	done := make(chan struct{})
	go func() {
		defer close(done)
		res, err := Drain(dir, time.Second, func(b []byte) error { got = append(got, string(b)); return nil }, func(error) bool { return false })
		if err != nil || res.Replayed != 3 || len(res.SetAside) != 2 {
			t.Errorf("drain: %+v %v", res, err)
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the drain blocked on a FIFO or read /dev/zero")
	}
	if fmt.Sprint(got) != "[0 1 2]" {
		t.Errorf("replayed %v", got)
	}
	if n, err := Remove(dir, time.Second, func([]byte) bool { return true }); err != nil || n != 0 {
		t.Errorf("Remove over the set-aside FIFO and link: %d %v", n, err)
	}
}
