package jsonobj

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

var errBad = errors.New("bad")

func bad(what string) error { return errors.Join(errBad, errors.New(what)) }

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, content string // "-": no file
		existing      bool
		keys          int
		malformed     bool
	}{
		{"missing", "-", false, 0, false},
		{"empty", "", true, 0, false},
		{"blank", " \n\t", true, 0, false},
		{"object", `{"b":1,"a":{"x":2}}`, true, 2, false},
		{"list", `[1]`, false, 0, true},
		{"truncated", `{"a":`, false, 0, true},
		{"two objects", `{} {}`, false, 0, true},
	} {
		path := filepath.Join(dir, c.name+".json")
		if c.content != "-" {
			if err := os.WriteFile(path, []byte(c.content), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		f, err := ReadFile(path, bad)
		if c.malformed {
			if !errors.Is(err, errBad) {
				t.Errorf("%s: %v, want the caller's malformed error", c.name, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if (f.Existing != nil) != c.existing || f.Top.Len() != c.keys || f.Path != path {
			t.Errorf("%s: existing %q, %d keys, path %q", c.name, f.Existing, f.Top.Len(), f.Path)
		}
	}
	if _, err := ReadFile(dir, bad); err == nil || errors.Is(err, errBad) {
		t.Errorf("reading a directory: %v, want an I/O error", err)
	}
}

func TestChild(t *testing.T) {
	o, _ := Parse([]byte(`{"hooks":{"a":[1]},"n":3}`))
	if c, err := o.Child("hooks", bad); err != nil || string(c.Marshal()) != `{"a":[1]}` {
		t.Errorf("hooks: %v %v", c, err)
	}
	if c, err := o.Child("absent", bad); err != nil || c.Len() != 0 {
		t.Errorf("absent: %v %v", c, err)
	}
	if _, err := o.Child("n", bad); !errors.Is(err, errBad) || err.Error() != "bad\n\"n\" is not an object" {
		t.Errorf("n: %v", err)
	}
}

func TestSave(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "s.json")
	read := func() *File {
		t.Helper()
		f, err := ReadFile(path, bad)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	f := read()
	f.Top.Set("a", json.RawMessage(`1`))
	var saved []byte
	if res, err := f.Save(func(out []byte) error { saved = out; return nil }); res != "created" || err != nil {
		t.Fatalf("new file: %q %v", res, err)
	}
	want := "{\n  \"a\": 1\n}\n"
	if b, _ := os.ReadFile(path); string(b) != want || string(saved) != want {
		t.Fatalf("written %q, handed to before %q", b, saved)
	}
	if res, err := read().Save(nil); res != "unchanged" || err != nil {
		t.Errorf("same bytes: %q %v", res, err)
	}
	// The user's own formatting of the same content is left alone.
	if err := os.WriteFile(path, []byte(`{"a":1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	if res, err := read().Save(func([]byte) error { t.Error("before called for an unchanged file"); return nil }); res != "unchanged" || err != nil {
		t.Errorf("same JSON: %q %v", res, err)
	}
	if b, _ := os.ReadFile(path); string(b) != `{"a":1}` {
		t.Errorf("rewritten: %q", b)
	}
	// before failing (a backup that could not be kept) stops the write.
	f = read()
	f.Top.Set("b", json.RawMessage(`2`))
	if res, err := f.Save(func([]byte) error { return errBad }); !errors.Is(err, errBad) || res != "" {
		t.Errorf("before failed: %q %v", res, err)
	}
	if b, _ := os.ReadFile(path); string(b) != `{"a":1}` {
		t.Errorf("written although before failed: %q", b)
	}
	if res, err := f.Save(nil); res != "updated" || err != nil {
		t.Errorf("changed: %q %v", res, err)
	}
	fi, _ := os.Stat(path)
	if b, _ := os.ReadFile(path); string(b) != "{\n  \"a\": 1,\n  \"b\": 2\n}\n" || fi.Mode().Perm() != 0o640 {
		t.Errorf("updated file %q, mode %v (want 0640 kept)", b, fi.Mode().Perm())
	}
}
