//go:build !windows

package regfile

import (
	"errors"
	"os"
	"syscall"
)

// open opens path for reading: O_NOFOLLOW fails on a link (ELOOP),
// O_NONBLOCK keeps the open from waiting on a FIFO's writer.
func open(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
}

// isLoop reports the error O_NOFOLLOW gives on a link.
func isLoop(err error) bool { return errors.Is(err, syscall.ELOOP) }
