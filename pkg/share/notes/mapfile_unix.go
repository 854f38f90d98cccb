//go:build unix

package notes

import (
	"errors"
	"os"
	"syscall"
)

// mapFile maps the file at path read-only: its pages are read as they are
// touched. unmap lets them go. The files mapped are replaced by rename,
// never written in place.
func mapFile(path string) (b []byte, unmap func() error, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if fi.Size() <= 0 || fi.Size() > 1<<31 || !fi.Mode().IsRegular() {
		return nil, nil, errors.New(path + ": empty, too large or not a file")
	}
	b, err = syscall.Mmap(int(f.Fd()), 0, int(fi.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return b, func() error { return syscall.Munmap(b) }, nil
}
