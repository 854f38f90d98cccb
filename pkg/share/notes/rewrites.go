package notes

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/git-convo/git-convo/pkg/attribution/link"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/trace"
)

// An amend or a rebase makes new commits, and git's notes.rewriteRef (set
// by install) copies their notes onto them: teammates' records too, each
// still naming, in vcs.revision, the commit it was written for. Such a
// record is read for the new commit only when this clone rewrote that
// commit into it (its post-rewrite hook keeps the pairs, RecordRewrites),
// and then as a copy: evidence "copied by rewrite", a lower confidence
// (RewriteFactor), and line ranges only where the diff between the two
// commits left those lines as they were. A record naming any other commit
// is still refused (claims): a note copied onto an unrelated commit is a
// claim nothing bears out. The same rewrite also carries the predecessor's
// own note when git copied none (the teammate's note sits only on a
// tracking ref, which notes.rewriteRef does not copy).

// rewritesFile is the rewrite map, "<old> <new>" a line, in the git common
// dir: written by this clone's post-rewrite hook only, never shared.
const rewritesFile = "git-convo-rewrites"

// rewritesMax bounds the map (about 1.6 MB): the oldest pairs go first.
const rewritesMax = 20000

// rewriteChainMax bounds how far back a commit's predecessors are followed
// (amended, then rebased, then amended again...).
const rewriteChainMax = 32

// rewritePredsMax bounds how many predecessors one commit is read from: a
// squash of n commits by rebase -i has about 2n (each commit, and the
// commits each fixup amended on the way).
const rewritePredsMax = 1024

// rewriteDiffsMax is how many rewritten commits one read maps lines for (a
// git diff each); beyond it, copies are read at commit level only.
const rewriteDiffsMax = 64

// RewriteFactor multiplies a copied link's confidence: the new commit is
// not the one its writer's clone saw.
const RewriteFactor = 0.8

// RecordRewrites adds post-rewrite's pairs (old, new) to the rewrite map
// in the git common dir commonDir (the hook's repository knows it: no git
// is asked). One append, so that two rewrites at once (two worktrees) keep
// both; the map is cut to its newest rewritesMax pairs only once it has
// grown a quarter past them.
func RecordRewrites(commonDir string, pairs [][2]string) error {
	var b strings.Builder
	for _, p := range pairs {
		if gitx.IsFullHash(p[0]) && gitx.IsFullHash(p[1]) && p[0] != p[1] {
			b.WriteString(p[0] + " " + p[1] + "\n")
		}
	}
	if b.Len() == 0 {
		return nil
	}
	path := filepath.Join(commonDir, rewritesFile)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = f.WriteString(b.String())
	fi, serr := f.Stat()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil || serr != nil {
		return errors.Join(err, serr)
	}
	if fi.Size() <= rewritesTrimAt {
		return nil
	}
	return trimRewrites(path)
}

// rewritesTrimAt is the map's size past which it is cut: a quarter more
// than rewritesMax pairs of SHA-1 names (82 bytes a line).
const rewritesTrimAt = (rewritesMax + rewritesMax/4) * 82

// trimRewrites keeps the newest rewritesMax pairs of the map at path,
// replaced whole (a reader sees the old map or the new).
func trimRewrites(path string) error {
	old, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var lines []string
	for _, l := range strings.Split(string(old), "\n") {
		if l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > rewritesMax {
		lines = lines[len(lines)-rewritesMax:]
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), rewritesFile+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename, there is nothing left to remove
	if _, err := tmp.WriteString(strings.Join(lines, "\n") + "\n"); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// LoadRewrites reads the rewrite map: each new commit to the commits it
// was rewritten from, in the map's order (none: an empty map). A squash or
// a fixup makes one commit of several: post-rewrite pairs each with it, and
// each is kept, as the new commit holds lines of every one of them.
func (g Git) LoadRewrites(ctx context.Context) (map[string][]string, error) {
	path, err := g.commonPath(ctx, rewritesFile)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return map[string][]string{}, nil
	}
	out := map[string][]string{}
	seen := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		if o, n, ok := strings.Cut(l, " "); ok && gitx.IsFullHash(o) && gitx.IsFullHash(n) && !seen[l] {
			seen[l] = true
			out[n] = append(out[n], o)
		}
	}
	return out, nil
}

