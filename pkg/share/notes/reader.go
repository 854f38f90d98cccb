package notes

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"sync"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/trace"
	"github.com/git-convo/git-convo/pkg/store"
)

// Reader reads shared notes for a read command: it finds the notes refs in
// process and reads each commit's note by its path on each ref (no listing
// of the notes trees) from the object files, with no process; where the
// files cannot tell, one git cat-file, kept open, answers instead. log has git log print them (NewInlineReaderAfter).
type Reader struct {
	g       Git
	ready   chan struct{}
	refs    []string            // the notes refs that exist
	index   map[string][]string // commit -> note blobs on every ref
	derived map[string][]byte   // records this clone derived (squash merges), on no ref
	// rewrites maps each commit this clone amended or rebased into to the
	// commit it was (RecordRewrites): a predecessor's records are read
	// for it, copied by rewrite.
	rewrites map[string][]string
	err      error

	indexOnce sync.Once // index is listed only for All

	// local reads notes from the object files, no process (nil: only
	// cat-file can, see gitx.BlobsInProcess).
	local *gitx.Repo
	// own is this clone's writer where a tracking ref the live ref has not
	// merged whole is read (else ""): its records there are older than the
	// live ref's, which alone are read (dropWriter). liveNotes, with
	// index, are the live ref's notes, as commit+blob: a blob alone may be
	// the live ref's note of another commit (a note copied) and a tracking
	// ref's of this one.
	own       string
	liveNotes map[string]bool
	// fileRefs are the refs the links file keeps: refs, with those the
	// live ref has merged whole.
	fileRefs []string
	// fetched: teammates' notes were fetched (a tracking ref exists,
	// merged or not).
	fetched bool

	keptMu sync.Mutex
	kept   map[string]*trace.Record // Keep: each commit's record read (nil: none), nil unless kept
	// partial: the commits whose record read is copies by rewrite that do
	// not name every line the commit added (Whole).
	partial map[string]bool
	added   AddedCache // UseAddedCache: what diffs added, kept (nil: none)

	mu  sync.Mutex
	cat *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

// NewReader starts finding the notes of the repository at dir.
func NewReader(ctx context.Context, dir string) *Reader {
	return NewReaderAfter(ctx, dir, nil)
}

// NewReaderAfter is NewReader that finds the notes once after is closed
// (nil: at once): a read command's drain of the commit queue may first
// derive records (squash merges a pull brought).
func NewReaderAfter(ctx context.Context, dir string, after <-chan struct{}) *Reader {
	return newReader(ctx, dir, after, true)
}

// NewInlineReaderAfter is NewReaderAfter for a caller that reads the notes'
// text itself, with the commits (git log --notes=<ref> and %N, see Refs and
// MergeLinkedText): it starts no git process unless Records is asked.
func NewInlineReaderAfter(ctx context.Context, dir string, after <-chan struct{}) *Reader {
	return newReader(ctx, dir, after, false)
}

// newReader finds the refs in process and reads the derived records; with
// cat, it starts git cat-file for Records while the command's own git works.
func newReader(ctx context.Context, dir string, after <-chan struct{}, cat bool) *Reader {
	r := &Reader{g: Git{Dir: dir}, ready: make(chan struct{})}
	go func() {
		defer close(r.ready)
		if after != nil {
			<-after
		}
		if r.refs, r.err = r.g.SharedRefs(ctx); r.err == nil {
			r.derived, r.err = r.g.LoadDerived(ctx)
		}
		r.fetched = slices.ContainsFunc(r.refs, func(ref string) bool { return strings.HasPrefix(ref, trackingPrefix) })
		if r.err == nil && len(r.refs) > 0 {
			r.rewrites, _ = r.g.LoadRewrites(ctx) // unreadable: no copy is read
		}
		if len(r.refs) > 0 {
			if repo, ok := gitx.Discover(dir, r.g.getenv); ok && repo.PlainObjects(r.g.getenv) {
				r.local = repo // cat-file only if the files cannot answer
				// The links file keeps a merged ref too: a fetch that
				// moves it again then reads only what it changed.
				r.fileRefs = r.refs
				r.refs = unmergedRefs(repo, r.refs)
			}
		}
		if len(r.refs) > 1 && slices.Contains(r.refs, Ref) {
			if st, err := r.g.Settings(ctx); err == nil {
				r.own = st.Writer
			}
		}
		if cat && r.err == nil && len(r.refs) > 0 && r.local == nil {
			r.mu.Lock()
			_ = r.startCat(ctx)
			r.mu.Unlock()
		}
	}()
	return r
}

// OwnFromLive says whether this clone's records must be told from their
// older copies on a tracking ref it has not merged (a plain git fetch moved
// it): a reader of git log's notes (%N, every ref's joined) cannot, so it
// reads through Records instead.
func (r *Reader) OwnFromLive() bool {
	<-r.ready
	return r.own != ""
}

// fromLive says whether note query q for commit h (a ref:path, or a blob
// of the index) reads the live ref.
func (r *Reader) fromLive(h, q string) bool {
	if r.index != nil {
		return r.liveNotes[h+q]
	}
	return strings.HasPrefix(q, Ref+":")
}

// dropWriter is note text without writer's records: this clone is the
// authority on its own, which only the live ref holds as they are now (an
// unlink since, a record removed). Other lines stay as they were.
func dropWriter(text []byte, writer string) []byte {
	var out []byte
	for _, line := range bytes.Split(text, []byte{'\n'}) {
		if recs := Decode(line); len(recs) == 1 {
			if m, _ := recs[0].Meta(); m.Writer == writer {
				continue
			}
		}
		out = append(append(out, line...), '\n')
	}
	return out
}

// mergedMax bounds the notes commits unmergedRefs walks back from the live
// ref's tip: the writes since its last merge of a remote's notes.
const mergedMax = 64

// unmergedRefs is refs without the tracking refs the live ref (Ref) has
// merged whole: those whose tip is the live ref's or one of its ancestors,
// as the object files tell within mergedMax commits. Every note such a ref
// holds, the live ref holds as this clone has changed it since (an unlink,
// a withdrawal, its own record written again); read beside it, the ref
// would bring back this clone's older records, as if a teammate's, until
// its next push. A ref the files cannot place is kept, as before.
func unmergedRefs(repo *gitx.Repo, refs []string) []string {
	if len(refs) < 2 {
		return refs
	}
	tips, ok := repo.RefTipsFromFiles(refs)
	if !ok || tips[Ref] == "" {
		return refs
	}
	out := refs[:0:0]
	for _, ref := range refs {
		if ref != Ref {
			if merged, known := repo.Reaches(tips[Ref], tips[ref], mergedMax); known && merged {
				continue
			}
		}
		out = append(out, ref)
	}
	return out
}

// listed returns when the index of every note is listed (All, and
// Records of many commits).
func (r *Reader) listed(ctx context.Context) {
	<-r.ready
	r.indexOnce.Do(func() {
		if r.err == nil && len(r.refs) > 0 {
			if r.own != "" {
				r.liveNotes = map[string]bool{}
			}
			r.index, r.err = r.g.listNotes(ctx, r.refs, r.liveNotes)
		}
	})
}

// Refs returns the notes refs that exist: an inline reader's caller reads
// these refs' notes.
func (r *Reader) Refs() []string {
	<-r.ready
	return r.refs
}

// listNotes maps each commit with a note on refs to the note blobs; live,
// when not nil, gets the live ref's notes (Ref), each as commit+blob.
func (g Git) listNotes(ctx context.Context, refs []string, live map[string]bool) (map[string][]string, error) {
	var index map[string][]string
	for _, ref := range refs {
		// A vanished or unreadable ref is skipped: the other refs still answer.
		out, err := g.run(ctx, nil, "ls-tree", "-r", "-z", "--full-tree", ref)
		if err != nil {
			continue
		}
		if index == nil {
			// Sized once: growing it took half of reading 23,000 notes.
			index = make(map[string][]string, bytes.Count(out, []byte{0}))
		}
		eachBlobEntry(out, func(commit, blob string) {
			if commit == "" {
				return // no note git reads
			}
			index[commit] = append(index[commit], blob)
			if live != nil && ref == Ref {
				live[commit+blob] = true
			}
		})
	}
	if index == nil {
		index = map[string][]string{}
	}
	return index, nil
}

// eachNote calls fn with each commit that has a note on ref and the note's
// blob (the notes tree may fan the commit's hash out into directories).
func (g Git) eachNote(ctx context.Context, ref string, fn func(commit, blob string)) error {
	out, err := g.run(ctx, nil, "ls-tree", "-r", "-z", "--full-tree", ref)
	if err != nil {
		return err
	}
	eachBlobEntry(out, func(commit, blob string) {
		if commit != "" { // else no note git reads
			fn(commit, blob)
		}
	})
	return nil
}

// eachBlobEntry calls fn with each blob of git ls-tree -r -z's out
// ("<mode> <type> <object>\t<path>\0") and the commit its path names
// (notePath; "" for a blob git reads as no note): a notes tree of 23,000
// notes is read without splitting it into fields.
func eachBlobEntry(out []byte, fn func(commit, blob string)) {
	for len(out) > 0 {
		entry := out
		if i := bytes.IndexByte(out, 0); i >= 0 {
			entry, out = out[:i], out[i+1:]
		} else {
			out = nil
		}
		meta, path, ok := bytes.Cut(entry, []byte{'\t'})
		_, meta, ok1 := bytes.Cut(meta, []byte{' '}) // the mode
		typ, object, ok2 := bytes.Cut(meta, []byte{' '})
		if !ok || !ok1 || !ok2 || string(typ) != "blob" || len(object) == 0 || bytes.IndexByte(object, ' ') >= 0 {
			continue
		}
		fn(notePath(path), string(object))
	}
}

// notePath is the commit whose note a notes tree's path holds, as git
// reads the tree (notes.c, load_subtree): 40 hex digits, of which each
// directory holds two (the fan-out); "" for any other path, which git
// reads as no note.
func notePath(path []byte) string {
	var buf [40]byte
	commit := buf[:0]
	for len(path) > 0 {
		part := path
		if i := bytes.IndexByte(path, '/'); i >= 0 {
			if i != 2 {
				return "" // a directory of other than two digits
			}
			part, path = path[:i], path[i+1:]
		} else {
			path = nil
		}
		if len(commit)+len(part) > len(buf) {
			return ""
		}
		for _, c := range part {
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return ""
			}
		}
		commit = append(commit, part...)
	}
	if len(commit) != len(buf) {
		return ""
	}
	return string(commit)
}

