//go:build !unix

package notes

import "os"

// mapFile reads the file at path whole where no mapping is made here.
func mapFile(path string) (b []byte, unmap func() error, err error) {
	b, err = os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	return b, func() error { return nil }, nil
}
