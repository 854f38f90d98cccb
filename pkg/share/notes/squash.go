package notes

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/git-convo/git-convo/pkg/attribution/link"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/trace"
	"github.com/git-convo/git-convo/pkg/util/atomicfile"
)

// A squash or rebase merge made on the server (GitHub's "Squash and merge")
// arrives as a new commit with no note. It gets the conversations of the
// commits it joins only when structure and substance agree: the candidate
// is neither an ancestor nor a descendant of the noted commit, was
// committed after it, and reproduces, in the same files, a real share of
// the distinctive lines the conversation wrote there, in runs. Lines that
// the repository already had before the candidate (braces, return, package
// and import lines) count for nothing: they match any commit.

const (
	// squashScan bounds how many recent commits of a remote are examined.
	squashScan = 200
	// squashMinRun is how many distinctive lines a run of matching lines
	// must hold to count: two scattered lines are a coincidence.
	squashMinRun = 2
	// squashMinShare is the share of a noted commit's distinctive lines, of
	// one conversation, a candidate must reproduce in runs.
	squashMinShare = 0.5
	// squashFrequent is in how many noted commits' evidence a line must be
	// to count for nothing.
	squashFrequent = 3
	// squashMaxNoted bounds the noted commits one candidate is checked
	// against (two git processes each): a candidate that shares
	// distinctive lines with more is not told apart, so not claimed.
	squashMaxNoted = 32
	// DerivedShareMin is the confidence from which a derived record is
	// written to the shared notes (docs/sharing.md); below it, it stays in
	// this clone (git-convo-derived.jsonl).
	DerivedShareMin = 0.8
	// DerivedSquash marks a link derived from a squash or rebase merge.
	DerivedSquash = "squash"
)

// evidence is what a note says one conversation wrote in one file of a
// commit, as line hashes, kept once checked against the commit's own diff.
type evidence struct {
	commit, conv, path string
	lines              map[string]string // line hash -> the line, as the commit adds it
}

// Squashes finds the recent commits of remote's branches that have no note
// and reproduce other notes' evidence, and returns a record for each,
// attributing the reproduced lines to the conversations that wrote them.
// Nothing is written: the caller keeps or shares the records.
func (g Git) Squashes(ctx context.Context, remote string, o BuildOptions) (map[string]trace.Record, error) {
	return g.SquashesIn(ctx, []string{"--remotes=" + remote}, o)
}

// SquashesIn is Squashes for the commits git log selects with revs (after a
// pull, the range it brought). A repository without notes costs one git
// for-each-ref.
func (g Git) SquashesIn(ctx context.Context, revs []string, o BuildOptions) (map[string]trace.Record, error) {
	refs, err := g.SharedRefs(ctx)
	if err != nil {
		return nil, err
	}
	index, err := g.listNotes(ctx, refs, nil)
	if err != nil || len(index) == 0 {
		return map[string]trace.Record{}, err
	}
	derived, _ := g.LoadDerived(ctx)
	args := append([]string{"-c", "log.showSignature=false", "log", "--no-merges", "-n", fmt.Sprint(squashScan), "--format=%H"}, revs...)
	out, err := g.run(ctx, nil, append(args, "--")...)
	if err != nil {
		return nil, err
	}
	var cands []string
	for _, h := range strings.Fields(string(out)) {
		if len(index[h]) == 0 && derived[h] == nil {
			cands = append(cands, h)
		}
	}
	return g.squashesOf(ctx, refs, cands, nil, o)
}

// lineHashesOf is the added lines of diffs (each commit's), hashed as
// evidence is: the lines a squash reading looks for in notes.
func lineHashesOf(diffs map[string]commitDiff) map[string]bool {
	want := map[string]bool{}
	for _, d := range diffs {
		for _, ls := range d.added {
			for _, l := range ls {
				if link.Countable(l.Text) {
					want[trace.LineHash(l.Text)] = true
				}
			}
		}
	}
	return want
}