// Keep has Records remember what it read, so that a command asking for
// the same commits twice (blame: their links, then their lines) reads and
// decodes each note once. The records handed out then share their slices:
// a caller must not change them in place (clip makes new ones).
func (r *Reader) Keep() {
	r.keptMu.Lock()
	defer r.keptMu.Unlock()
	if r.kept == nil {
		r.kept = map[string]*trace.Record{}
	}
}

// Records returns the merged shared record of each of hashes that has one.
func (r *Reader) Records(ctx context.Context, hashes []string) (map[string]trace.Record, error) {
	r.keptMu.Lock()
	defer r.keptMu.Unlock()
	if r.kept == nil {
		return r.records(ctx, hashes)
	}
	out := map[string]trace.Record{}
	var todo []string
	for _, h := range hashes {
		rec, ok := r.kept[h]
		switch {
		case !ok:
			todo = append(todo, h)
		case rec != nil:
			out[h] = *rec
		}
	}
	if len(todo) == 0 {
		return out, nil
	}
	read, err := r.records(ctx, todo)
	if err != nil {
		return nil, err
	}
	for _, h := range todo {
		rec, ok := read[h]
		if !ok {
			r.kept[h] = nil
			continue
		}
		r.kept[h], out[h] = &rec, rec
	}
	return out, nil
}

