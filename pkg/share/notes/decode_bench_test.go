package notes

import (
	"fmt"
	"github.com/git-convo/git-convo/pkg/share/trace"
	"testing"
)

func BenchmarkDecodeLinked1000(b *testing.B) {
	var notes [][]byte
	for i := range 1000 {
		h := fmt.Sprintf("%040d", i)
		notes = append(notes, Encode([]trace.Record{*record(h, "a@x", "c1")}))
	}
	b.ResetTimer()
	for range b.N {
		for i, n := range notes {
			r, _ := Combine(Decode(n))
			_ = Linked(fmt.Sprint(i), r)
		}
	}
}
