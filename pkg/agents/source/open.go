package source

import (
	"bufio"
	"fmt"
	"io"
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

// ReadLines calls fn with each line of an agent's JSONL file (a session
// log), reading at most max bytes of it and skipping a line longer than
// maxLine (an attached file); the last line may be cut short, as a file
// being written leaves it. The file must be regular (OpenRegular).
func ReadLines(path string, max int64, maxLine int, fn func(line []byte)) error {
	f, err := OpenRegular(path, 1<<62) // any size: only max bytes are read
	if err != nil {
		return err
	}
	defer f.Close()
	br := bufio.NewReaderSize(io.LimitReader(f, max), 64<<10)
	for {
		var line []byte
		var err error
		for {
			var part []byte
			var isPrefix bool
			part, isPrefix, err = br.ReadLine()
			if len(line)+len(part) <= maxLine {
				line = append(line, part...)
			} else {
				line = line[:0:0]
			}
			if err != nil || !isPrefix {
				break
			}
		}
		if len(line) > 0 {
			fn(line)
		}
		if err != nil {
			return nil
		}
	}
}