// records is Records, read.
func (r *Reader) records(ctx context.Context, hashes []string) (map[string]trace.Record, error) {
	<-r.ready
	out := map[string]trace.Record{}
	if r.err != nil || len(r.refs) == 0 && len(r.derived) == 0 {
		return out, r.err
	}
	// A rewritten commit's predecessors' notes are read too.
	ask, preds, cut := hashes, map[string][]string{}, map[string]bool{}
	if len(r.rewrites) > 0 {
		at := map[string]bool{}
		for _, h := range hashes {
			at[h] = true
		}
		for _, h := range hashes {
			ps, c := predecessors(r.rewrites, h)
			if len(ps) == 0 {
				continue
			}
			preds[h], cut[h] = ps, c
			for _, p := range ps {
				if !at[p] {
					at[p] = true
					ask = append(ask[:len(ask):len(ask)], p)
				}
			}
		}
	}
	queries, per := r.noteQueries(ctx, ask)
	var contents [][]byte
	if len(queries) > 0 {
		ok := false
		if r.local != nil {
			// A note over the bound is nil, never held: skipped, as
			// readInOrder skips it (doctor counts it, Bounds).
			contents, _, ok = r.local.BlobsInProcess(queries, MaxNoteBytes, r.g.getenv)
		}
		if !ok {
			var err error
			if contents, err = r.readInOrder(ctx, queries); err != nil {
				return nil, err
			}
		}
	}
	if r.own != "" {
		for i, h := range ask {
			for j := per[i]; j < per[i+1]; j++ {
				if contents[j] != nil && !r.fromLive(h, queries[j]) {
					contents[j] = dropWriter(contents[j], r.own)
				}
			}
		}
	}
	index := make(map[string]int, len(ask))
	for i, h := range ask {
		index[h] = i
	}
	// parts is h's derived record and notes; found: any.
	parts := func(h string) ([][]byte, bool) {
		ps := [][]byte{r.derived[h]}
		found := r.derived[h] != nil
		i := index[h]
		for _, c := range contents[per[i]:per[i+1]] {
			if c != nil {
				ps, found = append(ps, c), true
			}
		}
		return ps, found
	}
	own := func(p string) []trace.Record {
		ps, _ := parts(p)
		return Decode(joinLines(ps...))
	}
	budget := rewriteDiffsMax
	for _, h := range hashes {
		ps, found := parts(h)
		if !found && preds[h] == nil {
			continue
		}
		recs := Decode(joinLines(ps...))
		direct := claims(h, recs)
		cs, told := copiedFrom(h, preds[h], recs, own, direct)
		moved := r.g.mapRewritten(ctx, h, cs, &budget)
		if len(cs) > 0 && (!moved || cut[h] || untold(firstCommits(r.rewrites, preds[h]), told)) {
			if r.partial == nil {
				r.partial = map[string]bool{}
			}
			r.partial[h] = true
		}
		for _, c := range cs {
			direct = append(direct, c.rec)
		}
		if rec, ok := Combine(direct); ok {
			if len(cs) > 0 {
				rec = knownOverUnknown(rec)
			}
			rec.VCS = &trace.VCS{Type: "git", Revision: h}
			out[h] = rec
		}
	}
	return out, nil
}

