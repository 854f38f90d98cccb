// Package filebackup keeps the bytes a configuration file had before
// git-convo first changed it (Claude Code's settings.json, Cursor's
// hooks.json), so that uninstalling can give the file back byte for byte
// when nothing else changed it since. The copies live in git-convo's data
// directory, never beside the file (a project's .cursor/ or .claude/ is in
// its work tree).
package filebackup

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/git-convo/git-convo/pkg/util/atomicfile"
)

// Kept is what Save keeps of one file.
type Kept struct {
	Path     string `json:"path"`
	Existed  bool   `json:"existed"`
	Original []byte `json:"original"`
	Written  string `json:"written"` // sha256 of what git-convo last wrote
}

// Unchanged reports whether cur is exactly what git-convo last wrote.
func (k Kept) Unchanged(cur []byte) bool { return k.Written == digest(cur) }

// file names the copy of path, by kind ("claude-settings", "cursor-hooks")
// and a hash of the absolute path.
func file(dir, kind, path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	return filepath.Join(dir, kind+"-"+digest([]byte(abs))[:16]+".json")
}

func digest(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// Save records that git-convo is about to write written over existing (nil:
// the file does not exist). The bytes from before git-convo first touched
// the file are kept; a later install only updates what it wrote, so the
// original survives. dir "" keeps nothing.
func Save(dir, kind, path string, existing, written []byte) error {
	if dir == "" {
		return nil
	}
	k, ok := Load(dir, kind, path)
	if !ok || !k.Unchanged(existing) {
		// No copy, or the file changed since our last write: what is
		// there now is the user's, and the state to come back to.
		k = Kept{Path: path, Existed: existing != nil, Original: existing}
	}
	k.Written = digest(written)
	data, _ := json.Marshal(k)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	return atomicfile.Write(file(dir, kind, path), data, 0o600)
}

// Load returns the copy kept for path.
func Load(dir, kind, path string) (Kept, bool) {
	var k Kept
	if dir == "" {
		return k, false
	}
	data, err := os.ReadFile(file(dir, kind, path))
	if err != nil || json.Unmarshal(data, &k) != nil {
		return k, false
	}
	return k, true
}

// Drop removes the copy kept for path.
func Drop(dir, kind, path string) {
	if dir != "" {
		os.Remove(file(dir, kind, path))
	}
}

// Restore gives the file at path back the bytes it had before git-convo
// first changed it, when cur (its bytes now) is exactly what git-convo last
// wrote; a file git-convo created is removed. It reports what it did ("":
// nothing, the caller removes only its own entries). The copy is dropped
// either way: it no longer describes the file.
func Restore(dir, kind, path string, cur []byte) (string, error) {
	k, ok := Load(dir, kind, path)
	if !ok {
		return "", nil
	}
	defer Drop(dir, kind, path)
	if !k.Unchanged(cur) {
		return "", nil
	}
	if !k.Existed {
		if err := os.Remove(path); err != nil {
			return "", err
		}
		return "removed (git-convo had created the file)", nil
	}
	if err := atomicfile.Replace(path, k.Original); err != nil {
		return "", err
	}
	return "restored (byte for byte)", nil
}
