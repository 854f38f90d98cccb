package odb

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
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

// TestSearchNamesSpread: the guess and the gallop find what a binary
// search finds, for names spread evenly (as hashes are), bunched in a few
// first-8-byte values, skewed to one end, and in any part of a range; for
// keys that are names, lie between them, or lie past either end.
func TestSearchNamesSpread(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	spreads := []struct {
		name   string
		prefix func(i, n int) uint64
	}{
		{"even", func(int, int) uint64 { return rng.Uint64() }},
		{"bunched", func(int, int) uint64 { return uint64(rng.IntN(3)) << 60 }},
		{"skewed", func(i, n int) uint64 { f := float64(i) / float64(n); return uint64(f * f * f * f * (1 << 63)) }},
		{"one first byte", func(int, int) uint64 { return 0x42<<56 | rng.Uint64()>>8 }},
	}
	for _, sp := range spreads {
		for _, n := range []int{0, 1, 2, 16, 17, 40, 1000, 5000} {
			names := make([]byte, 0, n*20)
			for i := range n {
				b := make([]byte, 20)
				binary.BigEndian.PutUint64(b, sp.prefix(i, n))
				for j := 8; j < 20; j++ {
					b[j] = byte(rng.IntN(4))
				}
				names = append(names, b...)
			}
			sortNames(names)
			var keys [][]byte
			for i := 0; i < n; i++ {
				name := names[i*20 : i*20+20]
				below, above := bytes.Clone(name), bytes.Clone(name)
				below[19]--
				above[19]++
				keys = append(keys, name, below, above)
			}
			for range 200 {
				k := make([]byte, 20)
				binary.BigEndian.PutUint64(k, sp.prefix(rng.IntN(n+1), n+1))
				keys = append(keys, k)
			}
			keys = append(keys, make([]byte, 20), bytes.Repeat([]byte{0xff}, 20))
			for _, key := range keys {
				lo, hi := 0, n
				if n > 0 && rng.IntN(2) == 0 {
					lo = rng.IntN(n)
					hi = lo + rng.IntN(n-lo+1)
				}
				want := lo + sort.Search(hi-lo, func(i int) bool { return bytes.Compare(names[(lo+i)*20:(lo+i)*20+20], key) >= 0 })
				if got := SearchNames(names, lo, hi, key); got != want {
					t.Fatalf("%s, %d names, %x in %d..%d: %d, want %d", sp.name, n, key, lo, hi, got, want)
				}
			}
		}
	}
}

// sortNames sorts 20-byte names in place.
func sortNames(names []byte) {
	n := len(names) / 20
	idx := make([][]byte, n)
	for i := range n {
		idx[i] = bytes.Clone(names[i*20 : i*20+20])
	}
	sort.Slice(idx, func(i, j int) bool { return bytes.Compare(idx[i], idx[j]) < 0 })
	for i, b := range idx {
		copy(names[i*20:], b)
	}
}

// BenchmarkSearchNames: look-ups of 1,000 names among 403,077 spread
// evenly (the 80,000-commit bench history's index), through the fan-out
// as find and abbrev search; each op takes the next 1,000 of 200,000
// names, so that few of their pages are in a cache, as in a new process.
func BenchmarkSearchNames(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 403077
	names := make([]byte, n*20)
	for i := range n {
		binary.BigEndian.PutUint64(names[i*20:], rng.Uint64())
		binary.BigEndian.PutUint64(names[i*20+8:], rng.Uint64())
	}
	sortNames(names)
	var fan [256]int
	for i := range n {
		fan[names[i*20]]++
	}
	for i := 1; i < 256; i++ {
		fan[i] += fan[i-1]
	}
	keys := make([][]byte, 200000)
	for i := range keys {
		j := rng.IntN(n)
		keys[i] = names[j*20 : j*20+20]
	}
	b.ResetTimer()
	for op := range b.N {
		at := op * 1000 % len(keys)
		for _, k := range keys[at : at+1000] {
			lo := 0
			if k[0] > 0 {
				lo = fan[k[0]-1]
			}
			SearchNames(names, lo, fan[k[0]], k)
		}
	}
}

// FuzzSearchNames: for any sorted names, a key and a range of them,
// SearchNames finds what a binary search with bytes.Compare finds.
func FuzzSearchNames(f *testing.F) {
	f.Add(bytes.Repeat([]byte{7}, 20), bytes.Repeat([]byte{1, 2, 3, 4, 5}, 100), uint16(0), uint16(30))
	f.Add(make([]byte, 20), bytes.Repeat([]byte{0xff, 0, 0x80}, 400), uint16(3), uint16(17))
	f.Fuzz(func(t *testing.T, key, data []byte, a, b uint16) {
		if len(key) != 20 {
			return
		}
		names := bytes.Clone(data[:len(data)/20*20])
		sortNames(names)
		n := len(names) / 20
		lo, hi := min(int(a), n), min(int(b), n)
		if lo > hi {
			lo, hi = hi, lo
		}
		want := lo + sort.Search(hi-lo, func(i int) bool { return bytes.Compare(names[(lo+i)*20:(lo+i)*20+20], key) >= 0 })
		if got := SearchNames(names, lo, hi, key); got != want {
			t.Fatalf("%x in %d..%d of %d names: %d, want %d", key, lo, hi, n, got, want)
		}
	})
}