// byPathMax is how many commits are looked up by path: cat-file resolves
// each path from the ref's tree, which beats listing every note (ls-tree)
// for a few commits (show) and loses to it for hundreds (300 ms against
// 130 ms for 1,000 commits, BenchmarkReadNotes1000).
const byPathMax = 64

// noteQueries are the cat-file queries for hashes' notes, and where each
// hash's answers start (per[i]:per[i+1]).
func (r *Reader) noteQueries(ctx context.Context, hashes []string) (queries []string, per []int) {
	if len(hashes) > byPathMax {
		r.listed(ctx)
	}
	per = append(per, 0)
	for _, h := range hashes {
		if r.index != nil {
			queries = append(queries, r.index[h]...)
		} else {
			// A note sits at the commit's hash on each ref, flat or under
			// the fan-out directories git makes as notes grow: ask for
			// every form; cat-file says "missing" for the others.
			for _, ref := range r.refs {
				queries = append(queries, ref+":"+h)
				if len(h) > 4 {
					queries = append(queries, ref+":"+h[:2]+"/"+h[2:], ref+":"+h[:2]+"/"+h[2:4]+"/"+h[4:])
				}
			}
		}
		per = append(per, len(queries))
	}
	return queries, per
}

// All returns every shared record, by commit: the last commit of each
// chain this clone rewrote from one with a record is among them (its
// copy), even when git copied no note onto it (the note is on a tracking
// ref only).
func (r *Reader) All(ctx context.Context) (map[string]trace.Record, error) {
	r.listed(ctx)
	var hashes []string
	for h := range r.index {
		hashes = append(hashes, h)
	}
	for h := range r.derived {
		if r.index[h] == nil {
			hashes = append(hashes, h)
		}
	}
	later := map[string]bool{} // rewritten again: the latest commit stands for them
	for _, olds := range r.rewrites {
		for _, old := range olds {
			later[old] = true
		}
	}
	for h := range r.rewrites {
		if r.index[h] != nil || r.derived[h] != nil || later[h] {
			continue
		}
		ps, _ := predecessors(r.rewrites, h)
		for _, p := range ps {
			if r.index[p] != nil || r.derived[p] != nil {
				hashes = append(hashes, h)
				break
			}
		}
	}
	return r.Records(ctx, hashes)
}

