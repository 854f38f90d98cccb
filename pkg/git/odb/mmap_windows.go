//go:build windows

package odb

import (
	"syscall"
	"unsafe"
)

// mapFile maps a file read-only: only the pages a lookup touches are read,
// with no system call per read. unmap releases it.
func mapFile(path string) (data []byte, unmap func(), err error) {
	f, size, err := openSized(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	h, err := syscall.CreateFileMapping(syscall.Handle(f.Fd()), nil, syscall.PAGE_READONLY,
		uint32(uint64(size)>>32), uint32(size), nil)
	if err != nil {
		return nil, nil, err
	}
	defer syscall.CloseHandle(h) // the view holds the mapping
	addr, err := syscall.MapViewOfFile(h, syscall.FILE_MAP_READ, 0, 0, uintptr(size))
	if err != nil {
		return nil, nil, err
	}
	// The view lies outside Go's heap: its address as a pointer.
	data = unsafe.Slice((*byte)(unsafe.Add(nil, addr)), size)
	return data, func() { _ = syscall.UnmapViewOfFile(addr) }, nil
}

// mapPack maps a pack file (mapFile).
func mapPack(path string) ([]byte, func(), error) { return mapFile(path) }