// squashesOf derives the records of cands from the evidence of the notes
// on refs (skip: notes left out, as share clean judges their own records).
func (g Git) squashesOf(ctx context.Context, refs, cands []string, skip map[string]bool, o BuildOptions) (map[string]trace.Record, error) {
	return g.squashesOfDiffs(ctx, refs, cands, skip, nil, o)
}

// squashesOfDiffs is squashesOf with cands' diffs in hand (nil: read).
func (g Git) squashesOfDiffs(ctx context.Context, refs, cands []string, skip map[string]bool, diffs map[string]commitDiff, o BuildOptions) (map[string]trace.Record, error) {
	res := map[string]trace.Record{}
	if len(cands) == 0 {
		return res, nil
	}
	if diffs == nil {
		var err error
		if diffs, err = g.diffs(ctx, cands); err != nil {
			return nil, err
		}
	}
	want := lineHashesOf(diffs)
	if len(want) < squashMinRun {
		return res, nil
	}
	// The evidence that names them: git grep finds the notes that mention
	// one; only those are read.
	noted, err := g.notesMentioning(ctx, refs, want)
	if err != nil || len(noted) == 0 {
		return res, err
	}
	for _, c := range cands {
		delete(noted, c)
	}
	for c := range skip {
		delete(noted, c)
	}
	// A copy (rebase merge, cherry-pick) is known by its patch: it takes
	// the noted commit's lines by position, and the squash rule below
	// judges only the other candidates.
	rd, err := g.readNoted(ctx, refs, noted)
	if err != nil {
		return nil, err
	}
	notes := noteRangesOf(rd)
	copies, err := g.copiesOf(ctx, cands, notes, diffs, o)
	if err != nil {
		return nil, err
	}
	for h, r := range copies {
		res[h] = r
	}
	// A squash whose files are those of a branch tip takes the noted lines
	// by position through git blame of the tip; the line-run rule below
	// judges only the candidates neither rule placed.
	var rest []string
	for _, h := range cands {
		if _, copied := copies[h]; !copied {
			rest = append(rest, h)
		}
	}
	tipped, err := g.tipSquashes(ctx, rest, notes, diffs, o)
	if err != nil {
		return nil, err
	}
	for h, r := range tipped {
		res[h] = r
	}
	sources, metas, srcDiffs := squashSources(rd)
	if len(sources) == 0 {
		return res, nil
	}
	// A line in the evidence of several noted commits is frequent: a
	// sampled count of the repository, free, that weeds out most common
	// lines before any git process runs.
	seenIn := map[string]map[string]bool{}
	for _, e := range sources {
		for l := range e.lines {
			if seenIn[l] == nil {
				seenIn[l] = map[string]bool{}
			}
			seenIn[l][e.commit] = true
		}
	}
	frequent := map[string]bool{}
	for l, cs := range seenIn {
		if len(cs) >= squashFrequent {
			frequent[l] = true
		}
	}
	for _, h := range cands {
		if _, done := res[h]; done {
			continue
		}
		if rec, ok := g.squashOf(ctx, h, diffs[h], sources, srcDiffs, metas, frequent, o); ok {
			res[h] = rec
		}
	}
	return res, nil
}