func (r *Reader) startCat(ctx context.Context) error {
	if r.cat != nil {
		return nil
	}
	cmd := r.g.cmd(ctx, "cat-file", "--batch")
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	r.cat, r.in, r.out = cmd, in, bufio.NewReader(out)
	return nil
}

// readInOrder asks the long-lived git cat-file for objects (any name
// cat-file takes: "<ref>:<path>"), and returns their contents in order,
// nil for a missing one.
func (r *Reader) readInOrder(ctx context.Context, queries []string) ([][]byte, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.startCat(ctx); err != nil {
		return nil, err
	}
	werr := make(chan error, 1)
	go func() {
		_, err := io.WriteString(r.in, strings.Join(queries, "\n")+"\n")
		werr <- err
	}()
	res := make([][]byte, len(queries))
	for i := range queries {
		_, typ, content, err := readObject(r.out)
		if errors.Is(err, errTooLarge) {
			continue // read past, left out (res[i] stays nil)
		}
		if err == io.EOF {
			return nil, fmt.Errorf("git cat-file: %w", io.ErrUnexpectedEOF)
		}
		if err != nil {
			return nil, err
		}
		if typ == "blob" {
			res[i] = content
		}
	}
	return res, <-werr
}

// Close ends the cat-file process.
func (r *Reader) Close() {
	<-r.ready // the background start of cat-file is over
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cat != nil {
		_ = r.in.Close()
		_ = r.cat.Wait()
		r.cat = nil
	}
}

// MergeLinked adds to linked (the local database's links of hashes) the
// conversations shared notes name: one the local database already links
// stays as it is, with what it lacks (title, summary) filled in from the
// note; others are added with Source SourceNotes. This is the one call the
// read commands make.
func (r *Reader) MergeLinked(ctx context.Context, hashes []string, linked map[string][]store.LinkedConversation) error {
	recs, err := r.Records(ctx, hashes)
	if err != nil {
		return err
	}
	for c, rec := range recs {
		linked[c] = mergeLinks(linked[c], Linked(c, rec))
	}
	return nil
}

// MergeLinkedText is MergeLinked for an inline reader's caller: text holds
// each commit's notes as git log's %N printed them (every ref's note, one
// after the other); commits without a note need no entry. It returns the
// commits this clone amended or rebased into (their predecessors' notes are
// read too): the caller reads them with MergeLinked.
func (r *Reader) MergeLinkedText(hashes []string, text map[string]string, linked map[string][]store.LinkedConversation) (rewritten []string) {
	<-r.ready
	for _, h := range hashes {
		if len(r.rewrites[h]) > 0 {
			rewritten = append(rewritten, h)
			continue
		}
		t := text[h]
		if t == "" && r.derived[h] == nil {
			continue
		}
		if lcs := linkedFromNote(h, r.derived[h], t); lcs != nil {
			linked[h] = mergeLinks(linked[h], lcs)
		}
	}
	return rewritten
}

