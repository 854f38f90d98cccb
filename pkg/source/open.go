package source

import (
	"fmt"
	"os"
	"syscall"
)

// OpenRegular opens an agent's file (a transcript named by a hook payload)
// for reading when it is a regular file of at most max bytes: a FIFO or a
// device would block or never end. O_NONBLOCK keeps the open itself from
// waiting on a FIFO's writer, and the check is made on the opened file, so
// a swap between a check and the open cannot slip one through.
func OpenRegular(path string, max int64) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	switch {
	case err != nil:
	case !fi.Mode().IsRegular():
		err = fmt.Errorf("%s is not a regular file", path)
	case fi.Size() > max:
		err = fmt.Errorf("%s is too large (%d bytes; the limit is %d)", path, fi.Size(), max)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
