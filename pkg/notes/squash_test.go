package notes

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/gitx"
	"github.com/git-convo/git-convo/pkg/trace"
)

// evidenced is a note for commit saying conversation conv wrote lines of path.
func evidenced(commit, conv, path string, lines ...string) *trace.Record {
	in := trace.Input{Commit: commit, Time: time.Unix(1700000000, 0), Writer: "a@example.com",
		Added: map[string][]gitx.AddedLine{}, Writers: map[string]map[int]string{path: {}},
		Links: []trace.Link{{ID: conv, Title: "title of " + conv, Confidence: 0.9, Status: "auto"}}}
	for i, l := range lines {
		in.Added[path] = append(in.Added[path], gitx.AddedLine{Line: i + 1, Text: l})
		in.Writers[path][i+1] = conv
	}
	r := trace.Build(in)
	return &r
}

// The matcher finds the notes naming a squash's lines among many (a
// fanned-out notes tree), on the local ref and on a tracking ref a plain
// fetch fills, and reads only those.
func TestSquashesInAmongManyNotes(t *testing.T) {
	for _, ref := range []string{Ref, TrackingRef("origin")} {
		t.Run(ref, func(t *testing.T) {
			ctx := context.Background()
			g, hashes := repoWithCommits(t, 400)
			recs := map[string]*trace.Record{}
			for _, h := range hashes[:300] {
				recs[h] = record(h, "a@example.com", "conv-other")
			}
			src := hashes[300] // the squashed commit: its lines, its note
			recs[src] = evidenced(src, "conv-sq", "api.go", "func Limit(n int) error {", "\treturn bucket.Take(n)", "}")
			if _, err := g.Write(ctx, recs, "a@example.com", "m"); err != nil {
				t.Fatal(err)
			}
			if ref != Ref { // only fetched: the notes live on the tracking ref
				git(t, g, "", "update-ref", ref, Ref)
				git(t, g, "", "update-ref", "-d", Ref)
			}
			if top := git(t, g, "", "ls-tree", ref); !strings.Contains(top, " tree ") {
				t.Fatalf("the notes are not fanned out:\n%.300s", top)
			}
			// The squash, made elsewhere: the same lines, in one new commit.
			os.WriteFile(filepath.Join(g.Dir, "api.go"), []byte("package api\n\nfunc Limit(n int) error {\n\treturn bucket.Take(n)\n}\n"), 0o644)
			git(t, g, "", "checkout", "-q", "main")
			git(t, g, "", "add", "api.go")
			git(t, g, "", "commit", "-q", "-m", "Rate limits (#7)")
			squash := git(t, g, "", "rev-parse", "HEAD")
			plain := hashes[350] // no note, lines no note names

			got, err := g.SquashesIn(ctx, []string{"--no-walk", squash, plain}, BuildOptions{Writer: "b@example.com"})
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := got[plain]; ok || len(got) != 1 {
				t.Fatalf("records for %d commits: %v", len(got), got)
			}
			rec := got[squash]
			m, _ := rec.Meta()
			if c, ok := m.Conversations["conv-sq"]; !ok || c.Reason != "squash of "+src[:7] || c.Title != "title of conv-sq" {
				t.Errorf("the squash's record: %+v", m.Conversations)
			}
		})
	}
}