// predecessors is the commits h was rewritten from, the nearest first
// (breadth first: a squash's commits, then what each was rewritten from),
// at most rewriteChainMax rewrites back and rewritePredsMax in all; cut
// says a bound left some out.
func predecessors(rewrites map[string][]string, h string) (out []string, cut bool) {
	seen := map[string]bool{h: true}
	next := []string{h}
	for depth := 0; len(next) > 0; depth++ {
		var level []string
		for _, c := range next {
			for _, p := range rewrites[c] {
				if seen[p] {
					continue
				}
				if depth == rewriteChainMax || len(out) == rewritePredsMax {
					return out, true
				}
				seen[p] = true
				out = append(out, p)
				level = append(level, p)
			}
		}
		next = level
	}
	return out, false
}

// firstCommits is the commits h's chains of rewrites start at (ps: its
// predecessors): those rewritten from none of the others (one for an
// amend or a rebase, each squashed commit for a squash; the commits a
// fixup amended on the way were rewritten from them).
func firstCommits(rewrites map[string][]string, ps []string) []string {
	in := make(map[string]bool, len(ps))
	for _, p := range ps {
		in[p] = true
	}
	var out []string
	for _, p := range ps {
		if !slices.ContainsFunc(rewrites[p], func(o string) bool { return in[o] }) {
			out = append(out, p)
		}
	}
	return out
}

// OpenRewrites takes out of recorded (the commits whose lines the local
// database knows) those this clone rewrote from commits it never recorded
// (known: which of some commits it did): a teammate's commit, rebased or
// amended here, was recorded here only to find that none of this clone's
// agents wrote its lines, which says nothing of the teammate's. Their
// copied records then give the lines no local writer holds (mergeLines
// never replaces a local writer). A commit whose chain of rewrites starts
// at one this clone recorded (its own) keeps the local verdict: its
// lines' people stay people, whatever a note about it claims.
func (r *Reader) OpenRewrites(ctx context.Context, hashes []string, recorded map[string]bool,
	known func(context.Context, []string) (map[string]bool, error)) error {
	<-r.ready
	first := map[string][]string{}
	var all []string
	for _, h := range hashes {
		if !recorded[h] {
			continue
		}
		// The first commits of its chains of rewrites: the later ones were
		// recorded here by the rewrite itself.
		if ps, _ := predecessors(r.rewrites, h); len(ps) > 0 {
			fs := firstCommits(r.rewrites, ps)
			first[h] = fs
			all = append(all, fs...)
		}
	}
	if len(all) == 0 {
		return nil
	}
	have, err := known(ctx, all)
	if err != nil {
		return err
	}
	// One of a squash's commits a teammate's is enough: its lines are
	// theirs to tell, as the rest are the local writers'.
	for h, fs := range first {
		if slices.ContainsFunc(fs, func(p string) bool { return !have[p] }) {
			recorded[h] = false
		}
	}
	return nil
}

// copiedFrom returns the records about the predecessors of commit (preds,
// nearest first) that a reader may believe for commit: those recs names
// them in (git copied them onto commit) and those of each predecessor's
// own note (own), each as claims keeps it for its commit, carried (carry).
// A record whose writer also wrote one about commit itself is left out:
// that writer's own word on commit supersedes the copy. told is the
// predecessors any record speaks of.
func copiedFrom(commit string, preds []string, recs []trace.Record, own func(string) []trace.Record, direct []trace.Record) (out []copied, told map[string]bool) {
	if len(preds) == 0 {
		return nil, nil
	}
	writers := map[string]bool{}
	for _, r := range direct {
		if m, ok := r.Meta(); ok && !allDerived(m) {
			writers[m.Writer] = true
		}
	}
	seen, told := map[string]bool{}, map[string]bool{}
	for _, p := range preds {
		var about []trace.Record
		for _, r := range recs {
			if r.VCS != nil && strings.EqualFold(r.VCS.Revision, p) {
				about = append(about, r)
			}
		}
		about = append(about, own(p)...)
		for _, r := range claims(p, about) {
			told[p] = true
			m, ok := r.Meta()
			if !ok || writers[m.Writer] || seen[r.ID] {
				continue
			}
			seen[r.ID] = true
			out = append(out, copied{from: p, rec: carry(r, p)})
		}
	}
	return out, told
}

