// Package regfile reads the files git-convo keeps for itself (spool
// entries, the commit queue) without trusting them to be plain files: a
// FIFO there would block the reader for ever, a link to /dev/zero would
// never end, and a link could point anywhere. Only a regular file of
// bounded size is read, and no link is followed.
package regfile

import (
	"errors"
	"fmt"
	"io"
)

// ErrNotRegular: the entry is a FIFO, a device, a directory or a link.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge: the file holds more than the caller's bound.
var ErrTooLarge = errors.New("file too large")

// Read returns the content of path when it is a regular file of at most
// max bytes, opened without following a link and without waiting on a
// FIFO's writer (the checks are made on the opened file, so a swap between
// a check and the open cannot slip one through).
func Read(path string, max int64) ([]byte, error) {
	f, err := open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	switch {
	case err != nil:
		return nil, err
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("%s: %w (%s)", path, ErrNotRegular, fi.Mode().Type())
	case fi.Size() > max:
		return nil, fmt.Errorf("%s: %w (%d bytes; the limit is %d)", path, ErrTooLarge, fi.Size(), max)
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max { // it grew while read
		return nil, fmt.Errorf("%s: %w (over %d bytes)", path, ErrTooLarge, max)
	}
	return data, nil
}

// Refused reports an error of Read that waiting will not cure: the entry
// is not a regular file, or too large (it is no entry git-convo wrote).
func Refused(err error) bool {
	return errors.Is(err, ErrNotRegular) || errors.Is(err, ErrTooLarge) || isLoop(err)
}
