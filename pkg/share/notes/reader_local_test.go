package notes

import (
	"bytes"
	"context"
	"reflect"
	"strings"
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

// eachBlobEntry reads git ls-tree -r -z as splitting each entry into
// fields did, whatever the entries; a path that names no commit
// (TestNotePath) comes as "".
func TestEachBlobEntry(t *testing.T) {
	fields := func(out []byte) (got []string) { // the reading it replaced
		for _, entry := range bytes.Split(out, []byte{0}) {
			meta, path, ok := bytes.Cut(entry, []byte{'\t'})
			f := strings.Fields(string(meta))
			if ok && len(f) == 3 && f[1] == "blob" {
				got = append(got, notePath(path)+" "+f[2])
			}
		}
		return got
	}
	a, b := strings.Repeat("a", 40), strings.Repeat("b", 40)
	for name, out := range map[string]string{
		"flat and fanned out":    "100644 blob " + a + "\t" + b + "\x00100644 blob " + b + "\tab/" + a[2:] + "\x00100644 blob " + a + "\tab/cd/" + a[4:] + "\x00",
		"no final NUL":           "100644 blob " + a + "\t" + b,
		"trees and gitlinks":     "040000 tree " + a + "\tab\x00160000 commit " + b + "\t" + a + "\x00",
		"a path with tab, space": "100644 blob " + a + "\tx\ty z/w\x00",
		"no tab, empty entries":  "100644 blob " + a + "\x00\x00\x00100644 blob\t" + a + "\x00",
		"empty":                  "",
		"long path":              "100644 blob " + a + "\t" + strings.Repeat("ab/", 100) + "\x00",
	} {
		var got []string
		eachBlobEntry([]byte(out), func(commit, blob string) { got = append(got, commit+" "+blob) })
		if want := fields([]byte(out)); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}