// allDerived reports a record whose every link is derived (a squash read
// from other notes): its writer's inference about a commit it did not
// make, which supersedes no copy by rewrite (this clone's own pairing of
// the commits, by position).
func allDerived(m trace.Meta) bool {
	for _, c := range m.Conversations {
		if !c.IsDerived() {
			return false
		}
	}
	return len(m.Conversations) > 0
}

// untold reports a commit among firsts (where commit's chains of rewrites
// start) that no record speaks of (told): a squash of a teammate's commit
// with no note and another's with one.
func untold(firsts []string, told map[string]bool) bool {
	return slices.ContainsFunc(firsts, func(f string) bool { return !told[f] })
}

// copied is a predecessor's record carried to the rewritten commit, its
// ranges still at the predecessor's line numbers (mapRewritten moves them).
type copied struct {
	from string
	rec  trace.Record
}

// carry is r, a record about from, read for a commit rewritten from it: each
// link marked copied by rewrite, its confidence lowered, its reason saying
// so; the per-line evidence and withdrawals stay with from.
func carry(r trace.Record, from string) trace.Record {
	m, _ := r.Meta()
	convs := make(map[string]trace.ConvMeta, len(m.Conversations))
	for id, c := range m.Conversations {
		c.Confidence = math.Round(c.Confidence*RewriteFactor*100) / 100
		note := "copied by rewrite from " + from[:12]
		if c.Reason == "" {
			c.Reason = note
		} else {
			c.Reason += "; " + note
		}
		c.RewrittenFrom = from
		if c.SharedBy == "" {
			c.SharedBy = m.Writer
		}
		convs[id] = c
	}
	m.Conversations, m.Evidence, m.Withdrawn = convs, nil, nil
	r.SetMeta(m)
	return r
}

// mapRewritten moves each copy's line ranges to the rewritten commit's
// numbers through the diff between the two commits: a line the diff left
// unchanged keeps its place (shifted by the lines added and removed above
// it); a range touching any changed line keeps only its unchanged runs,
// without its content hash. A copy whose diff cannot be read, or past
// rewriteDiffsMax, keeps no line: commit level only. all is false when a
// copy's lines could not all be followed (no diff, or a file gone).
func (g Git) mapRewritten(ctx context.Context, commit string, cs []copied, budget *int) (all bool) {
	all = true
	for i := range cs {
		if len(cs[i].rec.Files) == 0 {
			continue
		}
		var moved map[string]lineShift
		if *budget > 0 {
			*budget--
			moved, _ = g.lineShifts(ctx, cs[i].from, commit, cs[i].rec.Files)
		}
		var gone []string
		for _, f := range cs[i].rec.Files {
			if moved[f.Path].gone {
				gone = append(gone, f.Path)
			}
		}
		// A file the new commit lacks: removed, its lines are gone with it;
		// renamed, they are in the new commit, named by no copy.
		all = all && moved != nil && (len(gone) == 0 || !g.renamedAway(ctx, cs[i].from, commit, gone))
		cs[i].rec.Files = shiftFiles(cs[i].rec.Files, moved)
	}
	return all
}

// lineShift is one file's changes between two commits, as -U0 hunks of the
// old side: where they start, how many old lines they replace, how many
// new lines they put there. gone: the file is not in the new commit.
type lineShift struct {
	hunks [][3]int
	gone  bool
}

// lineShifts reads the diff from old to new for the files' paths (nil and
// the error when it cannot: no line is then carried).
func (g Git) lineShifts(ctx context.Context, old, new string, files []trace.File) (map[string]lineShift, error) {
	args := append(append([]string{}, diffOptions...), "diff", "-U0", "--no-color", "--no-renames", "--no-ext-diff",
		"--no-textconv", old, new, "--")
	paths := make([]string, 0, len(files))
	for _, f := range files {
		args = append(args, ":(top,literal)"+f.Path)
		paths = append(paths, f.Path)
	}
	out, err := g.run(ctx, nil, args...)
	if err != nil {
		return nil, err
	}
	return parseShifts(out, paths), nil
}

