//go:build !unix && !windows

package odb

import "os"

// mapFile reads a file whole where no mmap is at hand.
func mapFile(path string) (data []byte, unmap func(), err error) {
	data, err = os.ReadFile(path)
	if err == nil && len(data) == 0 {
		err = ErrBadPack
	}
	return data, func() {}, err
}

// mapPack declines where nothing maps files: a pack, unlike an index, can
// be too large to read whole, so it is read where needed.
func mapPack(string) ([]byte, func(), error) { return nil, nil, ErrBadPack }
