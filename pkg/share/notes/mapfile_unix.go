//go:build unix

package notes

import (
	"errors"
	"os"
	"syscall"
)

// mapFile maps the file at path read-only: its pages are read as they are
// touched. unmap lets them go. The files mapped are replaced by rename,
// never written in place. Where the file system maps nothing, the file is
// read whole.
func mapFile(path string) (b []byte, fi os.FileInfo, unmap func() error, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, nil, err
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return nil, nil, nil, err
	}
	if fi.Size() <= 0 || fi.Size() > 1<<31 || !fi.Mode().IsRegular() {
		return nil, nil, nil, errors.New(path + ": empty, too large or not a file")
	}
	b, err = syscall.Mmap(int(f.Fd()), 0, int(fi.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		b = make([]byte, fi.Size())
		if _, err := f.ReadAt(b, 0); err != nil {
			return nil, nil, nil, err
		}
		return b, fi, func() error { return nil }, nil
	}
	return b, fi, func() error { return syscall.Munmap(b) }, nil
}
