package odb

import "os"

// openSized opens a file to map and returns its size: ErrBadPack for an
// empty one or one too large to address.
func openSized(path string) (*os.File, int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	if fi.Size() <= 0 || fi.Size() != int64(int(fi.Size())) {
		f.Close()
		return nil, 0, ErrBadPack
	}
	return f, int(fi.Size()), nil
}