// LinksIndex is the links file (linksindex.go) for the refs an inline
// reader's caller has git log print (Refs), brought up to date: then git
// log prints no note and MergeLinkedIndexed answers. nil, and why, where
// it cannot answer for those refs as git log's notes would: objects read
// through replacements or grafts, hashes other than SHA-1, tips the ref
// files do not tell.
func (r *Reader) LinksIndex(ctx context.Context) (*LinksIndex, error) {
	<-r.ready
	switch {
	case r.err != nil:
		return nil, r.err
	case len(r.refs) == 0 || r.local == nil || r.local.ObjectFormat != "sha1" && r.local.ObjectFormat != "":
		return nil, nil
	}
	tips, ok := r.local.RefTipsFromFiles(r.fileRefs)
	if !ok {
		return nil, nil
	}
	return r.g.OpenLinksIndex(ctx, r.local.CommonDir, tips, r.local)
}

// MergeLinkedIndexed is MergeLinkedText with x (LinksIndex) for the notes'
// text: it returns the commits x cannot answer for (a note that is not
// the usual one, notes on more than one ref that are not one note, a
// commit this clone rewrote into or derived a record of), which the caller
// reads with MergeLinked.
func (r *Reader) MergeLinkedIndexed(hashes []string, x *LinksIndex, linked map[string][]store.LinkedConversation) (rest []string) {
	<-r.ready
	var got []indexed
	for _, h := range hashes {
		if len(r.rewrites[h]) > 0 || r.derived[h] != nil {
			rest = append(rest, h)
			continue
		}
		got = got[:0]
		x.lookup(h, r.refs, func(e indexed) { got = append(got, e) })
		e, ok := r.oneNote(got)
		switch {
		case len(got) == 0:
		case !ok || e.kind == entryLong:
			rest = append(rest, h)
		default:
			if lcs := linkedIndexed(h, e.kind, e.value); lcs != nil {
				linked[h] = mergeLinks(linked[h], lcs)
			}
		}
	}
	return rest
}

// oneNote is the note the refs' entries of one commit (got) come to as
// Records reads them; !ok where the notes must be read. One entry is its
// note. In a clone whose own records come from the live ref alone (own),
// another ref's note is read (its lines of this clone dropped) unless the
// live ref holds the same note: Records joins the notes line by line, each
// line once, and the lines it drops are the live ref's too.
func (r *Reader) oneNote(got []indexed) (e indexed, ok bool) {
	switch {
	case r.own == "":
		if len(got) == 1 {
			return got[0], true
		}
		return e, false
	case len(got) == 0:
		return e, false
	}
	live := slices.IndexFunc(got, func(e indexed) bool { return e.ref == Ref })
	if live < 0 {
		return e, false
	}
	for _, o := range got {
		if o.blob != got[live].blob || o.kind == entryLong {
			return e, false
		}
	}
	return got[live], true
}

// MergeLineWriters adds to writers (per commit, path and line, who wrote
// it: blame's data) the AI lines of shared notes, for commits the local
// database has no line evidence of: only lines the commit added (clip).
func (r *Reader) MergeLineWriters(ctx context.Context, hashes []string, writers map[string]map[string]map[int]store.LineWriter, recorded map[string]bool) error {
	return r.mergeLines(ctx, hashes, writers, recorded, r.ClippedRecords)
}

// MergeLineWritersIn is MergeLineWriters for the files named paths only
// (blame: the blamed file's names in its history, as git blame prints
// them): writers gets no other file's lines, and git diffs no other file.
func (r *Reader) MergeLineWritersIn(ctx context.Context, hashes, paths []string, writers map[string]map[string]map[int]store.LineWriter, recorded map[string]bool) error {
	return r.mergeLines(ctx, hashes, writers, recorded, func(ctx context.Context, hashes []string) (map[string]trace.Record, error) {
		return r.clippedRecordsIn(ctx, hashes, paths)
	})
}