// renamedAway reports whether git finds any of paths (files of old the
// new commit lacks) renamed into another file between old and new (renamed).
func (g Git) renamedAway(ctx context.Context, old, new string, paths []string) bool {
	to := g.renamed(ctx, old, new)
	return slices.ContainsFunc(paths, func(p string) bool { return to[link.NormPath(p)] != "" })
}

// knownOverUnknown is rec with the lines its unknown entries give to no
// one taken out of them where another entry names them (a copy by rewrite
// says who wrote a line this clone's own record of the commit could not:
// "unknown" is no claim); an unknown entry left no line is dropped.
func knownOverUnknown(rec trace.Record) trace.Record {
	isUnknown := func(c trace.Conversation) bool { return c.Contributor != nil && c.Contributor.Type == "unknown" }
	known := claimedRanges(rec, func(c trace.Conversation) bool { return c.Contributor != nil && !isUnknown(c) })
	if len(known) == 0 {
		return rec
	}
	rec, _ = cutLines(rec, known, isUnknown)
	return rec
}

// parseShifts reads a -U0 diff into each path's hunks (paths: those asked
// for). A hunk's counts say which lines are content, so a removed line
// reading "--- x" is not taken for a header. A file added or deleted
// between the two commits is gone; and when the diff names a file that is
// none of paths (a name git quoted), every path it does not show is gone
// too, as nothing then says the file was left as it was.
func parseShifts(diff []byte, paths []string) map[string]lineShift {
	asked := map[string]bool{}
	for _, p := range paths {
		asked[p] = true
	}
	out := map[string]lineShift{}
	unknown := false
	sc := bufio.NewScanner(bytes.NewReader(diff))
	sc.Buffer(make([]byte, 64*1024), 64*1024*1024)
	var oldPath, path string
	var left int // content lines left in the current hunk
	for sc.Scan() {
		b := sc.Bytes()
		if left > 0 && len(b) > 0 && (b[0] == '-' || b[0] == '+') {
			left--
			continue
		}
		left = 0
		switch {
		case bytes.HasPrefix(b, []byte("diff --git ")):
			oldPath, path = "", ""
		case bytes.HasPrefix(b, []byte("Binary files ")):
			// A changed binary file has no "---"/"+++" lines to name it:
			// nothing then says an asked file was left as it was.
			unknown = true
		case bytes.HasPrefix(b, []byte("--- ")):
			oldPath = diffName(b[4:], "a/")
		case bytes.HasPrefix(b, []byte("+++ ")):
			newPath := diffName(b[4:], "b/")
			if path = oldPath; path == "" {
				path = newPath
			}
			if !asked[path] {
				unknown, path = true, ""
			} else if oldPath == "" || newPath == "" {
				out[path] = lineShift{gone: true}
			}
		case bytes.HasPrefix(b, []byte("@@ ")) && path != "":
			var oStart, oCount, nStart, nCount int
			if !hunkCounts(string(b), &oStart, &oCount, &nStart, &nCount) {
				out[path] = lineShift{gone: true} // unreadable: carry nothing of the file
				continue
			}
			s := out[path]
			s.hunks = append(s.hunks, [3]int{oStart, oCount, nCount})
			out[path] = s
			left = oCount + nCount
		}
	}
	if unknown || sc.Err() != nil {
		for _, p := range paths {
			if _, ok := out[p]; !ok {
				out[p] = lineShift{gone: true}
			}
		}
	}
	return out
}

// diffName is the path of a "--- " or "+++ " line without its prefix, ""
// for /dev/null (git ends a name holding a space with a tab).
func diffName(b []byte, prefix string) string {
	p := strings.TrimSuffix(string(b), "\t")
	if p == "/dev/null" {
		return ""
	}
	return strings.TrimPrefix(p, prefix)
}

// hunkCounts reads "@@ -oStart[,oCount] +nStart[,nCount] @@".
func hunkCounts(h string, oStart, oCount, nStart, nCount *int) bool {
	f := strings.Fields(h)
	if len(f) < 3 || !strings.HasPrefix(f[1], "-") || !strings.HasPrefix(f[2], "+") {
		return false
	}
	read := func(s string, start, count *int) bool {
		a, b, found := strings.Cut(s, ",")
		*count = 1
		n, err := strconv.Atoi(a)
		if err != nil || n < 0 {
			return false
		}
		*start = n
		if found {
			if *count, err = strconv.Atoi(b); err != nil || *count < 0 {
				return false
			}
		}
		return true
	}
	return read(f[1][1:], oStart, oCount) && read(f[2][1:], nStart, nCount)
}