// squashSources keeps of the noted commits' notes the evidence a reader
// may believe: of records about their commit, of links recorded rather than
// derived (a squash of a squash proves nothing new), and of lines the
// commit itself adds to that file (checked against its diff: a commit this
// clone lacks cannot be checked, so its evidence is not used).
func squashSources(rd notedRead) ([]evidence, map[string]trace.ConvMeta, map[string]commitDiff) {
	var claimed []evidence
	metas := map[string]trace.ConvMeta{}
	for c, t := range rd.texts {
		rec, ok := Combine(decodeClaims(c, t))
		if !ok {
			continue
		}
		m, _ := rec.Meta()
		for _, e := range m.Evidence {
			cm, ok := m.Conversations[e.Conversation]
			if !ok || cm.IsDerived() {
				continue
			}
			lines := map[string]string{}
			for _, h := range e.Lines {
				lines[h] = ""
			}
			claimed = append(claimed, evidence{c, e.Conversation, e.Path, lines})
			cm.SharedBy = Sharer(cm, m)
			if old, seen := metas[e.Conversation]; !seen || cm.Confidence > old.Confidence {
				metas[e.Conversation] = cm
			}
		}
	}
	diffs := rd.diffs
	var out []evidence
	for _, e := range claimed {
		d, ok := diffs[e.commit]
		if !ok {
			continue
		}
		added := map[string]string{}
		for _, l := range d.added[e.path] {
			added[trace.LineHash(l.Text)] = l.Text
		}
		for h := range e.lines {
			t, ok := added[h]
			if !ok {
				delete(e.lines, h) // a hash of a line the commit never added
				continue
			}
			e.lines[h] = t
		}
		if len(e.lines) > 0 {
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		return a.conv+"\x00"+a.commit+"\x00"+a.path < b.conv+"\x00"+b.commit+"\x00"+b.path
	})
	return out, metas, diffs
}

// squashMatch is what one candidate reproduces of one conversation's
// evidence in one noted commit.
type squashMatch struct {
	noted, reproduced int
	lines             map[string][]int // candidate path -> lines in runs
}

