//go:build unix

package odb

import (
	"os"
	"syscall"
)

// mapFile maps a file read-only: only the pages a lookup touches are read,
// with no system call per read. unmap releases it.
func mapFile(path string) (data []byte, unmap func(), err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if fi.Size() <= 0 || fi.Size() != int64(int(fi.Size())) {
		return nil, nil, ErrBadPack
	}
	data, err = syscall.Mmap(int(f.Fd()), 0, int(fi.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return data, func() { _ = syscall.Munmap(data) }, nil
}
