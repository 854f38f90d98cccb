package odb

import (
	"bytes"
	"compress/zlib"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// zlibInflate is compress/zlib's answer: the bytes of the stream at the
// start of src, and whether it is complete and its checksum holds.
func zlibInflate(src []byte) ([]byte, bool) {
	r, err := zlib.NewReader(bytes.NewReader(src))
	if err != nil {
		return nil, false
	}
	out, err := io.ReadAll(r)
	return out, err == nil
}

func deflated(t testing.TB, data []byte, level int) []byte {
	var b bytes.Buffer
	w, err := zlib.NewWriterLevel(&b, level)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// commitObject is a commit as a log walk inflates thousands.
var commitObject = []byte("tree 0123456789abcdef0123456789abcdef01234567\nparent 89abcdef0123456789abcdef0123456789abcdef\n" +
	"author Dev 3 <dev3@example.com> 1700000000 +0200\ncommitter Dev 3 <dev3@example.com> 1700000000 +0200\n\nchange 3999: adjust computations\n")

// The inflater gives compress/zlib's bytes for streams of every block kind
// (stored, fixed, dynamic; one block or many), one after another with its
// tables reused, and refuses a stream that yields another size, or whose
// checksum is damaged.
func TestInflaterMatchesZlib(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	random := make([]byte, 3000)
	rnd.Read(random)
	inputs := [][]byte{{}, []byte("a"), commitObject, bytes.Repeat([]byte("abc"), 20000), random, bytes.Repeat(commitObject, 50)}
	var f inflater
	for i, data := range inputs {
		for _, level := range []int{zlib.NoCompression, zlib.HuffmanOnly, zlib.BestSpeed, zlib.DefaultCompression, zlib.BestCompression} {
			z := deflated(t, data, level)
			// A pack goes on after the stream: so does src.
			src := append(z[:len(z):len(z)], "trailing pack bytes"...)
			out, ok := f.inflate(src, len(data))
			if !ok || !bytes.Equal(out, data) {
				t.Fatalf("input %d, level %d: ok %v, %d bytes of %d", i, level, ok, len(out), len(data))
			}
			if _, ok := f.inflate(src, len(data)+1); ok {
				t.Errorf("input %d, level %d: taken as one byte longer", i, level)
			}
			if len(data) > 0 {
				if _, ok := f.inflate(src, len(data)-1); ok {
					t.Errorf("input %d, level %d: taken as one byte shorter", i, level)
				}
			}
			bad := bytes.Clone(src)
			bad[len(z)-1] ^= 1 // the checksum's last byte
			if _, ok := f.inflate(bad, len(data)); ok {
				t.Errorf("input %d, level %d: a wrong checksum taken", i, level)
			}
		}
	}
}

// Every object of packs git wrote (commits, trees, blobs, deltas; zlib
// levels 0, 9 and git's default) reads through the Store as git prints it.
func TestInflaterReadsGitPacks(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	run := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_AUTHOR_NAME=A",
			"GIT_AUTHOR_EMAIL=a@b", "GIT_COMMITTER_NAME=C", "GIT_COMMITTER_EMAIL=c@d")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return string(out)
	}
	run("init", "-q")
	for i := range 30 {
		body := strings.Repeat("line of text "+string(rune('a'+i%26))+"\n", 10+i*7)
		if err := os.WriteFile(filepath.Join(dir, "f"+string(rune('a'+i%5))), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		run("add", "-A")
		run("commit", "-q", "-m", "commit "+strings.Repeat("x", i)+"\n\nbody")
	}
	for _, level := range []string{"-1", "9", "0"} {
		run("-c", "pack.compression="+level, "repack", "-adfq")
		st := Open(filepath.Join(dir, ".git"))
		for _, name := range strings.Fields(run("cat-file", "--batch-all-objects", "--batch-check=%(objectname)")) {
			typ := strings.TrimSpace(run("cat-file", "-t", name))
			want := run("cat-file", typ, name)
			_, data, err := st.Object(plumbing.NewHash(name))
			if err != nil || string(data) != want {
				t.Fatalf("level %s: %s %s: %v", level, typ, name, err)
			}
		}
		st.Close()
	}
}

// FuzzInflater: whatever the inflater takes, compress/zlib takes and reads
// the same; damaged streams are refused, never a panic.
func FuzzInflater(f *testing.F) {
	for _, s := range []string{"", "a", "hello, hello, hello world", strings.Repeat("ab", 300), string(commitObject)} {
		for _, level := range []int{0, 1, 6, 9, -2} {
			f.Add(deflated(f, []byte(s), level), uint16(len(s)))
		}
	}
	f.Fuzz(func(t *testing.T, src []byte, size uint16) {
		var inf inflater
		out, ok := inf.inflate(src, int(size))
		if !ok {
			return
		}
		want, zok := zlibInflate(src)
		if !zok || !bytes.Equal(out, want) {
			t.Fatalf("inflater took %q (%d bytes); compress/zlib: ok %v, %q", out, len(out), zok, want)
		}
	})
}

// BenchmarkInflateCommit: one commit's stream by the inflater, and by
// compress/zlib as the pack reader inflated every object before.
func BenchmarkInflateCommit(b *testing.B) {
	z := deflated(b, commitObject, zlib.DefaultCompression)
	b.Run("inflater", func(b *testing.B) {
		var f inflater
		for b.Loop() {
			if _, ok := f.inflate(z, len(commitObject)); !ok {
				b.Fatal("not inflated")
			}
		}
	})
	b.Run("compress/zlib", func(b *testing.B) {
		var zr io.ReadCloser
		for b.Loop() {
			var err error
			if zr == nil {
				zr, err = zlib.NewReader(bytes.NewReader(z))
			} else {
				err = zr.(zlib.Resetter).Reset(bytes.NewReader(z), nil)
			}
			if err != nil {
				b.Fatal(err)
			}
			if out, err := readSized(zr, int64(len(commitObject))); err != nil || len(out) != len(commitObject) {
				b.Fatal(err)
			}
		}
	})
}