// squashOf judges one candidate against the evidence: ok is false unless
// some conversation's lines are reproduced as the rules ask.
func (g Git) squashOf(ctx context.Context, h string, d commitDiff, sources []evidence, srcDiffs map[string]commitDiff,
	metas map[string]trace.ConvMeta, frequent map[string]bool, o BuildOptions) (trace.Record, bool) {
	// The candidate's lines that could be distinctive: evidence sharing
	// fewer than squashMinRun of them cannot make a squash, so its commit
	// costs no git process.
	mayCount := map[string]bool{}
	for _, ls := range d.added {
		for _, l := range ls {
			if t := link.NormLine(l.Text); link.Distinctive(t) && !frequent[trace.LineHash(t)] {
				mayCount[trace.LineHash(t)] = true
			}
		}
	}
	related := map[string]bool{} // noted commit -> may the candidate join it
	var texts []string
	for _, e := range sources {
		shared := 0
		for l := range e.lines {
			if mayCount[l] {
				shared++
			}
		}
		if shared < squashMinRun {
			continue
		}
		if _, seen := related[e.commit]; !seen {
			if len(related) == squashMaxNoted {
				return trace.Record{}, false // it matches too much to tell
			}
			related[e.commit] = !srcDiffs[e.commit].time.After(d.time) && !g.ancestry(ctx, e.commit, h)
		}
	}
	for _, e := range sources {
		if related[e.commit] {
			for _, t := range e.lines {
				texts = append(texts, t)
			}
		}
	}
	if len(texts) == 0 {
		return trace.Record{}, false
	}
	for _, ls := range d.added {
		for _, l := range ls {
			texts = append(texts, l.Text)
		}
	}
	common := g.commonLines(ctx, h, d, texts) // lines that count for nothing
	renames := map[string]map[string]string{}
	matches := map[[2]string]*squashMatch{} // {conv, noted commit}
	for _, e := range sources {
		if !related[e.commit] {
			continue
		}
		p := e.path
		if _, ok := d.added[p]; !ok {
			if renames[e.commit] == nil {
				renames[e.commit] = g.renamed(ctx, e.commit, h)
			}
			p = renames[e.commit][e.path]
		}
		rare := map[string]bool{}
		for l := range e.lines {
			if !common[l] && !frequent[l] {
				rare[l] = true
			}
		}
		k := [2]string{e.conv, e.commit}
		m := matches[k]
		if m == nil {
			m = &squashMatch{lines: map[string][]int{}}
			matches[k] = m
		}
		m.noted += len(rare)
		if p == "" {
			continue // the file is not in the candidate: nothing reproduced
		}
		got, lines := runs(d.added[p], e.lines, rare)
		m.reproduced += got
		m.lines[p] = append(m.lines[p], lines...)
	}
	// Per conversation, the noted commits it joins and the share it keeps.
	type joined struct {
		noted, reproduced int
		commits           []string
	}
	byConv := map[string]*joined{}
	writers := map[string]map[int]string{}
	keys := make([][2]string, 0, len(matches))
	for k := range matches {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i][0]+keys[i][1] < keys[j][0]+keys[j][1] })
	for _, k := range keys {
		m := matches[k]
		if m.noted == 0 || m.reproduced < squashMinRun || float64(m.reproduced) < squashMinShare*float64(m.noted) {
			continue
		}
		j := byConv[k[0]]
		if j == nil {
			j = &joined{}
			byConv[k[0]] = j
		}
		j.noted += m.noted
		j.reproduced += m.reproduced
		j.commits = append(j.commits, k[1])
		for p, ls := range m.lines {
			if writers[p] == nil {
				writers[p] = map[int]string{}
			}
			for _, n := range ls {
				if writers[p][n] == "" {
					writers[p][n] = k[0]
				}
			}
		}
	}
	if len(byConv) == 0 {
		return trace.Record{}, false
	}
	// Text tells whose a distinctive line is, never whose the rest are: a
	// brace or return below a line a person rewrote may be the agent's, a
	// typed function may be anyone's. The lines no run holds are unknown,
	// not a person's (Unexamined), so this record never claims a person.
	in := trace.Input{Commit: h, Time: d.time, Added: d.added, Writers: writers, Unexamined: true, Root: o.Root, Home: o.Home,
		ToolVersion: o.ToolVersion, Writer: o.Writer}
	for conv, j := range byConv {
		cm := metas[conv]
		shas := make([]string, 0, len(j.commits))
		for _, c := range j.commits {
			shas = append(shas, c[:min(len(c), 7)])
		}
		sort.Strings(shas)
		share := float64(j.reproduced) / float64(j.noted)
		conf := math.Round(share*cm.Confidence*100) / 100
		reason := fmt.Sprintf("squash of %s: %d of %d distinctive lines reproduced", strings.Join(shas, ", "), j.reproduced, j.noted)
		in.Links = append(in.Links, trace.Link{ID: conv, Agent: cm.Agent, Model: cm.Model, Title: cm.Title,
			Summary: cm.Summary, Status: "auto", Reason: reason, Confidence: conf,
			WrittenLines: countConv(writers, conv), Derived: DerivedSquash, SharedBy: cm.SharedBy})
	}
	sort.Slice(in.Links, func(i, j int) bool { return in.Links[i].ID < in.Links[j].ID })
	return trace.Build(in), true
}

// runs finds in a candidate's added lines of one file the runs of the
// conversation's lines (blank lines inside a run keep it going) that hold
// at least squashMinRun distinctive lines: it returns how many distinct
// distinctive lines those runs reproduce, and their line numbers. A run
// starts at its first distinctive line (the brace and return of the
// function before it are someone else's) and ends at its last one, or at
// the first blank line after it (a function's closing lines follow it).
func runs(added []gitx.AddedLine, lines map[string]string, rare map[string]bool) (int, []int) {
	type entry struct {
		line       int
		hash       string
		afterBlank bool
	}
	reproduced := map[string]bool{}
	var out []int
	var cur []entry
	prev, blank := -1, false
	flush := func() {
		first, last := -1, -1
		distinct := map[string]bool{}
		for i, e := range cur {
			if rare[e.hash] {
				if first < 0 {
					first = i
				}
				last = i
				distinct[e.hash] = true
			}
		}
		if len(distinct) >= squashMinRun {
			end := last + 1
			for end < len(cur) && !cur[end].afterBlank {
				end++
			}
			for _, e := range cur[first:end] {
				out = append(out, e.line)
			}
			for h := range distinct {
				reproduced[h] = true
			}
		}
		cur, blank = nil, false
	}
	for _, l := range added {
		if l.Line != prev+1 {
			flush()
		}
		prev = l.Line
		if !link.Countable(l.Text) {
			blank = true
			continue
		}
		h := trace.LineHash(l.Text)
		if _, ok := lines[h]; !ok {
			flush()
			continue
		}
		cur = append(cur, entry{l.Line, h, blank})
		blank = false
	}
	flush()
	return len(reproduced), out
}

