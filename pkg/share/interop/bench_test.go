package interop

import (
	"context"
	"fmt"
	"testing"

	"github.com/git-convo/git-convo/pkg/share/interop/gitai"
	"github.com/git-convo/git-convo/pkg/share/notes"
)

// BenchmarkReadWritersGiven1000 is log -n 1000's work on git-ai's notes
// once git log has printed them: a note on every commit, shaped as
// benchgen gitai writes them, read in log's batches.
func BenchmarkReadWritersGiven1000(b *testing.B) {
	var commits []string
	given := Given{Notes: map[string]string{}}
	for i := range 1000 {
		h := fmt.Sprintf("%040x", i+1)
		commits = append(commits, h)
		given.Notes[h] = fmt.Sprintf("src/mod%02d/file%03d.go\n  s_%014x::t_%014x 1-%d,%d-%d\n  h_aabbccddeeff00 %d\n---\n", i%20, i%400, i%97, i, 3+i%20, 30+i%7, 40+i%9, 60+i%5) +
			`{"schema_version":"authorship/3.0.0","git_ai_version":"1.1.8","base_commit_sha":"` + h + `","prompts":{},` +
			fmt.Sprintf(`"sessions":{"s_%014x":{"agent_id":{"tool":"claude","id":"bench-session-%d","model":"claude-opus-4-6"},"human_author":"Dev <dev@example.com>"}},`, i%97, i%97) +
			`"humans":{"h_aabbccddeeff00":{"author":"Ann Lee <ann@example.com>"}}}` + "\n"
	}
	r := NewReader(nil, notes.Git{}, []string{gitai.Ref})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		for i := 0; i < len(commits); i += 128 {
			batch := commits[i:min(i+128, len(commits))]
			g := Given{Notes: make(map[string]string, len(batch))}
			for _, c := range batch {
				g.Notes[c] = given.Notes[c]
			}
			ws, skips, err := r.ReadWriters(ctx, batch, map[string]Given{gitai.Ref: g})
			if err != nil || len(skips) > 0 || len(ws) != len(batch) {
				b.Fatalf("%d writers, %v %v", len(ws), skips, err)
			}
		}
	}
}
