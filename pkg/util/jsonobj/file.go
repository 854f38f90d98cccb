package jsonobj

import (
	"bytes"
	"os"
	"strconv"

	"github.com/git-convo/git-convo/pkg/util/atomicfile"
)

// File is a settings file another program owns (Cursor's hooks.json and
// mcp.json, Claude Code's settings.json), read to merge into and written
// back only when its content changes.
type File struct {
	Path     string
	Existing []byte  // the bytes read; nil when there was no file
	Top      *Object // its object; empty for a missing or blank file
}

// ReadFile reads the JSON object file at path. Content that is not one JSON
// object is not an I/O error: malformed turns what is wrong with it into the
// caller's error (which says the file is left untouched).
func ReadFile(path string, malformed func(what string) error) (*File, error) {
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	f := &File{Path: path, Top: New()}
	if err == nil {
		f.Existing = b
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return f, nil
	}
	if f.Top, err = Parse(b); err != nil {
		return nil, malformed(err.Error())
	}
	return f, nil
}

// Child returns the object under key (an empty one when key is absent); a
// value that is not an object goes through malformed, as in ReadFile.
func (o *Object) Child(key string, malformed func(what string) error) (*Object, error) {
	raw, ok := o.Get(key)
	if !ok {
		return New(), nil
	}
	c, err := Parse(raw)
	if err != nil {
		return nil, malformed(strconv.Quote(key) + " is not an object")
	}
	return c, nil
}

// Save writes Top indented, atomically (temp file and rename, the file's
// mode kept), unless the content is unchanged: the same bytes, or the same
// JSON in the user's own formatting, which is left alone. before (when not
// nil) gets the new bytes first, to keep a backup. It returns created,
// updated or unchanged.
func (f *File) Save(before func(out []byte) error) (string, error) {
	out := f.Top.Indent()
	if f.Existing != nil && (bytes.Equal(f.Existing, out) || SameJSON(f.Existing, out)) {
		return "unchanged", nil
	}
	if before != nil {
		if err := before(out); err != nil {
			return "", err
		}
	}
	if err := atomicfile.Replace(f.Path, out); err != nil {
		return "", err
	}
	if f.Existing == nil {
		return "created", nil
	}
	return "updated", nil
}