// ancestry reports whether a and b are on one line of history (either is
// an ancestor of the other): a squash joins a branch, never its own past.
func (g Git) ancestry(ctx context.Context, a, b string) bool {
	for _, p := range [][2]string{{a, b}, {b, a}} {
		_, err := g.run(ctx, nil, "merge-base", "--is-ancestor", p[0], p[1])
		if err == nil || exitCode(err) != 1 {
			return true // an ancestor, or not known: not a squash
		}
	}
	return false
}

// renamed maps the paths renamed between commits from and to (git's rename
// detection), old path to new.
func (g Git) renamed(ctx context.Context, from, to string) map[string]string {
	out := map[string]string{}
	b, err := g.run(ctx, nil, append(append([]string{}, diffOptions...), "diff", "--name-status", "-z", "-M",
		"--diff-filter=R", "--no-ext-diff", from, to, "--")...)
	if err != nil {
		return out
	}
	f := bytes.Split(b, []byte{0})
	for i := 0; i+2 < len(f); i += 3 {
		out[link.NormPath(string(f[i+1]))] = link.NormPath(string(f[i+2]))
	}
	return out
}

// commonLines is the hashes of texts (the candidate's added lines and the
// evidence it is judged against) that count for nothing: too short to tell
// anything (a brace, "return"), or already in the repository before the
// candidate, in the directories it changes (its parent's tree: package and
// import lines, "return nil", a closing brace), at any indentation. One git
// grep, over those directories only.
func (g Git) commonLines(ctx context.Context, h string, d commitDiff, texts []string) map[string]bool {
	common := map[string]bool{}
	var pats []string
	seen := map[string]bool{}
	for _, t := range texts {
		t = link.NormLine(t)
		if !link.Countable(t) || seen[t] {
			continue
		}
		seen[t] = true
		if !link.Distinctive(t) {
			common[trace.LineHash(t)] = true
			continue
		}
		pats = append(pats, strings.TrimSpace(t))
	}
	if len(pats) == 0 {
		return common
	}
	f, err := os.CreateTemp("", "git-convo-lines-*")
	if err != nil {
		return common
	}
	defer os.Remove(f.Name())
	_, werr := f.WriteString(strings.Join(pats, "\n") + "\n")
	if err := f.Close(); err != nil || werr != nil {
		return common
	}
	args := []string{"grep", "-h", "-I", "--no-color", "-F", "-f", f.Name(), h + "^", "--"}
	dirs := map[string]bool{}
	for p := range d.added {
		dirs[path.Dir(p)] = true
	}
	for dir := range dirs {
		if dir == "." {
			args = append(args, ":(top,glob)*")
		} else {
			args = append(args, ":(top,literal)"+dir)
		}
	}
	out, _ := g.run(ctx, nil, args...) // exit 1: none; a root commit: nothing before it
	before := map[string]bool{}
	for _, l := range strings.Split(string(out), "\n") {
		before[strings.TrimSpace(l)] = true
	}
	for t := range seen {
		if before[strings.TrimSpace(t)] {
			common[trace.LineHash(t)] = true
		}
	}
	return common
}

// Shareable reports whether a derived record may go to the shared notes:
// every link it holds is at DerivedShareMin or above.
func Shareable(r trace.Record) bool {
	m, _ := r.Meta()
	for _, c := range m.Conversations {
		if c.Confidence < DerivedShareMin {
			return false
		}
	}
	return len(m.Conversations) > 0
}

