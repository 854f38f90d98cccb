//go:build windows

package odb

import (
	"os"
	"syscall"
	"unsafe"
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
	size := fi.Size()
	if size <= 0 || size != int64(int(size)) {
		return nil, nil, ErrBadPack
	}
	h, err := syscall.CreateFileMapping(syscall.Handle(f.Fd()), nil, syscall.PAGE_READONLY, uint32(size>>32), uint32(size), nil)
	if err != nil {
		return nil, nil, err
	}
	defer syscall.CloseHandle(h) // the view holds the mapping
	addr, err := syscall.MapViewOfFile(h, syscall.FILE_MAP_READ, 0, 0, uintptr(size))
	if err != nil {
		return nil, nil, err
	}
	// The view lies outside Go's heap: its address as a pointer.
	data = unsafe.Slice((*byte)(unsafe.Add(nil, addr)), int(size))
	return data, func() { _ = syscall.UnmapViewOfFile(addr) }, nil
}
