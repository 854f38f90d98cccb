package notes

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/trace"
	"github.com/git-convo/git-convo/pkg/store"
)

// blameRepo is a repository of three commits, each adding lines to four
// files (one whose name, as a pathspec, would match another; one in a
// directory), with a note on each claiming every file's lines (the third:
// a.txt's only, so that a read of another file diffs it not) and one line
// more than the commit added (the clip drops it).
func blameRepo(t *testing.T) (Git, []string) {
	t.Helper()
	ctx := context.Background()
	g := Git{Dir: t.TempDir(), Env: gitEnv(t)}
	git(t, g, "", "init", "-q")
	paths := []string{"a.txt", "w*[x].txt", "wZx.txt", "sub/b.txt"}
	var s strings.Builder
	for i := 1; i <= 3; i++ {
		fmt.Fprintf(&s, "commit refs/heads/main\nmark :%d\ncommitter T <t@example.com> %d +0000\ndata 2\nc\n", i, 1700000000+i)
		if i > 1 {
			fmt.Fprintf(&s, "from :%d\n", i-1)
		}
		for _, p := range paths {
			body := strings.Repeat(fmt.Sprintf("%s line of commit %d\n", p, i), 2*i)
			fmt.Fprintf(&s, "M 100644 inline %s\ndata %d\n%s\n", p, len(body), body)
		}
	}
	git(t, g, s.String(), "fast-import", "--quiet")
	hashes := strings.Fields(git(t, g, "", "rev-list", "--reverse", "main"))
	d, err := g.diffs(ctx, hashes)
	if err != nil {
		t.Fatal(err)
	}
	recs := map[string]*trace.Record{}
	for i, h := range hashes {
		in := trace.Input{Commit: h, Time: time.Unix(1700000000, 0), Writer: "clone-aaaa", Added: map[string][]gitx.AddedLine{},
			Writers: map[string]map[int]string{}, Links: []trace.Link{{ID: fmt.Sprintf("conv-%d", i), Confidence: 1, Status: "auto"}}}
		for _, p := range paths {
			if i == 2 && p != "a.txt" {
				continue
			}
			in.Added[p] = d[h].added[p]
			in.Writers[p] = map[int]string{}
			for _, l := range d[h].added[p] {
				in.Writers[p][l.Line] = fmt.Sprintf("conv-%d", i)
			}
		}
		r := trace.Build(in)
		for fi := range r.Files {
			for ci := range r.Files[fi].Conversations {
				rgs := r.Files[fi].Conversations[ci].Ranges
				rgs[len(rgs)-1].EndLine += 5 // lines the commit did not add
			}
		}
		recs[h] = &r
	}
	if _, err := g.Write(ctx, recs, "clone-aaaa", "m"); err != nil {
		t.Fatal(err)
	}
	return g, hashes
}

// MergeLineWritersIn gives exactly what MergeLineWriters gives in the
// files asked (git's names, from the top whatever the reader's directory,
// taken literally), and nothing in the others; a reader that keeps its
// records answers as one that reads them each time.
func TestMergeLineWritersIn(t *testing.T) {
	ctx := context.Background()
	g, hashes := blameRepo(t)
	sub := filepath.Join(g.Dir, "sub")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	merge := func(dir string, keep bool, paths []string) (map[string]map[string]map[int]store.LineWriter, map[string]bool) {
		t.Helper()
		rd := NewReader(ctx, dir)
		defer rd.Close()
		if keep {
			rd.Keep()
			if _, err := rd.Records(ctx, hashes[:1]); err != nil { // one kept, one not yet
				t.Fatal(err)
			}
		}
		w, rec := map[string]map[string]map[int]store.LineWriter{}, map[string]bool{}
		var err error
		if paths == nil {
			err = rd.MergeLineWriters(ctx, hashes, w, rec)
		} else {
			err = rd.MergeLineWritersIn(ctx, hashes, paths, w, rec)
		}
		if err != nil {
			t.Fatal(err)
		}
		return w, rec
	}
	all, allRec := merge(g.Dir, false, nil)
	if len(all[hashes[1]]["a.txt"]) != 4 || len(all[hashes[1]]) != 4 {
		t.Fatalf("every file's added lines, clipped: %v", all[hashes[1]])
	}
	if len(all[hashes[2]]) != 1 || all[hashes[2]]["a.txt"] == nil || !allRec[hashes[2]] {
		t.Fatalf("the third note: a.txt's lines only, got %v", all[hashes[2]])
	}
	for _, tc := range []struct {
		name  string
		dir   string
		keep  bool
		paths []string
	}{
		{"one file", g.Dir, false, []string{"a.txt"}},
		{"magic characters, literally", g.Dir, false, []string{"w*[x].txt"}},
		{"from a subdirectory", sub, false, []string{"sub/b.txt", "a.txt"}},
		{"kept records", sub, true, []string{"sub/b.txt", "a.txt"}},
		{"a file no commit changed", g.Dir, true, []string{"none.txt"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, rec := merge(tc.dir, tc.keep, tc.paths)
			want := map[string]map[string]map[int]store.LineWriter{}
			for h, files := range all {
				for _, p := range tc.paths {
					if files[p] != nil {
						if want[h] == nil {
							want[h] = map[string]map[int]store.LineWriter{}
						}
						want[h][p] = files[p]
					}
				}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("writers\n got %v\nwant %v", got, want)
			}
			if !reflect.DeepEqual(rec, allRec) {
				t.Errorf("recorded %v, want %v", rec, allRec)
			}
		})
	}
}

// A kept reader's records are those a fresh reader reads, with commits
// that have no note left out, however the asks overlap.
func TestKeepAnswersAsRead(t *testing.T) {
	ctx := context.Background()
	g, hashes := blameRepo(t)
	none := strings.Repeat("0", 39) + "1"
	asks := [][]string{{hashes[0], none}, {none, hashes[1], hashes[0]}, {none}, hashes}
	kept := NewReader(ctx, g.Dir)
	defer kept.Close()
	kept.Keep()
	for i, ask := range asks {
		fresh := NewReader(ctx, g.Dir)
		want, err := fresh.Records(ctx, ask)
		fresh.Close()
		if err != nil {
			t.Fatal(err)
		}
		got, err := kept.Records(ctx, ask)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("ask %d: kept %v, read %v", i, got, want)
		}
	}
}