// notesMentioning returns the commits whose note on one of refs holds one
// of the line hashes in want, as a JSON string: one git grep over the notes
// trees, so that a large history's notes are not all read and decoded.
func (g Git) notesMentioning(ctx context.Context, refs []string, want map[string]bool) (map[string]bool, error) {
	pats := make([]string, 0, len(want))
	for h := range want {
		pats = append(pats, "\""+h+"\"")
	}
	return g.grepNotes(ctx, refs, pats)
}

// grepNotes returns the commits whose note on one of refs holds one of the
// fixed strings pats: one git grep over the notes trees.
func (g Git) grepNotes(ctx context.Context, refs, pats []string) (map[string]bool, error) {
	f, err := os.CreateTemp("", "git-convo-hashes-*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	_, werr := f.WriteString(strings.Join(pats, "\n") + "\n")
	if err := f.Close(); err != nil || werr != nil {
		return nil, errors.Join(err, werr)
	}
	args := append([]string{"grep", "-l", "-z", "-F", "--no-color", "-f", f.Name()}, refs...)
	out, err := g.run(ctx, nil, append(args, "--")...)
	if exitCode(err) == 1 {
		return nil, nil // no note mentions one
	}
	if err != nil {
		return nil, err
	}
	noted := map[string]bool{}
	for _, name := range bytes.Split(out, []byte{0}) {
		for _, ref := range refs {
			if path, ok := bytes.CutPrefix(name, []byte(ref+":")); ok {
				noted[strings.ReplaceAll(string(path), "/", "")] = true
				break
			}
		}
	}
	return noted, nil
}

func countConv(writers map[string]map[int]string, conv string) int {
	n := 0
	for _, ls := range writers {
		for _, c := range ls {
			if c == conv {
				n++
			}
		}
	}
	return n
}

// derivedFile holds the records a clone that does not share derived, in
// the git common dir.
const derivedFile = "git-convo-derived.jsonl"

// derivedPath is where a clone that does not share keeps the records it
// derived (squash merges): beside its git data, on no ref.
func (g Git) derivedPath(ctx context.Context) (string, error) {
	return g.commonPath(ctx, derivedFile)
}

// commonPath is the file name in the repository's git common dir, where
// git-convo keeps its state beside git's data.
func (g Git) commonPath(ctx context.Context, name string) (string, error) {
	// Found without running git when it can be (every read command asks).
	if abs, err := filepath.Abs(g.Dir); err == nil && os.Getenv("GIT_DIR") == "" {
		if loc, ok := gitx.FindRepoForPath(abs); ok {
			return filepath.Join(loc.CommonDir, name), nil
		}
	}
	_, common, err := g.where(ctx)
	if err != nil {
		return "", err
	}
	return filepath.Join(common, name), nil
}

// LoadDerived reads the records this clone derived, by commit.
func (g Git) LoadDerived(ctx context.Context) (map[string][]byte, error) {
	p, err := g.derivedPath(ctx)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return map[string][]byte{}, nil
	}
	out := map[string][]byte{}
	for _, r := range Decode(b) {
		if r.VCS != nil {
			out[r.VCS.Revision] = Encode([]trace.Record{r})
		}
	}
	return out, nil
}

// SaveDerived adds records to the derived file.
func (g Git) SaveDerived(ctx context.Context, recs map[string]trace.Record) error {
	if len(recs) == 0 {
		return nil
	}
	p, err := g.derivedPath(ctx)
	if err != nil {
		return err
	}
	have, _ := g.LoadDerived(ctx)
	var all []trace.Record
	for c, t := range have {
		if _, replaced := recs[c]; !replaced {
			all = append(all, Decode(t)...)
		}
	}
	for _, r := range recs {
		all = append(all, r)
	}
	return atomicfile.Write(p, Encode(all), 0o644)
}
