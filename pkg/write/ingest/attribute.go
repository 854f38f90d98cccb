package ingest

import (
	"context"

	"github.com/git-convo/git-convo/pkg/attribution/link"
	"github.com/git-convo/git-convo/pkg/attribution/position"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/store/repokey"
)

// AttributeLines stores, per added line of the commit, the conversation and
// prompt that wrote it, and how that is known (docs/linking.md):
//
//   - by position: the ranges each located edit wrote are carried from the
//     file as the edit left it to the committed file by a line diff; a line
//     a carried range covers is that edit's (the most recent edit's, when
//     several cover it). A person's line with the same text is not.
//   - by text, the weaker evidence, only for lines no range covers: the
//     most recent unlocated edit that wrote that text, preferring one in the
//     same file (a line moved to another file still matches).
//
// A line no evidence claims is a person's, unless a forgotten conversation
// wrote that text in the window: the commit is then not examined
// (store.SetExaminedLines), its unclaimed lines unknown.
func (r *Recorder) AttributeLines(ctx context.Context, added map[string][]gitx.AddedLine, sc store.Commit) error {
	cfg := link.DefaultConfig()
	if r.Linker.Config != nil {
		cfg = r.Linker.Config(sc.RepoPath)
	}
	commitMs := sc.CommittedAt.UnixMilli()
	fromMs, toMs := commitMs-cfg.Window.Milliseconds(), commitMs+cfg.Skew.Milliseconds()
	if sc.MadeMs > 0 {
		toMs = sc.MadeMs // known to the millisecond: no edit after it is in the commit
	}

	owners, uncarried, err := r.positionOwners(ctx, added, sc, fromMs, toMs)
	if err != nil {
		return err
	}
	type ref struct {
		path string
		line int
		hash int64
	}
	var refs []ref
	counts := map[string]*store.FileLines{}
	var lines []store.CommitLine
	seen := map[int64]bool{}
	var hashes []int64
	for path, al := range added {
		fl := &store.FileLines{Path: link.NormPath(path), PathKey: repokey.PathKey(path)}
		counts[path] = fl
		for _, l := range al {
			countable := link.Countable(l.Text)
			if countable {
				fl.Added++
			}
			if w, ok := owners[path][l.Line]; ok {
				lines = append(lines, store.CommitLine{Path: fl.Path, Line: l.Line, ConversationID: w.ConversationID,
					GenerationID: w.GenerationID, Evidence: store.EvidencePosition, Blank: !countable})
				if countable {
					fl.Agent++
				}
				continue
			}
			if !countable {
				continue
			}
			h := link.LineHash(l.Text)
			refs = append(refs, ref{path, l.Line, h})
			if !seen[h] {
				seen[h] = true
				hashes = append(hashes, h)
			}
		}
	}
	evidence, err := r.Store.LineEvidence(ctx, sc.RepoKey, hashes, fromMs, toMs)
	if err != nil {
		return err
	}
	unclaimed := store.Unclaimed{RepoKey: sc.RepoKey, FromMs: fromMs, ToMs: toMs}
	for _, rf := range refs {
		key := repokey.PathKey(rf.path)
		var best *store.Evidence
		for i, e := range evidence[rf.hash] {
			if e.Positioned && !uncarried[[2]string{e.ConversationID, e.PathKey}] {
				continue // evidence by position only
			}
			samePath, bestSame := e.PathKey == key, best != nil && best.PathKey == key
			if best == nil || (samePath && !bestSame) || (samePath == bestSame && e.AtMs > best.AtMs) {
				best = &evidence[rf.hash][i]
			}
		}
		if best == nil {
			unclaimed.Hashes = append(unclaimed.Hashes, rf.hash)
			continue
		}
		lines = append(lines, store.CommitLine{Path: link.NormPath(rf.path), Line: rf.line, ConversationID: best.ConversationID,
			GenerationID: best.GenerationID, Evidence: store.EvidenceText})
		counts[rf.path].Agent++
	}
	files := make([]store.FileLines, 0, len(counts))
	for _, fl := range counts {
		files = append(files, *fl)
	}
	return r.Store.SetExaminedLines(ctx, sc.Hash, files, lines, unclaimed)
}

// positionOwners carries every located edit of the commit's files, made
// between fromMs and toMs, to the committed files: per path, per line of
// the committed file, the edit whose range covers it (the latest wins). An
// edit that cannot be carried (a change to the commit too large to diff
// with confidence, a file git cannot read) is left out; for a file git
// cannot read, its conversation and file are returned in uncarried: its
// lines may match by text.
func (r *Recorder) positionOwners(ctx context.Context, added map[string][]gitx.AddedLine, sc store.Commit, fromMs, toMs int64) (
	owners map[string]map[int]store.LineWriter, uncarried map[[2]string]bool, err error) {
	byKey := map[string]string{} // path key -> path as the diff names it
	var keys []string
	for path, al := range added {
		if len(al) > 0 {
			k := repokey.PathKey(path)
			byKey[k] = path
			keys = append(keys, k)
		}
	}
	out := map[string]map[int]store.LineWriter{}
	uncarried = map[[2]string]bool{}
	if len(keys) == 0 {
		return out, uncarried, nil
	}
	spans, err := r.Store.EditSpans(ctx, sc.RepoKey, keys, fromMs, toMs)
	if err != nil || len(spans) == 0 {
		return out, uncarried, err
	}
	var paths []string
	for _, sp := range spans {
		if out[byKey[sp.PathKey]] == nil {
			out[byKey[sp.PathKey]] = map[int]store.LineWriter{}
			paths = append(paths, byKey[sp.PathKey])
		}
	}
	blobs, err := r.Repo.FilesAt(ctx, sc.Hash, paths)
	if err != nil {
		// The lines may still match by text (each edit is then uncarried):
		// a git that cannot read the files must not stop the recording.
		r.Log.Printf("record", "reading the files of %s: %v (their lines match by text only)", gitx.ShortHash(sc.Hash), err)
		blobs = nil
	}
	committed := map[string][]int64{}
	for _, p := range paths {
		if b, ok := blobs[p]; ok {
			committed[p] = position.HashLines(position.SplitFile(string(b)))
		}
	}
	type diff struct {
		m  []int
		ok bool
	}
	diffs := map[string]diff{} // path and snapshot: one diff per state of a file
	for _, sp := range spans { // oldest first: a later edit's range wins
		path := byKey[sp.PathKey]
		ranges := make([]position.Range, len(sp.Ranges))
		for i, rg := range sp.Ranges {
			ranges[i] = position.Range{Start: rg.Start, End: rg.End}
		}
		to, read := committed[path]
		from := position.Hashes(sp.Snapshot)
		key := path + "\x00" + string(sp.Snapshot)
		d, seen := diffs[key]
		if !seen && read {
			d.m, d.ok = position.Match(from, to)
			diffs[key] = d
		}
		if !read {
			// The committed file could not be read: its lines may match by
			// text. A change too large to diff does not reopen text
			// matching: such an old edit is more likely gone than kept.
			uncarried[[2]string{sp.ConversationID, sp.PathKey}] = true
			continue
		}
		if !d.ok {
			continue
		}
		carried := position.CarryMatched(d.m, from, ranges, to)
		for _, n := range carried {
			out[path][n] = store.LineWriter{ConversationID: sp.ConversationID, GenerationID: sp.GenerationID, Evidence: store.EvidencePosition}
		}
	}
	return out, uncarried, nil
}