// MergeDerivedLinesIn is MergeLineWritersIn for own, commits this clone
// examined itself (recorded), whose shared record holds a derived link: a
// squash of teammates' commits made here by git reset --soft, which this
// clone's note reads as one (teammatesSquashed). Their lines no local
// conversation wrote are then the record's: its derived links' lines, and
// unknown where the record names no one. Only those commits are clipped.
func (r *Reader) MergeDerivedLinesIn(ctx context.Context, own, paths []string, writers map[string]map[string]map[int]store.LineWriter, recorded map[string]bool) error {
	need, err := r.DerivedOwn(ctx, own)
	if err != nil {
		return err
	}
	return r.addLines(ctx, need, writers, recorded, func(ctx context.Context, hashes []string) (map[string]trace.Record, error) {
		return r.clippedRecordsIn(ctx, hashes, paths)
	})
}

// MergeDerivedLines is MergeDerivedLinesIn for every file of the commits
// (pr).
func (r *Reader) MergeDerivedLines(ctx context.Context, own []string, writers map[string]map[string]map[int]store.LineWriter, recorded map[string]bool) error {
	need, err := r.DerivedOwn(ctx, own)
	if err != nil {
		return err
	}
	return r.addLines(ctx, need, writers, recorded, r.ClippedRecords)
}

// DerivedOwn is those of own (commits this clone examined itself) whose
// shared record holds a derived link (MergeDerivedLinesIn), in order. Such
// a record is this clone's reading of teammates' fetched notes
// (teammatesSquashed): with none fetched, no record is read (else stats
// of 1,000 commits in a clone that shares alone read the notes of the 250
// with a person's line for nothing: 35 ms more on 20,000 notes).
func (r *Reader) DerivedOwn(ctx context.Context, own []string) ([]string, error) {
	if len(own) == 0 {
		return nil, nil
	}
	<-r.ready
	if !r.fetched {
		return nil, nil
	}
	recs, err := r.Records(ctx, own)
	if err != nil {
		return nil, err
	}
	var need []string
	for _, h := range own {
		rec, ok := recs[h]
		if !ok {
			continue
		}
		m, _ := rec.Meta()
		for _, c := range m.Conversations {
			if c.IsDerived() {
				need = append(need, h)
				break
			}
		}
	}
	return need, nil
}

// mergeLines adds the AI lines of the records read (clipped or not) for
// the commits recorded lacks.
func (r *Reader) mergeLines(ctx context.Context, hashes []string, writers map[string]map[string]map[int]store.LineWriter, recorded map[string]bool,
	read func(context.Context, []string) (map[string]trace.Record, error)) error {
	var need []string
	for _, h := range hashes {
		if !recorded[h] {
			need = append(need, h)
		}
	}
	return r.addLines(ctx, need, writers, recorded, read)
}

// addLines adds the AI lines of the records read for need; each commit
// read counts as examined only where its record names every line (Whole).
func (r *Reader) addLines(ctx context.Context, need []string, writers map[string]map[string]map[int]store.LineWriter, recorded map[string]bool,
	read func(context.Context, []string) (map[string]trace.Record, error)) error {
	if len(need) == 0 {
		return nil
	}
	recs, err := read(ctx, need)
	if err != nil {
		return err
	}
	for c, rec := range recs {
		addLineWriters(writers, c, rec)
		recorded[c] = r.Whole(c, rec)
	}
	return nil
}

// Whole reports whether rec, the record Records read for commit, names
// every line commit added, so that a line it gives no conversation is a
// person's: it names no line no one's (HasUnknown), and it is not copies by
// rewrite that cannot (one of a squash's commits had no record, or a
// copy's lines could not be moved to commit: read past rewriteDiffsMax, or
// its diff unreadable). A copy names the lines of the commit it was
// written for; the others of the new commit are not known.
func (r *Reader) Whole(commit string, rec trace.Record) bool {
	r.keptMu.Lock()
	defer r.keptMu.Unlock()
	return !r.partial[commit] && !HasUnknown(rec)
}

