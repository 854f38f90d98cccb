// Package atomicfile replaces files whole: a reader (git running a hook,
// Cursor reading hooks.json) sees the old content or the new, never half.
package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
)

// Write replaces path with data via a temporary file in the same directory
// and a rename, giving the file mode.
func Write(path string, data []byte, mode os.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	if err := errors.Join(werr, f.Chmod(mode), f.Close()); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
