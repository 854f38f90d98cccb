package odb

import (
	"bytes"
	"sort"
	"testing"
)

// TestSearchNames: the first name not below the key, as sort.Search with
// bytes.Compare finds it, among names that share their first 8 bytes (the
// number compared first) and names that do not.
func TestSearchNames(t *testing.T) {
	name := func(prefix uint64, rest byte) []byte {
		b := make([]byte, 20)
		for i := range 8 {
			b[i] = byte(prefix >> (56 - 8*i))
		}
		b[19] = rest
		return b
	}
	var names []byte
	for _, n := range [][]byte{name(1, 0), name(5, 1), name(5, 3), name(5, 7), name(9, 0), name(1<<63, 2)} {
		names = append(names, n...)
	}
	count := len(names) / 20
	for _, key := range [][]byte{name(0, 0), name(1, 0), name(5, 0), name(5, 3), name(5, 4), name(5, 8), name(7, 0), name(1<<63, 2), name(1<<63, 3)} {
		want := sort.Search(count, func(i int) bool { return bytes.Compare(names[i*20:i*20+20], key) >= 0 })
		if got := SearchNames(names, 0, count, key); got != want {
			t.Errorf("%x: %d, want %d", key, got, want)
		}
		if got := SearchNames(names, 2, 4, key); got != max(2, min(want, 4)) {
			t.Errorf("%x in 2..4: %d, want %d", key, got, max(2, min(want, 4)))
		}
	}
}