// newLine is where old line n of a file is in the new commit, false when
// the diff changed or removed it.
func (s lineShift) newLine(n int) (int, bool) {
	if s.gone {
		return 0, false
	}
	shift := 0
	for _, h := range s.hunks {
		start, oldCount, newCount := h[0], h[1], h[2]
		switch {
		case oldCount > 0 && n >= start && n < start+oldCount:
			return 0, false // a changed line
		case oldCount > 0 && start+oldCount-1 < n, oldCount == 0 && start < n:
			shift += newCount - oldCount // a hunk above it
		}
	}
	return n + shift, true
}

// shiftFiles moves files' ranges by moved (nil: no line is known kept).
func shiftFiles(files []trace.File, moved map[string]lineShift) []trace.File {
	if moved == nil {
		return []trace.File{}
	}
	return mapRanges(files, func(path string, c trace.Conversation) ([]trace.Range, bool) {
		s := moved[path] // absent: the diff left the file as it was
		var ranges []trace.Range
		for _, rg := range c.Ranges {
			ranges = append(ranges, shiftRange(rg, s)...)
		}
		return ranges, len(ranges) > 0
	})
}

// maxShiftLines bounds the lines one range is walked for (a note's ranges
// are a claim: 1..2,000,000,000 would be walked line by line).
const maxShiftLines = 100000

// shiftRange is rg's unchanged lines at their new numbers, as runs; the
// content hash stays only on a range kept whole and in one piece.
func shiftRange(rg trace.Range, s lineShift) []trace.Range {
	if rg.StartLine < 1 || rg.EndLine < rg.StartLine || rg.EndLine-rg.StartLine >= maxShiftLines {
		return nil
	}
	var out []trace.Range
	for n := rg.StartLine; n <= rg.EndLine; n++ {
		m, ok := s.newLine(n)
		if !ok {
			continue
		}
		if k := len(out); k > 0 && out[k-1].EndLine == m-1 {
			out[k-1].EndLine = m
			continue
		}
		out = append(out, trace.Range{StartLine: m, EndLine: m})
	}
	if len(out) == 1 && out[0].EndLine-out[0].StartLine == rg.EndLine-rg.StartLine {
		out[0].ContentHash = rg.ContentHash
	}
	return out
}

// carrier is what a refresh needs to carry this clone's copied records to
// the commits they were rewritten into, for one update: the commits each
// was rewritten from (preds: the rewrite map, read once, only when a copy
// is met), the diffs it may still read (budget, as rewriteDiffsMax bounds
// mapRewritten's), and what it could not carry (errs): reported after the
// update, which goes on, the copy then carrying nothing.
type carrier struct {
	preds  func(string) []string
	budget int
	errs   []error
}

// newCarrier reads g's rewrite map when first asked (an error reading it
// is one of errs; nothing is then carried).
func (g Git) newCarrier(ctx context.Context) *carrier {
	c := &carrier{budget: rewriteDiffsMax}
	var rewrites map[string][]string
	loaded := false
	c.preds = func(commit string) []string {
		if !loaded {
			loaded = true
			var err error
			if rewrites, err = g.LoadRewrites(ctx); err != nil {
				c.errs = append(c.errs, fmt.Errorf("forgotten conversations not carried by rewrite: %w", err))
			}
		}
		ps, _ := predecessors(rewrites, commit)
		return ps
	}
	return c
}

// carriedNote is a carried link's reason: it claims no count, as those of
// the old commit are not the new one's (replacing any earlier reason, an
// earlier "carried from" too).
func carriedNote(from string) string {
	return "carried from " + from[:12] + ": its lines the rewrite did not change"
}

