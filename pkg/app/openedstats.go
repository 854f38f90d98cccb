package app

import (
	"context"

	"github.com/git-convo/git-convo/pkg/attribution/link"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/notes"
)

// Stats from line evidence that is not the local counts (commit_files):
// each added line of a commit is counted as blame and pr read it, its
// writer's (the local database's first, then a shared record's) or a
// person's, blank lines in no share.

// openedFileStats recounts the local counts of the commits this clone
// rewrote from a teammate's commit it never recorded (notes.Reader.
// OpenRewrites): recorded here only to find that none of its own agents
// wrote the lines, which says nothing of the teammate's. Each added line
// is its local writer's, else the copied record's (copied by rewrite),
// else a person's when that record examined every line; with no copied
// record, or one naming lines no one's, the commit is not examined and
// leaves the counts (the shared and other tools' counts may then give it).
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
	for _, h := range hashes {
		if ok, in := recorded[h]; in && !ok {
			opened = append(opened, h)
		}
	}
	return r.recount(ctx, opened, local)
}

// recount replaces the local counts of hashes with lineFileStats' count of
// them, their local writers first (none for a commit whose record does not
// name every line: not examined).
func (r *Reader) recount(ctx context.Context, hashes []string, local []FileStat) []FileStat {
	if len(hashes) == 0 {
		return local
	}
	writers, _, err := r.store.CommitLineWriters(ctx, hashes)
	if err != nil {
		r.a.Log().Printf("share", "recounting the lines of commits rewritten or squashed here: %v", err)
		return local
	}
	counted, ok := r.lineFileStats(ctx, hashes, writers, false)
	if !ok {
		return local
	}
	again := map[string]bool{}
	for _, h := range hashes {
		again[h] = true
	}
	out := local[:0:0]
	for _, fs := range local {
		if !again[fs.CommitHash] {
			out = append(out, fs)
		}
	}
	for _, h := range hashes {
		out = append(out, counted[h]...) // none when not examined
	}
	return out
}

// derivedFileStats recounts the local counts of the commits this clone
// examined that its shared record reads as a squash of teammates' commits
// (git reset --soft and a commit here: notes.Reader.DerivedOwn), as blame
// and pr read them: the local count gave the teammates' agents' lines to
// no agent, since none of this clone's conversations wrote them. Only a
// commit with lines no local conversation wrote can be one.
func (r *Reader) derivedFileStats(ctx context.Context, hashes []string, local []FileStat) []FileStat {
	partly := map[string]bool{}
	for _, fs := range local {
		if fs.Agent < fs.Added {
			partly[fs.CommitHash] = true
		}
	}
	var cands []string
	for _, h := range hashes {
		if partly[h] {
			cands = append(cands, h)
		}
	}
	derived, err := r.shared.DerivedOwn(ctx, cands)
	if err != nil {
		r.a.Log().Printf("share", "reading shared notes: %v", err)
		return local
	}
	return r.recount(ctx, derived, local)
}

// sharedFileStats adds line counts from shared notes for the commits the
// local database has none of (stats), so a teammate's share shows; a
// record naming lines no one's leaves its commit out, not examined, as
// blame and pr read it.
func (r *Reader) sharedFileStats(ctx context.Context, hashes []string, local []FileStat) []FileStat {
	need := without(hashes, local)
	if len(need) == 0 {
		return local
	}
	counted, _ := r.lineFileStats(ctx, need, nil, true)
	for _, h := range need {
		local = append(local, counted[h]...)
	}
	return local
}

// lineFileStats counts the added lines of those of hashes whose shared
// record (a copy by rewrite among them) examined every line (the others
// have no counts: not examined): writers holds their local writers (nil:
// none), the records' lines fill the lines none holds. named: only the
// files the record names count (a commit this clone did not examine: a
// record naming no file examined none). ok is false when the notes or the
// diffs could not be read (logged).
func (r *Reader) lineFileStats(ctx context.Context, hashes []string, writers map[string]map[string]map[int]LineWriter, named bool) (
	counted map[string][]FileStat, ok bool) {
	recs, err := r.shared.Records(ctx, hashes)
	if err != nil {
		r.a.Log().Printf("share", "reading shared notes: %v", err)
		return nil, false
	}
	ai, files := map[string]notes.AILines{}, map[string]map[string]bool{}
	var commits []*gitx.Commit
	for _, h := range hashes {
		rec, found := recs[h]
		if !found || !r.shared.Whole(h, rec) || named && len(rec.Files) == 0 {
			continue
		}
		ai[h], files[h] = notes.AILinesOf(rec), map[string]bool{}
		for _, f := range rec.Files {
			files[h][link.NormPath(f.Path)] = true
		}
		commits = append(commits, &gitx.Commit{Hash: h})
	}
	counted = map[string][]FileStat{}
	if len(commits) == 0 {
		return counted, true
	}
	repo, _ := r.discovered()
	added, err := repo.AddedLinesOf(ctx, commits)
	if err != nil {
		r.a.Log().Printf("share", "counting the lines of commits shared notes give: %v", err)
		return nil, false
	}
	for _, c := range commits {
		h := c.Hash
		for p, lines := range added[h] {
			key := link.NormPath(p)
			if named && !files[h][key] {
				continue
			}
			fs := FileStat{CommitHash: h, Path: p}
			ws := writers[h][key]
			for _, l := range lines {
				if !link.Countable(l.Text) {
					continue // blank lines count in no share
				}
				fs.Added++
				if _, local := ws[l.Line]; local || ai[h].Has(key, l.Line) {
					fs.Agent++
				}
			}
			if len(lines) > 0 { // blank lines only: examined, counting none
				counted[h] = append(counted[h], fs)
			}
		}
	}
	return counted, true
}
