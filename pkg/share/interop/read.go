package interop

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/interop/agenttrace"
	"github.com/git-convo/git-convo/pkg/share/interop/gitai"
	"github.com/git-convo/git-convo/pkg/share/interop/trailers"
	"github.com/git-convo/git-convo/pkg/share/notes"
)

// GitAITrackingRef is where install fetches a remote's git-ai notes: never
// into refs/notes/ai itself, which belongs to git-ai.
func GitAITrackingRef(remote string) string { return "refs/notes/remotes/" + remote + "/ai" }

// Refs lists the other tools' notes refs the repository at dir has:
// refs/notes/ai, every remote's refs/notes/remotes/<remote>/ai, and
// refs/notes/agent-trace. From the ref files, as the convo refs are found
// (no process); where only git can tell, one git for-each-ref. In
// CompareRefs' order.
func Refs(ctx context.Context, g notes.Git) []string {
	keep := func(ref string) bool { return ref == agenttrace.Ref || IsGitAIRef(ref) }
	if refs, ok := g.RefsFromFiles(keep, gitai.Ref, agenttrace.Ref, notes.TrackingPrefix+"*/ai"); ok {
		slices.SortFunc(refs, CompareRefs)
		return refs
	}
	b, err := gitx.Command(ctx, g.Dir, g.Env, "for-each-ref", "--format=%(refname)", "refs/notes/").Output()
	if err != nil {
		return nil
	}
	var out []string
	for _, r := range strings.Fields(string(b)) {
		if keep(r) {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, CompareRefs)
	return out
}

// Reader reads other tools' notes for the read commands.
type Reader struct {
	repo   *gitx.Repo
	g      notes.Git
	getenv func(string) string
	refs   []string
	index  map[string]map[string][2]string // ref -> commit -> note's path and blob, listed once for many commits
	many   bool                            // the caller reads many commits, batch by batch: list at once
}

// ExpectMany says the caller will read many commits in batches (log): the
// notes are listed at the first batch, however small.
func (r *Reader) ExpectMany() {
	if r != nil {
		r.many = true
	}
}

// NewReader is a reader over refs (Refs); with none, it reads nothing.
func NewReader(repo *gitx.Repo, g notes.Git, refs []string) *Reader {
	refs = slices.SortedFunc(slices.Values(refs), CompareRefs)
	return &Reader{repo: repo, g: g, getenv: gitx.Getenv(g.Env), refs: refs, index: map[string]map[string][2]string{}}
}

// IsGitAIRef reports a ref holding git-ai's notes: refs/notes/ai, or a
// remote's copy of it that install fetches (GitAITrackingRef).
func IsGitAIRef(ref string) bool {
	return ref == gitai.Ref || strings.HasPrefix(ref, notes.TrackingPrefix) && strings.HasSuffix(ref, "/ai") &&
		strings.Count(ref, "/") == 4
}

// CompareRefs orders other tools' refs as they are read: refs/notes/ai
// first, then the remotes' copies of it by name, then the others by name.
// A commit has one git-ai note: the first of these refs that holds one
// (this clone's own note wins over what a remote pushed; among remotes,
// the first by name). The same note fetched under two refs would
// otherwise count its lines twice, and two differing notes would both
// answer.
func CompareRefs(a, b string) int {
	rank := func(ref string) int {
		switch {
		case ref == gitai.Ref:
			return 0
		case IsGitAIRef(ref):
			return 1
		}
		return 2
	}
	return cmp.Or(cmp.Compare(rank(a), rank(b)), strings.Compare(a, b))
}

// byPathMax is how many commits' notes are looked up by path; for more,
// the ref's notes are listed once (one git ls-tree) and read by blob, as
// notes.Reader does for git-convo's own refs.
const byPathMax = 64

// Empty reports a repository with none of the refs: nothing to read.
func (r *Reader) Empty() bool { return r == nil || len(r.refs) == 0 }

// Lines is the claims on lines: commit -> path -> line -> claims.
type Lines map[string]map[string]map[int][]Claim

func (l Lines) add(commit, path string, start, end int, c Claim) {
	if l[commit] == nil {
		l[commit] = map[string]map[int][]Claim{}
	}
	if l[commit][path] == nil {
		l[commit][path] = map[int][]Claim{}
	}
	for n := start; n <= end; n++ {
		l[commit][path][n] = append(l[commit][path][n], c)
	}
}

// Skip is a note that was not read, and why (doctor counts them).
type Skip struct {
	Ref, Commit string
	Err         error
}

func (s Skip) Error() string {
	if s.Commit == "" { // the ref's, not one note's
		return fmt.Sprintf("%s: %v", s.Ref, s.Err)
	}
	return fmt.Sprintf("%s on %.12s: %v", s.Ref, s.Commit, s.Err)
}

// Read returns the claims other tools' notes make on commits' lines,
// and the notes (or records) it skipped. want limits which files' lines
// are kept (nil: all).
func (r *Reader) Read(ctx context.Context, commits []string, want func(path string) bool) (Lines, []Skip, error) {
	out := Lines{}
	skips, err := r.each(ctx, commits, want, nil, out.add)
	return out, skips, err
}

// ReadWriters is Read then Writers for each commit, for a caller that
// shows writers, not lines (log): each range is counted as a whole, not
// set apart line by line, so a note costs its size, not its lines.
// given holds, per ref, notes the caller has already (git log's %N): for
// those refs nothing is read, and a commit given none has no note; over
// names the commits whose given notes were too large to keep.
func (r *Reader) ReadWriters(ctx context.Context, commits []string, given map[string]Given) (map[string][]Writer, []Skip, error) {
	byCommit := make(map[string]*tallies, len(commits))
	arena := make([]tallies, 0, len(commits)) // one allocation for the commits' tallies
	last, cur := "", (*tallies)(nil)          // a note's ranges come together: its commit's tallies at hand
	skips, err := r.each(ctx, commits, nil, given, func(commit, path string, start, end int, c Claim) {
		if end < start {
			return // Read adds no line for it
		}
		if cur == nil || commit != last {
			if cur = byCommit[commit]; cur == nil {
				if len(arena) == cap(arena) {
					arena = make([]tallies, 0, 16)
				}
				arena = append(arena, tallies{list: make([]tally, 0, 2)}) // a git-ai note: a session and a person
				cur = &arena[len(arena)-1]
				byCommit[commit] = cur
			}
			last = commit
		}
		cur.add(path, start, end, c)
	})
	out := make(map[string][]Writer, len(byCommit))
	for commit, ts := range byCommit {
		out[commit] = ts.writers()
	}
	return out, skips, err
}

// add counts a range of c's lines in path (end >= start).
func (ts *tallies) add(path string, start, end int, c Claim) {
	t := ts.of(c)
	t.lines += end - start + 1
	if n := len(t.files); n == 0 || t.files[n-1] != path {
		t.files = append(t.files, path)
	}
}

// writers is what ts counted, each writer's files sorted once, in
// sortWriters' order.
func (ts *tallies) writers() []Writer {
	ws := make([]Writer, len(ts.list))
	for i, t := range ts.list {
		slices.Sort(t.files)
		ws[i] = Writer{Claim: t.claim, Lines: t.lines, Files: slices.Compact(t.files)}
	}
	sortWriters(ws)
	return ws
}

// tallies are one commit's writers as ReadWriters counts them, in the
// order the notes name them.
type tallies struct {
	list []tally
	last int           // the tally found last: a note names a writer range after range
	at   map[Claim]int // index in list, once the list is long
}

type tally struct {
	claim Claim
	lines int
	files []string // in the note's order, repeats of a file not in a row kept
}

// talliesByScan is how many writers a commit's tallies are searched
// for by reading the list, not a map.
const talliesByScan = 8

// of is c's tally, new if c is not counted yet.
func (ts *tallies) of(c Claim) *tally {
	if ts.last < len(ts.list) && ts.list[ts.last].claim == c {
		return &ts.list[ts.last]
	}
	i, ok := -1, false
	if ts.at != nil {
		i, ok = ts.at[c]
	} else {
		for j := range ts.list {
			if ts.list[j].claim == c {
				i, ok = j, true
				break
			}
		}
	}
	if !ok {
		i = len(ts.list)
		ts.list = append(ts.list, tally{claim: c})
		if ts.at == nil && len(ts.list) > talliesByScan {
			ts.at = make(map[Claim]int, 2*len(ts.list))
			for j := range ts.list {
				ts.at[ts.list[j].claim] = j
			}
		} else if ts.at != nil {
			ts.at[c] = i
		}
	}
	ts.last = i
	return &ts.list[i]
}

// Given is the notes of one ref a caller has already (git log's %N of
// the commits it asks about): Notes by commit, and the commits whose note
// was too large to keep (skipped as the reader skips them).
type Given struct {
	Notes map[string]string
	Over  map[string]bool
}

// each calls add with every range other tools' notes claim on commits
// (want: of those files only; nil all), and returns the notes (or
// records) it skipped.
func (r *Reader) each(ctx context.Context, commits []string, want func(path string) bool, given map[string]Given,
	add func(commit, path string, start, end int, c Claim)) ([]Skip, error) {
	if r.Empty() || len(commits) == 0 {
		return nil, nil
	}
	var skips []Skip
	if i := slices.IndexFunc(commits, notObjectName); i >= 0 {
		ok := make([]string, 0, len(commits))
		for _, c := range commits {
			if notObjectName(c) {
				skips = append(skips, Skip{Ref: "other tools' notes", Commit: c, Err: errNotObjectName})
			} else {
				ok = append(ok, c)
			}
		}
		commits = ok
	}
	noted := map[string]bool{}   // commits whose git-ai note was read (CompareRefs: one a commit)
	for _, ref := range r.refs { // in CompareRefs' order (NewReader)
		gitAI := IsGitAIRef(ref)
		first := func(c string) bool {
			if !gitAI {
				return true
			}
			if noted[c] {
				return false // a copy on a later ref: its note is read already
			}
			noted[c] = true
			return true
		}
		if g, ok := given[ref]; ok {
			for c := range g.Over {
				if first(c) {
					skips = append(skips, Skip{Ref: ref, Commit: c, Err: errTooLarge})
				}
			}
			for c, note := range g.Notes {
				if first(c) {
					skips = append(skips, addClaims(add, ref, c, note, want)...)
				}
			}
			continue
		}
		ask := commits
		if gitAI && len(noted) > 0 {
			ask = make([]string, 0, len(commits))
			for _, c := range commits {
				if !noted[c] {
					ask = append(ask, c)
				}
			}
		}
		over := map[string]bool{}
		blobs, err := r.notesOn(ctx, ref, ask, over)
		if err != nil {
			return skips, err
		}
		for c := range over {
			if first(c) {
				skips = append(skips, Skip{Ref: ref, Commit: c, Err: errTooLarge})
			}
		}
		for c, b := range blobs {
			if first(c) {
				skips = append(skips, addClaims(add, ref, c, string(b), want)...)
			}
		}
	}
	return skips, nil
}

// errNotObjectName: a note sits at a commit's full hash (its fanned-out
// paths are cut from it), so nothing else is looked up.
var errNotObjectName = errors.New("not a full commit hash: no note looked up")

// notObjectName reports c is no full object name: 40 (SHA-1) or 64
// (SHA-256) hex digits.
func notObjectName(c string) bool {
	if len(c) != 40 && len(c) != 64 {
		return true
	}
	for i := 0; i < len(c); i++ {
		if b := c[i]; (b < '0' || b > '9') && (b|0x20 < 'a' || b|0x20 > 'f') {
			return true
		}
	}
	return false
}

// addClaims adds the claims of commit's note on ref, and says what it skipped.
func addClaims(add func(commit, path string, start, end int, c Claim), ref, commit, note string, want func(string) bool) []Skip {
	if ref == agenttrace.Ref {
		return addAgentTrace(add, ref, commit, []byte(note), want)
	}
	if err := addGitAI(add, commit, note, want); err != nil {
		return []Skip{{Ref: ref, Commit: commit, Err: err}}
	}
	return nil
}

// MaxClaimedLines bounds the lines one note's ranges may claim, summed:
// each is held as a line of its own, and ranges within the parsers' bounds
// (100,000 of them, to line 1,000,000) could claim 10^11.
const MaxClaimedLines = 200_000

// maxNoteBytes bounds the note read in process: a larger one is never
// inflated nor held (docs/reliability.md), and counted as skipped.
const maxNoteBytes = 8 << 20

var errTooLarge = errors.New("note over 8 MiB: skipped unread")

// notesOn reads commits' notes on ref (those over maxNoteBytes are named
// in over, unread): a note sits at the commit's hash,
// flat or fanned out (ab/cdef…, ab/cd/ef…) as git makes it when notes grow.
func (r *Reader) notesOn(ctx context.Context, ref string, commits []string, over map[string]bool) (map[string][]byte, error) {
	if len(commits) > byPathMax || r.many || r.index[ref] != nil {
		return r.notesByBlob(ctx, ref, commits, over)
	}
	var paths []string
	of := map[string]string{}
	for _, c := range commits {
		if notObjectName(c) {
			continue // each skips it: no path to cut
		}
		for _, p := range []string{c, c[:2] + "/" + c[2:], c[:2] + "/" + c[2:4] + "/" + c[4:]} {
			paths = append(paths, p)
			of[p] = c
		}
	}
	out := map[string][]byte{}
	names := make([]string, len(paths))
	for i, p := range paths {
		names[i] = ref + ":" + p
	}
	if blobs, large, ok := r.repo.BlobsInProcess(names, maxNoteBytes, r.getenv); ok {
		for i, b := range blobs {
			if large[i] {
				over[of[paths[i]]] = true
			} else if b != nil {
				out[of[paths[i]]] = b
			}
		}
		return out, nil
	}
	files, err := r.repo.FilesAt(ctx, ref, paths)
	if err != nil {
		return nil, err
	}
	for p, b := range files {
		out[of[p]] = b
	}
	return out, nil
}

// addGitAI adds a git-ai note's claims on commit.
func addGitAI(add func(commit, path string, start, end int, c Claim), commit, note string, want func(string) bool) error {
	l, err := readGitAI(commit, note)
	if err != nil {
		return err
	}
	for _, f := range l.Files {
		if want != nil && !want(f.Path) {
			continue
		}
		for _, e := range f.Entries {
			a, _ := l.Resolve(e.Key)
			c := GitAIClaim(a)
			for _, rg := range e.Ranges {
				add(commit, f.Path, rg.Start, rg.End, c)
			}
		}
	}
	return nil
}

// readGitAI is commit's git-ai note, or why every read skips it.
func readGitAI(commit, note string) (gitai.Log, error) {
	l, err := gitai.ParseString(note)
	if err != nil {
		return l, err
	}
	if l.Meta.BaseCommitSHA != "" && !strings.EqualFold(l.Meta.BaseCommitSHA, commit) {
		return l, fmt.Errorf("the log is about %.12s, not this commit (copied onto it?)", l.Meta.BaseCommitSHA)
	}
	claimed := 0
	for _, f := range l.Files {
		for _, e := range f.Entries {
			for _, rg := range e.Ranges {
				claimed += rg.End - rg.Start + 1
			}
		}
	}
	if claimed > MaxClaimedLines {
		return l, fmt.Errorf("the log claims %d lines, more than %d: skipped unread", claimed, MaxClaimedLines)
	}
	return l, nil
}

// GitAIClaim is the claim a git-ai attestation makes.
func GitAIClaim(a gitai.Author) Claim {
	c := Claim{Source: SourceGitAI, From: "git-ai's notes", Rank: RankEdit}
	if a.IsAI() {
		c.Attribution, c.Evidence = Agent, "git-ai checkpoint"
		c.Tool, c.Model, c.Session = a.Agent.Tool, a.Agent.Model, a.Agent.ID
		return c
	}
	c.Attribution, c.Evidence, c.Person = Human, "seen typed by git-ai", a.Human
	return c
}

// addAgentTrace adds the claims of another tool's Agent Trace records.
func addAgentTrace(add func(commit, path string, start, end int, c Claim), ref, commit string, b []byte, want func(string) bool) []Skip {
	n := agenttrace.Parse(commit, b)
	var skips []Skip
	for _, err := range n.Skipped {
		skips = append(skips, Skip{Ref: ref, Commit: commit, Err: err})
	}
	claimed := 0
	for _, r := range n.Records {
		for _, l := range r.Lines {
			claimed += l.End - l.Start + 1
		}
	}
	if claimed > MaxClaimedLines {
		return append(skips, Skip{Ref: ref, Commit: commit,
			Err: fmt.Errorf("the records claim %d lines, more than %d: skipped unread", claimed, MaxClaimedLines)})
	}
	for _, r := range n.Records {
		tool := agenttrace.ToolName(r.Record)
		from := "an Agent Trace record"
		if tool != "" {
			from = tool + "'s Agent Trace record"
		}
		for _, l := range r.Lines {
			if want != nil && !want(l.Path) {
				continue
			}
			c := Claim{Source: SourceAgentTrace, From: from, Evidence: "agent trace range", Rank: RankRange,
				Model: l.Contributor.ModelID, Session: l.URL}
			switch l.Contributor.Type {
			case "ai":
				c.Attribution, c.Tool = Agent, tool
			case "human":
				c.Attribution = Human
			default:
				c.Attribution = Unknown
			}
			add(commit, l.Path, l.Start, l.End, c)
		}
	}
	return skips
}

// TrailerClaims are the claims a commit message's trailers make on every
// line the commit added: which lines is not known (Commit is set).
func TrailerClaims(message string) []Claim {
	var out []Claim
	for _, a := range trailers.Parse(message) {
		out = append(out, Claim{Source: SourceTrailer, From: "a " + a.Trailer + " trailer", Evidence: "commit trailer",
			Rank: RankTrailer, Attribution: Agent, Tool: a.Tool, Model: a.Model, Session: a.Session, Commit: true})
	}
	return out
}

// notesByBlob reads commits' notes on ref through the listing of its
// notes (listed on first use), by blob hash.
func (r *Reader) notesByBlob(ctx context.Context, ref string, commits []string, over map[string]bool) (map[string][]byte, error) {
	idx := r.index[ref]
	if idx == nil {
		idx = map[string][2]string{}
		b, err := gitx.Command(ctx, r.g.Dir, r.g.Env, "ls-tree", "-r", "-z", "--full-tree", ref).Output()
		if err != nil {
			return nil, fmt.Errorf("listing %s: %v", ref, err)
		}
		for entry := range strings.SplitSeq(string(b), "\x00") {
			meta, path, ok := strings.Cut(entry, "\t")
			c := strings.ReplaceAll(path, "/", "")
			if f := strings.Fields(meta); ok && len(f) == 3 && f[1] == "blob" && !notObjectName(c) { // as git, no other path is a note
				idx[c] = [2]string{path, f[2]}
			}
		}
		r.index[ref] = idx
	}
	var names, paths, of []string
	for _, c := range commits {
		if e, ok := idx[c]; ok {
			paths, names, of = append(paths, e[0]), append(names, e[1]), append(of, c)
		}
	}
	out := map[string][]byte{}
	if len(names) == 0 {
		return out, nil
	}
	if blobs, large, ok := r.repo.BlobsInProcess(names, maxNoteBytes, r.getenv); ok {
		for i, b := range blobs {
			if large[i] {
				over[of[i]] = true
			} else if b != nil {
				out[of[i]] = b
			}
		}
		return out, nil
	}
	files, err := r.repo.FilesAt(ctx, ref, paths)
	if err != nil {
		return nil, err
	}
	for i, p := range paths {
		if b, ok := files[p]; ok {
			out[of[i]] = b
		}
	}
	return out, nil
}
