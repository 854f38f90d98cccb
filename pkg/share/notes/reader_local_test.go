package notes

import (
	"context"
	"reflect"
	"testing"

	"github.com/git-convo/git-convo/pkg/share/trace"
)

// TestReaderReadsNotesWithoutGit: a few commits' notes (show's read) come
// from the object files, flat or fanned out, with no cat-file started, and
// are the records cat-file's answers give.
func TestReaderReadsNotesWithoutGit(t *testing.T) {
	ctx := context.Background()
	for _, n := range []int{20, 600} { // flat, and fanned out
		g, hashes := repoWithCommits(t, n)
		recs := map[string]*trace.Record{}
		for _, h := range hashes[:n/2] {
			recs[h] = record(h, "t@example.com", "conv")
		}
		if _, err := g.Write(ctx, recs, "t@example.com", "m"); err != nil {
			t.Fatal(err)
		}
		git(t, g, "", "update-ref", TrackingRef("origin"), Ref)
		ask := append(append([]string{}, hashes[:5]...), hashes[n-5:]...)
		rd := NewReader(ctx, g.Dir)
		got, err := rd.Records(ctx, ask)
		if err != nil {
			t.Fatal(err)
		}
		if rd.local == nil || rd.cat != nil {
			t.Errorf("%d notes: in process %v, cat-file started %v", n, rd.local != nil, rd.cat != nil)
		}
		rd.Close()
		withGit := NewReader(ctx, g.Dir)
		<-withGit.ready
		withGit.local = nil
		want, err := withGit.Records(ctx, ask)
		withGit.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(want) != 5 || !reflect.DeepEqual(got, want) {
			t.Errorf("%d notes: %d records in process, %d from cat-file", n, len(got), len(want))
		}
	}
}
