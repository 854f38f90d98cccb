//go:build unix

package odb

import "syscall"

// mapFile maps a file read-only: only the pages a lookup touches are read,
// with no system call per read. unmap releases it.
func mapFile(path string) (data []byte, unmap func(), err error) {
	f, size, err := openSized(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	data, err = syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return data, func() { _ = syscall.Munmap(data) }, nil
}

// mapPack maps a pack file (mapFile).
func mapPack(path string) ([]byte, func(), error) { return mapFile(path) }