// ownCopy is old, this clone's record that git copied onto commit from a
// commit this clone rewrote into it (notes.rewriteRef; c.preds: the
// commits commit was rewritten from), made a record about commit: its
// lines moved where the rewrite put them (as mapRewritten moves a copy's)
// and kept only where commit itself adds them (its first-parent diff), a
// line the rewrite changed or commit does not add given to no one, the
// evidence of a file so cut dropped. Each link then speaks of commit only: its reason says where
// it was carried from and claims no count, its added lines are not known
// (0), its matched files are those it still has lines in, its written
// lines at most those. A refresh then keeps of it what it keeps of its own
// record: the conversations forgotten here, clipped to the lines the
// rebuilt record gives no conversation (forget is local, an amend or a
// rebase after it too). Nothing is added: the copy already shared what it
// says. Any other old is returned as it is (a copy of a commit not
// rewritten into commit keeps nothing, as before), and so is a copy whose
// diff or added lines cannot be read, or past c.budget (the failure one of
// c.errs).
func (g Git) ownCopy(ctx context.Context, commit string, old *trace.Record, c *carrier) *trace.Record {
	if old == nil || old.VCS == nil || strings.EqualFold(old.VCS.Revision, commit) {
		return old
	}
	from := strings.ToLower(old.VCS.Revision)
	if !slices.Contains(c.preds(commit), from) || len(from) < 12 {
		return old
	}
	r := *old
	r.Metadata = maps.Clone(old.Metadata) // SetMeta writes into it
	r.VCS = &trace.VCS{Type: "git", Revision: commit}
	lines := func(files []trace.File) map[[2]string]int {
		n := map[[2]string]int{}
		for _, f := range files {
			for _, c := range f.Conversations {
				for _, rg := range c.Ranges {
					n[[2]string{f.Path, trace.ConversationID(c.URL)}] += max(0, rg.EndLine-rg.StartLine+1)
				}
			}
		}
		return n
	}
	if len(r.Files) > 0 {
		fail := func(err error) *trace.Record {
			c.errs = append(c.errs, fmt.Errorf("forgotten conversations of %s not carried to %s: %w", from[:12], commit[:min(12, len(commit))], err))
			return old
		}
		if c.budget <= 0 {
			return fail(fmt.Errorf("more than %d rewritten commits in one update", rewriteDiffsMax))
		}
		c.budget--
		moved, err := g.lineShifts(ctx, from, commit, r.Files)
		if err != nil {
			return fail(err)
		}
		// The diff from old moves lines; only commit's own diff says which
		// of them it adds (a split's part keeps only its own, a rebase onto
		// an upstream already holding some adds those no more).
		paths := make([]string, 0, len(r.Files))
		for _, f := range r.Files {
			paths = append(paths, f.Path)
		}
		diffs, err := g.diffs(ctx, []string{commit}, paths...)
		if err != nil {
			return fail(fmt.Errorf("its added lines: %w", err))
		}
		r.Files = shiftFiles(r.Files, moved)
		r = clip(r, diffs[strings.ToLower(commit)].added)
	}
	m, _ := r.Meta()
	cut, had := map[[2]string]bool{}, map[string]bool{}
	after := lines(r.Files)
	for k, n := range lines(old.Files) {
		if after[k] < n {
			cut[k] = true
		}
		had[k[1]] = had[k[1]] || n > 0
	}
	dropCut(&m, r, cut)
	kept := map[string]int{}
	for k, n := range after {
		kept[k[1]] += n
	}
	convs := make(map[string]trace.ConvMeta, len(m.Conversations))
	for id, cm := range m.Conversations {
		if had[id] && kept[id] == 0 {
			// commit adds none of its lines, as the rewrite left them (it
			// changed or removed them all, or commit does not add them):
			// no claim on commit.
			continue
		}
		if cm.IsDerived() && cm.Derived == "" {
			cm.Derived = "squash" // its reason said so; the reason is replaced
		}
		cm.Reason = carriedNote(from)
		cm.AddedLines = 0
		cm.WrittenLines = min(cm.WrittenLines, kept[id])
		cm.PositionLines = min(cm.PositionLines, cm.WrittenLines)
		var files []string
		for _, p := range cm.MatchedFiles {
			if after[[2]string{p, id}] > 0 {
				files = append(files, p)
			}
		}
		cm.MatchedFiles = files
		convs[id] = cm
	}
	m.Conversations = convs
	r.SetMeta(m)
	return &r
}

