package notes

import (
	"context"
	"sort"

	"github.com/git-convo/git-convo/pkg/attribution/link"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/trace"
)

// A note's line ranges are a claim by whoever pushed it: lines
// 1..2,000,000,000 would have blame walk two billion lines, ±9e18 would
// overflow stats' sums, and a path like ../../etc/passwd names nothing the
// commit touched. The commands that use ranges (blame, stats, trace) take
// them clipped to the lines the commit itself added.

// ClippedRecords is Records with each record clipped to what its commit
// changed (see clip). It costs one git log -p of the commits that have a
// record, so the commands reading only a note's metadata (show, log) use
// Records.
func (r *Reader) ClippedRecords(ctx context.Context, hashes []string) (map[string]trace.Record, error) {
	return r.clippedRecordsIn(ctx, hashes, nil)
}

// clippedRecordsIn is ClippedRecords keeping only the files named paths
// (git's names, as blame prints them; nil: every file): git diffs only
// those, where a commit's other files can hold far more lines.
func (r *Reader) clippedRecordsIn(ctx context.Context, hashes, paths []string) (map[string]trace.Record, error) {
	recs, err := r.Records(ctx, hashes)
	if err != nil || len(recs) == 0 {
		return recs, err
	}
	if c := r.addedCache(); c != nil && len(paths) > 0 {
		return recs, r.g.clipAllCached(ctx, recs, paths, c)
	}
	return recs, r.g.clipAll(ctx, recs, paths)
}

// clipAll clips every record of recs (by commit) to its commit's diff in
// paths (nil: all of it); a record of a commit this repository lacks keeps
// no file.
func (g Git) clipAll(ctx context.Context, recs map[string]trace.Record, paths []string) error {
	have, err := g.existing(ctx, toDiff(recs, paths))
	if err != nil {
		return err
	}
	diffs := map[string]commitDiff{}
	if len(have) > 0 {
		if diffs, err = g.diffs(ctx, have, paths...); err != nil {
			return err
		}
	}
	for h, rec := range recs {
		recs[h] = clip(rec, diffs[h].added)
	}
	return nil
}

// toDiff is the commits of recs whose diff in paths (none: every file) the
// clip needs, sorted. A record naming none of paths needs none: the clip
// drops every file of it anyway (blame, where a teammate's note often
// speaks of its commit's other files only).
func toDiff(recs map[string]trace.Record, paths []string) []string {
	var asked map[string]bool // nil: every file, as diffs reads them
	if len(paths) > 0 {
		asked = make(map[string]bool, len(paths))
		for _, p := range paths {
			asked[link.NormPath(p)] = true
		}
	}
	hashes := make([]string, 0, len(recs))
	for h, rec := range recs {
		if asked == nil || namesAny(rec, asked) {
			hashes = append(hashes, h)
		}
	}
	sort.Strings(hashes)
	return hashes
}

// namesAny says whether rec names a file among paths (normalised, as clip
// matches them).
func namesAny(rec trace.Record, paths map[string]bool) bool {
	for _, f := range rec.Files {
		if paths[link.NormPath(f.Path)] {
			return true
		}
	}
	return false
}

// clip keeps of rec the files the commit changed (added, by normalised
// path) and of each range the lines the commit added, as runs of
// consecutive lines; a run that is not the whole range loses its content
// hash, which was the range's. Its work is bounded by the commit's added
// lines, whatever the ranges claim.
func clip(rec trace.Record, added map[string][]gitx.AddedLine) trace.Record {
	files := make([]trace.File, 0, len(rec.Files))
	lines := map[string][]int{} // by normalised path
	for _, f := range rec.Files {
		key := link.NormPath(f.Path)
		if _, ok := lines[key]; !ok {
			lines[key] = addedNumbers(added[key])
		}
		if len(lines[key]) > 0 { // else a path the commit added no line to
			files = append(files, trace.File{Path: key, Conversations: f.Conversations})
		}
	}
	rec.Files = mapRanges(files, func(path string, c trace.Conversation) ([]trace.Range, bool) {
		var ranges []trace.Range
		for _, rg := range c.Ranges {
			ranges = append(ranges, clipRange(rg, lines[path])...)
		}
		return ranges, len(ranges) > 0
	})
	return rec
}

// addedNumbers is the sorted line numbers of added.
func addedNumbers(added []gitx.AddedLine) []int {
	n := make([]int, len(added))
	for i, a := range added {
		n[i] = a.Line
	}
	sort.Ints(n)
	return n
}

// clipRange is rg cut to lines (sorted, the commit's added lines), as runs
// of consecutive added lines.
func clipRange(rg trace.Range, lines []int) []trace.Range {
	if rg.StartLine > rg.EndLine {
		return nil
	}
	var out []trace.Range
	for i := sort.SearchInts(lines, rg.StartLine); i < len(lines) && lines[i] <= rg.EndLine; {
		j := i
		for j+1 < len(lines) && lines[j+1] == lines[j]+1 && lines[j+1] <= rg.EndLine {
			j++
		}
		out = append(out, trace.Range{StartLine: lines[i], EndLine: lines[j]})
		i = j + 1
	}
	if len(out) == 1 && out[0].StartLine == rg.StartLine && out[0].EndLine == rg.EndLine {
		out[0].ContentHash = rg.ContentHash
	}
	return out
}
