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

// Replace writes path atomically, keeping its mode (0644 for a new file)
// and creating its directory: for settings files other programs own.
func Replace(path string, data []byte) error {
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return Write(path, data, mode)
}
