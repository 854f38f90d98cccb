package queue

import (
	"os"
	"path/filepath"
	"time"
)

// KeptFor is how long until the next drain may remove every claimed file a
// drain kept for a late hook's append (0: none is kept). Uninstall waits
// that long and drains again, so nothing of the queue's is left behind for
// a drain that may never come.
func KeptFor(dir string) time.Duration {
	held, _ := filepath.Glob(filepath.Join(dir, FileName+".*"))
	var wait time.Duration
	for _, f := range held {
		if appliedBytes(f) < 0 {
			continue
		}
		if fi, err := os.Stat(f); err == nil {
			wait = max(wait, lateWriteGrace-time.Since(fi.ModTime()))
		}
	}
	return max(wait, 0)
}
