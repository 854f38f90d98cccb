package notes

import (
	"context"
	"reflect"
	"testing"

	"github.com/git-convo/git-convo/pkg/share/trace"
)

// TestUpdateInBatches: notes for more commits than one batch are written a
// batch at a time, with progress after each, and every commit gets the
// note one build of all of them gives it.
func TestUpdateInBatches(t *testing.T) {
	ctx := context.Background()
	n := updateBatch + 7
	g, hashes := repoWithCommits(t, n)
	st := benchStore(t, g, hashes)
	defer st.Close()
	s := Settings{On: true, Writer: "t@example.com"}
	var calls [][2]int
	changed, _, err := g.UpdateProgress(ctx, st, hashes, s, "test", func(done, total int) { calls = append(calls, [2]int{done, total}) })
	if err != nil || changed != n {
		t.Fatalf("%d notes, %v; want %d", changed, err, n)
	}
	if want := [][2]int{{updateBatch, n}, {n, n}}; !reflect.DeepEqual(calls, want) {
		t.Errorf("progress %v, want %v", calls, want)
	}
	if got := git(t, g, "", "rev-list", "--count", Ref); got != "2" {
		t.Errorf("%s notes commits, want one a batch (2)", got)
	}
	o, err := g.Options(ctx, s, "test")
	if err != nil {
		t.Fatal(err)
	}
	want, err := g.Build(ctx, st, hashes, o)
	if err != nil || len(want) != n {
		t.Fatalf("built %d records, %v", len(want), err)
	}
	rd := NewReader(ctx, g.Dir)
	defer rd.Close()
	for start := 0; start < n; start += 500 {
		batch := hashes[start:min(start+500, n)]
		got, err := rd.Records(ctx, batch)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range batch {
			w := Decode(Encode([]trace.Record{want[h]}))
			if len(w) != 1 || !reflect.DeepEqual(got[h], w[0]) {
				t.Fatalf("%s: note\n%+v\nwant\n%+v", h, got[h], w)
			}
		}
	}
	// Again: nothing changed, nothing written.
	if changed, err := g.Update(ctx, st, hashes, s, "test"); err != nil || changed != 0 {
		t.Errorf("second update: %d notes, %v; want 0", changed, err)
	}
}
