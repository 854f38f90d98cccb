package odb

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"runtime"
	"testing"
)

// FuzzApplyDelta: a corrupt delta is an error, never a panic or an object
// of another size than the delta says.
func FuzzApplyDelta(f *testing.F) {
	f.Add([]byte("base text"), []byte{9, 4, 0x91, 0, 4}) // copy 4 bytes from 0
	f.Add([]byte("abc"), []byte{3, 2, 2, 'x', 'y'})      // insert "xy"
	f.Add([]byte(""), []byte{0, 0})
	f.Fuzz(func(t *testing.T, base, delta []byte) {
		out, err := applyDelta(base, delta)
		if err == nil {
			_, n := binary.Uvarint(delta)
			if want, _ := binary.Uvarint(delta[n:]); uint64(len(out)) != want {
				t.Fatalf("%d bytes, delta says %d", len(out), want)
			}
		}
	})
}

// A delta whose header claims a huge result allocates by what its ops can
// yield, not by the claim: fuzzing once ran out of memory on such input.
func TestApplyDeltaDoesNotTrustItsSize(t *testing.T) {
	delta := []byte("\x01\xe6\xe6\xe6\xe6\x05\xff\xff\x05\xe60") // claims ~1.4 GB
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := applyDelta([]byte("\x01"), delta); err == nil {
		t.Fatal("a delta yielding less than it claims was applied")
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("allocated %d bytes for an 11-byte delta", grew)
	}
}

// readSized takes a stream of exactly its size with a right checksum, and
// refuses the rest after reading at most one byte past the size.
func TestReadSized(t *testing.T) {
	z := func(b []byte) []byte {
		var buf bytes.Buffer
		zw := zlib.NewWriter(&buf)
		zw.Write(b)
		zw.Close()
		return buf.Bytes()
	}
	body := []byte("tree 0000\n\nmessage\n")
	bad := z(body)
	bad[len(bad)-1] ^= 1 // the Adler-32 checksum
	for _, c := range []struct {
		name   string
		stream []byte
		size   int64
		ok     bool
	}{
		{"exact", z(body), int64(len(body)), true},
		{"empty", z(nil), 0, true},
		{"short", z(body), int64(len(body)) + 1, false},
		{"longer than its size", z(body), int64(len(body)) - 1, false},
		{"bomb", z(make([]byte, 4<<20)), 10, false},
		{"size claimed far past the data", z(body), 200 << 20, false},
		{"bad checksum", bad, int64(len(body)), false},
	} {
		zr, err := zlib.NewReader(bytes.NewReader(c.stream))
		if err != nil {
			t.Fatal(err)
		}
		got, err := readSized(zr, c.size)
		if (err == nil) != c.ok || c.ok && !bytes.Equal(got, body[:c.size]) {
			t.Errorf("%s: %q %v", c.name, got, err)
		}
	}
}