// ownOld is the record of this clone's that a refresh of commit starts
// from, of those in its note (olds, in the note's order): the last, as
// before, unless git copied onto commit a record about a commit this
// clone rewrote into it that names a conversation the rebuilt record does
// not link (linked: its conversations), one forget may have left: only
// then are lines moved. git concatenates such a copy with a record
// already there (one a hook wrote first), either way round: then it is
// the copies moved to commit's lines (ownCopy) joined, and beside the
// record about commit itself, if any, as a refresh keeps a forgotten
// conversation beside the rebuilt record. That record's view of a
// conversation stands whole: the copies only add the conversations it
// does not name, their lines of no one yielding to its, and it alone says
// who else wrote the lines it names. No join changes an entry's
// contributor type (joinTyped).
func (g Git) ownOld(ctx context.Context, commit string, olds []trace.Record, linked map[string]bool, c *carrier) *trace.Record {
	var about, moved []trace.Record
	for i := range olds {
		r := &olds[i]
		if r.VCS != nil && strings.EqualFold(r.VCS.Revision, commit) {
			about = append(about, *r)
		} else if unlinks(*r, linked) {
			if m := g.ownCopy(ctx, commit, r, c); m != r {
				moved = append(moved, *m)
			}
		}
	}
	switch {
	case len(moved) == 0:
		return lastOf(olds)
	case len(about) == 0 && len(moved) == 1:
		return &moved[0]
	}
	copies := joinTyped(moved)
	if len(about) == 0 {
		return &copies
	}
	self := joinTyped(about)
	sm, _ := self.Meta()
	named := map[string]bool{}
	for id := range sm.Conversations {
		named[id] = true
	}
	for _, f := range self.Files {
		for _, cv := range f.Conversations {
			if cv.URL != "" {
				named[trace.ConversationID(cv.URL)] = true
			}
		}
	}
	copies = sift(copies, func(id string) bool { return named[id] }, false)
	said := claimedRanges(self, func(trace.Conversation) bool { return true })
	copies, _ = cutLines(copies, said, func(c trace.Conversation) bool { return c.URL == "" })
	taken := claimedRanges(self, func(c trace.Conversation) bool { return c.URL != "" })
	copies, cut := cutLines(copies, taken, func(c trace.Conversation) bool { return c.URL != "" })
	m, _ := copies.Meta()
	dropCut(&m, copies, cut)
	copies.SetMeta(m)
	ids := map[string]bool{}
	for id := range m.Conversations {
		ids[id] = true
	}
	merged := joinTyped([]trace.Record{yieldLines(self, copies, ids), copies})
	return &merged
}

// unlinks reports whether r, a copy, names a conversation of its own
// (not derived) that linked, the rebuilt record's, does not: one forget
// may have left, the only kind a refresh keeps of a copy moved.
func unlinks(r trace.Record, linked map[string]bool) bool {
	m, _ := r.Meta()
	for id, c := range m.Conversations {
		if !linked[id] && !c.IsDerived() {
			return true
		}
	}
	return false
}

// joinTyped is recs joined (trace.MergeAll), a conversation keeping in each
// file the kind of its first entry there: a later record's entry of that
// conversation and file of another kind (a person's "mixed" lines beside
// "ai" ones, squashed in from another commit) is left out, with its
// evidence, its written lines capped, so that a carried note gives a
// forgotten conversation one word on a file (docs/sharing.md). MergeAll
// alone would keep both entries.
func joinTyped(recs []trace.Record) trace.Record {
	types := map[[2]string]string{}
	typeOf := func(c trace.Conversation) string {
		if c.Contributor == nil {
			return ""
		}
		return c.Contributor.Type
	}
	out := make([]trace.Record, 0, len(recs))
	for _, r := range recs {
		cut := map[[2]string]bool{}
		ours := map[[2]string]string{}
		r.Files = mapRanges(r.Files, func(path string, c trace.Conversation) ([]trace.Range, bool) {
			k := [2]string{path, c.URL}
			if t, ok := types[k]; c.URL != "" && ok && t != typeOf(c) {
				cut[[2]string{path, trace.ConversationID(c.URL)}] = true
				return nil, false
			}
			ours[k] = typeOf(c)
			return c.Ranges, true
		})
		maps.Copy(types, ours)
		if len(cut) > 0 {
			r.Metadata = maps.Clone(r.Metadata) // SetMeta writes into it
			m, _ := r.Meta()
			dropCut(&m, r, cut)
			r.SetMeta(m)
		}
		out = append(out, r)
	}
	return trace.MergeAll(out)
}
