package odb

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/format/packfile"
)

// Our delta reader against go-git's packfile.PatchDelta, and the loose
// object header read with go-git's objfile (docs/performance.md, "go-git's
// helpers"): go-git's are used where they cost no more.

// deltaPair is a base of n bytes of source-like text and a delta to a
// version with a few lines changed, as git's packs hold.
func deltaPair(n int) (base, delta []byte) {
	r := rand.New(rand.NewPCG(1, 2))
	var b bytes.Buffer
	for b.Len() < n {
		fmt.Fprintf(&b, "\tx%d := compute(%d, %q)\n", r.IntN(1000), r.IntN(1e6), "some text")
	}
	base = b.Bytes()
	target := append([]byte(nil), base...)
	for i := 0; i < 8; i++ {
		at := r.IntN(len(target) - 40)
		target = append(target[:at:at], append([]byte("\t// an edit\n"), target[at:]...)...)
	}
	return base, packfile.DiffDelta(base, target)
}

func BenchmarkApplyDelta(b *testing.B) {
	for _, n := range []int{4 << 10, 256 << 10} {
		base, delta := deltaPair(n)
		b.Run(fmt.Sprintf("ours/%dKB", n>>10), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := applyDelta(base, delta); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("go-git/%dKB", n>>10), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := packfile.PatchDelta(base, delta); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkLooseType(b *testing.B) {
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	body := bytes.Repeat([]byte("package main\n"), 300)
	fmt.Fprintf(w, "blob %d\x00", len(body))
	w.Write(body)
	w.Close()
	loose := z.Bytes()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := looseType(bytes.NewReader(loose)); err != nil {
			b.Fatal(err)
		}
	}
}