// HasUnknown reports a record that gives some added lines to no one
// (contributor unknown: its commit's lines were not examined, or a
// conversation was withdrawn): its AI lines are its writers', but a line
// it names no writer of is not a person's. A "mixed" file of a link scored
// with no line evidence (added_lines 0, as a link is scored on a commit
// whose lines were not examined) is such lines too: the records written
// before Unexamined took precedence over mixed (trace.Build) marked a
// commit's unexamined lines so.
func HasUnknown(rec trace.Record) bool {
	var meta *trace.Meta
	for _, f := range rec.Files {
		for _, c := range f.Conversations {
			if c.Contributor == nil {
				continue
			}
			switch c.Contributor.Type {
			case "unknown":
				return true
			case "mixed":
				if meta == nil {
					m, _ := rec.Meta()
					meta = &m
				}
				if meta.Conversations[trace.ConversationID(c.URL)].AddedLines == 0 {
					return true
				}
			}
		}
	}
	return false
}

func addLineWriters(writers map[string]map[string]map[int]store.LineWriter, c string, rec trace.Record) {
	meta, _ := rec.Meta()
	for _, f := range rec.Files {
		for _, conv := range f.Conversations {
			id := trace.ConversationID(conv.URL)
			if id == "" || conv.Contributor == nil || conv.Contributor.Type != "ai" {
				continue
			}
			if writers[c] == nil {
				writers[c] = map[string]map[int]store.LineWriter{}
			}
			if writers[c][f.Path] == nil {
				writers[c][f.Path] = map[int]store.LineWriter{}
			}
			w := lineWriter(meta, id)
			for _, rg := range conv.Ranges {
				for n := rg.StartLine; n <= rg.EndLine; n++ {
					if _, local := writers[c][f.Path][n]; !local { // a local writer stays (OpenRewrites)
						writers[c][f.Path][n] = w
					}
				}
			}
		}
	}
}

// lineWriter is the writer a record's metadata (meta) gives the lines of
// conversation id. The note's lines are its writer's claim: by position
// only when all of that conversation's lines were so found there.
func lineWriter(meta trace.Meta, id string) store.LineWriter {
	w := store.LineWriter{ConversationID: id, Evidence: store.EvidenceText}
	switch cm := meta.Conversations[id]; {
	case cm.RewrittenFrom != "":
		w.Evidence = store.EvidenceRewrite // a copy's line the rewrite left as it was
	case cm.WrittenLines > 0 && cm.PositionLines == cm.WrittenLines:
		w.Evidence = store.EvidencePosition
	}
	return w
}

// Conversations returns every conversation shared notes name, with the
// commits they link it to, strongest first, each with the conversation's
// metadata as that note has it.
func (r *Reader) Conversations(ctx context.Context) (map[string][]store.LinkedConversation, error) {
	recs, err := r.All(ctx)
	if err != nil {
		return nil, err
	}
	return ByConversation(recs), nil
}

// Conversation returns the links of the one conversation shared notes name
// whose id is prefix or starts with it (none: nil). Two conversations
// matching a prefix are an error.
func (r *Reader) Conversation(ctx context.Context, prefix string) ([]store.LinkedConversation, error) {
	all, err := r.Conversations(ctx)
	if err != nil {
		return nil, err
	}
	return Find(all, prefix)
}

// Find picks from Conversations' answer the conversation whose id is
// prefix or starts with it (none: nil); two matching are an error.
func Find(all map[string][]store.LinkedConversation, prefix string) ([]store.LinkedConversation, error) {
	if prefix == "" {
		return nil, nil
	}
	if links, ok := all[prefix]; ok {
		return links, nil
	}
	var found []store.LinkedConversation
	for id, links := range all {
		if !strings.HasPrefix(id, prefix) {
			continue
		}
		if found != nil {
			return nil, fmt.Errorf("conversation %q is ambiguous in shared notes: %s, %s", prefix, found[0].ConversationID, id)
		}
		found = links
	}
	return found, nil
}
