package app

import (
	"context"

	"github.com/git-convo/git-convo/pkg/attribution/link"
	"github.com/git-convo/git-convo/pkg/git/gitx"
)

// openedFileStats recounts, line by line, the local counts of the commits
// this clone rewrote from a teammate's commit it never recorded
// (notes.Reader.OpenRewrites): recorded here only to find that none of
// its own agents wrote the lines, which says nothing of the teammate's.
// As blame and pr read them, each added line is its local writer's, else
// the copied record's (copied by rewrite), else a person's when that
// record examined every line; with no copied record, or one naming lines
// no one's, the commit is not examined and leaves the counts (the shared
// and other tools' counts may then give it).
func (r *Reader) openedFileStats(ctx context.Context, hashes []string, local []FileStat) []FileStat {
	recorded := map[string]bool{}
	for _, fs := range local {
		recorded[fs.CommitHash] = true
	}
	if err := r.shared.OpenRewrites(ctx, hashes, recorded, r.store.RecordedCommits); err != nil {
		r.a.Log().Printf("share", "reading the rewritten commits: %v", err)
		return local
	}
	var opened []string
	for h, ok := range recorded {
		if !ok {
			opened = append(opened, h)
		}
	}
	if len(opened) == 0 {
		return local
	}
	writers, _, err := r.store.CommitLineWriters(ctx, opened)
	if err != nil {
		r.a.Log().Printf("share", "reading the rewritten commits: %v", err)
		return local
	}
	// Only the lines the commits added are looked up: no clip is needed.
	if err := r.shared.MergeClaimedLines(ctx, opened, writers, recorded); err != nil {
		r.a.Log().Printf("share", "reading shared notes: %v", err)
		return local
	}
	repo, _ := r.discovered()
	commits := make([]*gitx.Commit, len(opened))
	for i, h := range opened {
		commits[i] = &gitx.Commit{Hash: h}
	}
	added, err := repo.AddedLinesOf(ctx, commits)
	if err != nil {
		r.a.Log().Printf("share", "counting the lines of the rewritten commits: %v", err)
		return local
	}
	out := local[:0:0]
	for _, fs := range local {
		if _, recount := added[fs.CommitHash]; !recount {
			out = append(out, fs)
		}
	}
	for _, h := range opened {
		if !recorded[h] {
			continue // not examined, as blame and pr read it
		}
		for p, lines := range added[h] {
			fs := FileStat{CommitHash: h, Path: p}
			ws := writers[h][link.NormPath(p)]
			for _, l := range lines {
				if !link.Countable(l.Text) {
					continue // blank lines count in no share
				}
				fs.Added++
				if _, ok := ws[l.Line]; ok {
					fs.Agent++
				}
			}
			if fs.Added > 0 {
				out = append(out, fs)
			}
		}
	}
	return out
}
