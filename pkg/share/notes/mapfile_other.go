//go:build !unix

package notes

import "os"

// mapFile reads the file at path whole where no mapping is made here.
func mapFile(path string) (b []byte, fi os.FileInfo, unmap func() error, err error) {
	if fi, err = os.Stat(path); err != nil {
		return nil, nil, nil, err
	}
	if b, err = os.ReadFile(path); err != nil {
		return nil, nil, nil, err
	}
	return b, fi, func() error { return nil }, nil
}
