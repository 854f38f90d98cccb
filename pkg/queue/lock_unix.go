//go:build unix

package queue

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// lock takes the queue's drain lock, waiting up to wait for another drain.
// The kernel releases it when a drain is killed.
func lock(dir string, wait time.Duration) (func(), error) {
	f, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(wait)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { f.Close() }, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) || time.Now().After(deadline) {
			f.Close()
			return nil, ErrBusy
		}
		time.Sleep(10 * time.Millisecond)
	}
}
