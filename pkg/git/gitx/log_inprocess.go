package gitx

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/git-convo/git-convo/pkg/git/odb"
	"github.com/go-git/go-git/v5/plumbing"
)

// log's common case without git: the commits `git log [-n <n>] [<rev>]`
// prints, walked from the repository's files in git's order with the
// fields StreamLog reads, where that can be told for sure. Every other
// argument or option, and everything ShowInProcess leaves to git (grafts,
// replacements, shallow clones, other encodings, a mailmap), is git's.
// A commit met mid-walk that only git reads for sure (an odd header,
// another encoding, a missing object) hands the rest of the walk to
// `git log --skip=<shown>` with the same arguments: git walks in the same
// order, so what it prints from there is what it would have printed.

// Local lets StreamLog walk a plain log in process: the directory the
// repository is found from, the environment, and its configuration as
// LoadSettingsInProcess reads it (ok false: git's to read).
type Local struct {
	dir      string
	getenv   func(string) string
	settings func() (*Settings, bool)
}

// NewLocal is Local for the repository of dir.
func NewLocal(dir string, getenv func(string) string, settings func() (*Settings, bool)) *Local {
	return &Local{dir: dir, getenv: getenv, settings: settings}
}

// plainLogArgs reads the arguments walked in process: -n <n>, -n<n>,
// -<n>, --max-count[=]<n> (digits only; the last one counts) and at most
// one revision. limit is -1 without a count; ok is false for any other
// argument.
func plainLogArgs(args []string) (rev string, limit int, ok bool) {
	limit = -1
	count := func(v string) bool {
		if v == "" || len(v) > 9 || strings.Trim(v, "0123456789") != "" {
			return false
		}
		limit, _ = strconv.Atoi(v)
		return true
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-n" || a == "--max-count":
			if i++; i >= len(args) || !count(args[i]) {
				return "", 0, false
			}
		case strings.HasPrefix(a, "--max-count="):
			if !count(a[len("--max-count="):]) {
				return "", 0, false
			}
		case strings.HasPrefix(a, "-n"):
			if !count(a[2:]) {
				return "", 0, false
			}
		case strings.HasPrefix(a, "-"):
			if !count(a[1:]) {
				return "", 0, false
			}
		case rev != "" || a == "":
			return "", 0, false
		default:
			rev = a
		}
	}
	return rev, limit, true
}

// logWalk walks commits as git log does without a limiting option
// (revision.c: get_revision_1, process_parents): the newest queued commit
// (by committer date) comes out first; its parents, in order, each the
// first time seen, go after every queued commit of the same or a later
// date (commit_list_insert_by_date).
type logWalk struct {
	st     *odb.Store
	graph  *odb.CommitGraph // parents and dates of the commits it has (core.commitGraph)
	body   bool
	ahead  func(hashes []string, secs []int64) // LogOptions.Ahead
	abbrev *abbrevObjects                      // nil: no abbreviations asked
	abbrN  int
	seen   map[plumbing.Hash]struct{}
	zones  map[int]*time.Location // by offset: one for each zone met
	queue  []*walkCommit          // newest first
}

// walkCommit is a commit queued: its date and parents from the graph or
// its object's header (graph says which), then its object, read once it
// is to be shown if not before.
type walkCommit struct {
	h       plumbing.Hash
	date    uint64
	parents []plumbing.Hash
	graph   bool
	data    []byte // nil until read
	head    commitHeader
	hex     string // h in hex, once handed ahead (LogOptions.Ahead)
}

// streamLogLocal is StreamLog in process where l can tell git's answer;
// handled is false where nothing was decided (StreamLog asks git).
func (r *Repo) streamLogLocal(ctx context.Context, l *Local, userArgs []string, opts LogOptions, fn func(Commit) bool) (handled bool, err error) {
	w, start, limit, ok := l.plan(userArgs, opts, &r.maps)
	if !ok {
		return false, nil
	}
	defer w.close()
	shown, done, err := w.walk(ctx, start, limit, fn)
	if done || err != nil {
		return true, err
	}
	// git's from here: the same walk, past the commits shown.
	args := append(userArgs[:len(userArgs):len(userArgs)], "--skip="+strconv.Itoa(shown))
	if limit >= 0 {
		args = append(args, "--max-count="+strconv.Itoa(limit-shown))
	}
	return true, r.streamCommits(ctx, "log", args, opts, fn)
}

// plan decides, before anything is read or shown, whether the log of
// userArgs can be walked in process, and sets the walk up, its pack
// indexes mapped through maps (shared with the abbreviations).
func (l *Local) plan(userArgs []string, opts LogOptions, maps *odb.Maps) (*logWalk, plumbing.Hash, int, bool) {
	var none plumbing.Hash
	if opts.Files || opts.Decorate || opts.ColorDecorate || len(opts.Notes) > 0 || opts.Mark || opts.Source {
		return nil, none, 0, false
	}
	rev, limit, ok := plainLogArgs(userArgs)
	if !ok {
		return nil, none, 0, false
	}
	r, ok := Discover(l.dir, l.getenv)
	if !ok || !r.PlainObjects(l.getenv) {
		return nil, none, 0, false
	}
	s, ok := l.settings()
	if !ok || s == nil || !logSettingsPlain(r, s) {
		return nil, none, 0, false
	}
	graph, valid := boolOr(s, "core.commitgraph", true)
	if !valid {
		return nil, none, 0, false
	}
	if rev == "" || rev == "HEAD" || rev == "@" {
		if headAmbiguous(r) { // git warns "refname 'HEAD' is ambiguous"
			return nil, none, 0, false
		}
	}
	if rev == "" {
		rev = "HEAD"
	} else if !r.plainRevisionArg(rev, rev == "HEAD" || rev == "@") {
		return nil, none, 0, false
	}
	// The commits seen are those shown and those queued: with a count, a
	// straight history's count and one, made room for at once rather than
	// grown to (and rehashed) a table at a time.
	seen := map[plumbing.Hash]struct{}{}
	if limit >= 0 {
		seen = make(map[plumbing.Hash]struct{}, min(limit+1, 1<<14))
	}
	w := &logWalk{st: odb.OpenShared(r.CommonDir, maps), body: opts.Body, ahead: opts.Ahead, seen: seen}
	fail := func() (*logWalk, plumbing.Hash, int, bool) {
		w.st.Close()
		return nil, none, 0, false
	}
	if graph {
		g, odd := w.st.CommitGraph()
		if odd {
			return fail() // a graph git may read otherwise: git's walk
		}
		w.graph = g
	}
	h, _, ok := r.resolveIn(w.st, rev, graph)
	if !ok {
		return fail()
	}
	if opts.Abbrev {
		v, set := s.Get("core.abbrev")
		n, ok := coreAbbrevLen(v, set)
		dir, dirOK := r.abbrevObjectDir()
		if !ok || !dirOK {
			return fail()
		}
		idxs, size, ok := abbrevIndexes(dir)
		if !ok || size > MaxIndexBytes {
			return fail() // not measured past it: git's
		}
		if w.abbrev, ok = readAbbrevObjects(maps, dir, idxs); !ok {
			return fail()
		}
		w.abbrN = n
		if n == 0 {
			w.abbrN = w.abbrev.minLen()
		}
	}
	return w, plumbing.NewHash(h), limit, true
}

// logSettingsPlain: nothing in the configuration changes what StreamLog
// reads from what the walk reads: no output encoding but UTF-8 (git
// falls back to i18n.commitEncoding for it), no mailmap git would read
// (log.mailmap is on by default; a .mailmap at the top level, or one
// configured).
func logSettingsPlain(r *Repo, s *Settings) bool {
	for _, k := range []string{"i18n.logoutputencoding", "i18n.commitencoding"} {
		if v, set := s.Get(k); set && !isUTF8(v) {
			return false
		}
	}
	if isSet(s, "mailmap.file") || isSet(s, "mailmap.blob") {
		return false
	}
	mailmap, valid := boolOr(s, "log.mailmap", true)
	if !valid {
		return false
	}
	_, err := os.Lstat(filepath.Join(r.TopLevel, ".mailmap"))
	return !mailmap || os.IsNotExist(err)
}

// plainRevisionArg: rev is no file here (git: "ambiguous argument") and,
// but for HEAD, no file in the git dir, which git's first lookup rule
// would read as a ref.
func (r *Repo) plainRevisionArg(rev string, head bool) bool {
	paths := []string{filepath.Join(r.run.dir, rev)}
	if !head {
		paths = append(paths, filepath.Join(r.GitDir, rev), filepath.Join(r.CommonDir, rev))
	}
	for _, p := range paths {
		if _, err := os.Lstat(p); !os.IsNotExist(err) {
			return false
		}
	}
	return true
}

// headAmbiguous: a ref other than HEAD that git's lookup rules find for
// "HEAD" (refs/heads/HEAD, ...), loose or packed; git then warns.
func headAmbiguous(r *Repo) bool {
	packed, err := os.ReadFile(filepath.Join(r.CommonDir, "packed-refs"))
	if err != nil && !os.IsNotExist(err) {
		return true
	}
	for _, ref := range []string{"refs/HEAD", "refs/tags/HEAD", "refs/heads/HEAD", "refs/remotes/HEAD", "refs/remotes/HEAD/HEAD"} {
		for _, dir := range []string{r.GitDir, r.CommonDir} {
			if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(ref))); !os.IsNotExist(err) {
				return true
			}
		}
		if bytes.Contains(packed, []byte(" "+ref+"\n")) {
			return true
		}
	}
	return false
}

// walk hands fn the commits from start in git's order, at most limit (-1:
// all). done is false where git must go on after the shown commits: a
// commit this reader does not read as git would, or cannot read.
//
// The walk (objects inflated, headers read, the order) runs in a goroutine
// of its own, a batch ahead of fn and the reading of each commit's fields,
// as git log ran beside git-convo before: on an idle machine with two
// cores, log -n 1000 takes 15 % less time, and with 100,000 conversations
// (fn's links queries) 15 % less time for 10 % more CPU; on a busy one
// it gains nothing (docs/performance.md).
func (w *logWalk) walk(ctx context.Context, start plumbing.Hash, limit int, fn func(Commit) bool) (shown int, done bool, err error) {
	batches := make(chan walkBatch, 4)
	stop := make(chan struct{})
	go func() {
		defer close(batches)
		var b walkBatch
		size := 16 // a small batch first: the first lines come at once
		send := func() bool {
			select {
			case <-stop: // fn is done: nothing more to read ahead for
				return false
			default:
			}
			if w.ahead != nil && len(b.commits) > 0 {
				hashes := make([]string, len(b.commits))
				secs := make([]int64, len(b.commits))
				for i, c := range b.commits {
					c.hex = c.h.String()
					hashes[i], secs[i] = c.hex, int64(min(c.date, 1<<62))
				}
				w.ahead(hashes, secs)
			}
			select {
			case batches <- b:
				b, size = walkBatch{}, 128
				return true
			case <-stop:
				return false
			}
		}
		ok := w.order(ctx, start, limit, func(c *walkCommit) bool {
			b.commits = append(b.commits, c)
			return len(b.commits) < size || send()
		})
		b.failed = !ok
		if len(b.commits) > 0 || b.failed {
			send()
		}
	}()
	defer func() {
		close(stop)
		for range batches { // the walk has let go of the store once batches is closed
		}
	}()
	for b := range batches {
		for _, c := range b.commits {
			if err := ctx.Err(); err != nil {
				return shown, true, err // as StreamLog: nothing more once ctx is done
			}
			commit, ok := w.commit(c)
			if !ok {
				return shown, false, nil
			}
			if !fn(commit) {
				return shown + 1, true, nil
			}
			shown++
		}
		if b.failed {
			return shown, false, nil
		}
	}
	return shown, true, ctx.Err()
}

// walkBatch is commits in the order git shows them, their objects read;
// failed: the walk stopped after them, where git must go on (or was
// stopped).
type walkBatch struct {
	commits []*walkCommit
	failed  bool
}

// order walks from start as git does and hands show each commit to show,
// its object read; true when it is done, false where it met a commit git
// must show, or show stopped it.
func (w *logWalk) order(ctx context.Context, start plumbing.Hash, limit int, show func(*walkCommit) bool) bool {
	first, ok := w.load(start)
	if !ok {
		return false
	}
	w.seen[start] = struct{}{}
	w.queue = append(w.queue, first)
	for n := 0; len(w.queue) > 0 && (limit < 0 || n < limit) && ctx.Err() == nil; n++ {
		c := w.queue[0]
		w.queue[0] = nil
		w.queue = w.queue[1:]
		// git reads the parents before it shows the commit.
		for _, p := range c.parents {
			if _, ok := w.seen[p]; ok {
				continue
			}
			pc, ok := w.load(p)
			if !ok {
				return false
			}
			w.seen[p] = struct{}{}
			w.insert(pc)
		}
		if c.data == nil && !w.readHeader(c) || !show(c) {
			return false
		}
	}
	return true
}

// close lets go of the object store and the indexes read to abbreviate.
func (w *logWalk) close() {
	w.st.Close()
	if w.abbrev != nil {
		w.abbrev.close()
	}
}

// insert queues c after every commit of its date or later.
func (w *logWalk) insert(c *walkCommit) {
	i := 0
	for i < len(w.queue) && w.queue[i].date >= c.date {
		i++
	}
	w.queue = append(w.queue, nil)
	copy(w.queue[i+1:], w.queue[i:])
	w.queue[i] = c
}

// load reads h's parents and date: from the graph where it has h (as git
// does: the object is read once the commit is shown), else from its
// object.
func (w *logWalk) load(h plumbing.Hash) (*walkCommit, bool) {
	c := &walkCommit{h: h}
	if w.graph != nil {
		ps, date, found, err := w.graph.Commit(h)
		if err != nil {
			return nil, false
		}
		if found {
			c.date, c.parents, c.graph = date, ps, true
			return c, true
		}
	}
	if !w.readHeader(c) {
		return nil, false
	}
	c.date, c.parents = c.head.date, c.head.parents
	return c, true
}

// readHeader reads c's object and its header.
func (w *logWalk) readHeader(c *walkCommit) bool {
	data, err := w.st.Typed(c.h, plumbing.CommitObject)
	if err != nil {
		return false
	}
	var ok bool
	c.data = data
	c.head, ok = readCommitHeader(data)
	return ok
}

// commit is c as StreamLog reads it.
func (w *logWalk) commit(c *walkCommit) (commit Commit, ok bool) {
	if c.graph {
		ps := c.head.parents
		if len(ps) != len(c.parents) {
			return commit, false
		}
		for i := range ps {
			if ps[i] != c.parents[i] {
				return commit, false // the graph and the object disagree: git's to tell
			}
		}
	}
	if commit, ok = w.fields(c.h, c.hex, c.data, &c.head); !ok {
		return commit, false
	}
	if w.abbrev != nil {
		if commit.Abbrev, ok = w.abbrev.abbrev(commit.Hash, w.abbrN); !ok {
			return commit, false
		}
	}
	return commit, true
}

// commitHeader is what the walk reads of a commit's header: its parents,
// its committer date and zone, where its author's ident and its message
// start in the object.
type commitHeader struct {
	parents                []plumbing.Hash
	date                   uint64
	zone                   int // the committer's, in seconds east
	author, authorEnd, msg int
	// committer is the committer's ident (as the author's, after the
	// key), and cname and cemail its name and email: most commits'
	// author is the same ident, not read twice.
	committer, cname, cemail string
}

// readCommitHeader reads a commit's header as git does (commit.c:
// parse_commit_buffer, parse_commit_date; pretty.c: parse_commit_header).
// ok is false for anything git might read otherwise: a NUL, a header out
// of git's order (tree, parents, author, committer), a second author or
// committer, upper-case hex, another encoding, a committer line
// splitIdentStrict does not take.
func readCommitHeader(data []byte) (h commitHeader, ok bool) {
	end := bytes.Index(data, []byte("\n\n"))
	if end < 0 || bytes.IndexByte(data, 0) >= 0 {
		return h, false
	}
	h.msg = end + 2
	at := 0 // where the next line starts
	line := func() ([]byte, int) {
		start := at
		if start > end {
			return nil, start // the header ended
		}
		n := bytes.IndexByte(data[start:end], '\n')
		if n < 0 {
			n = end - start
		}
		at = start + n + 1
		return data[start : start+n], start
	}
	l, _ := line()
	if t, ok := bytes.CutPrefix(l, []byte("tree ")); !ok || !isHash(t) {
		return h, false
	}
	l, start := line()
	for bytes.HasPrefix(l, []byte("parent ")) {
		var ph plumbing.Hash
		if !decodeHash(&ph, l[len("parent "):]) {
			return h, false
		}
		h.parents = append(h.parents, ph)
		l, start = line()
	}
	if !bytes.HasPrefix(l, []byte("author ")) {
		return h, false
	}
	h.author, h.authorEnd = start+len("author "), start+len(l)
	committer, ok := bytes.CutPrefix(first(line()), []byte("committer "))
	if !ok {
		return h, false
	}
	for at <= end {
		l, _ := line()
		for _, k := range []string{"tree ", "parent ", "author ", "committer "} {
			if bytes.HasPrefix(l, []byte(k)) {
				return h, false
			}
		}
		if e, ok := bytes.CutPrefix(l, []byte("encoding ")); ok && !isUTF8(string(e)) {
			return h, false
		}
	}
	h.committer = bytesString(committer)
	var secs int64
	h.cname, h.cemail, secs, h.zone, _, ok = splitIdentStrict(h.committer)
	h.date = uint64(secs)
	return h, ok
}

func first[A, B any](a A, _ B) A { return a }

// isHash: 40 lower-case hex digits.
func isHash(b []byte) bool {
	if len(b) != 40 {
		return false
	}
	for _, c := range b {
		if c-'0' > 9 && c-'a' > 5 { // unsigned: below '0' or 'a' wraps round
			return false
		}
	}
	return true
}

// decodeHash decodes b, 40 lower-case hex digits, into h; false for
// anything else.
func decodeHash(h *plumbing.Hash, b []byte) bool {
	if len(b) != 40 {
		return false
	}
	for i := range h {
		hi, lo := b[2*i], b[2*i+1]
		if hi = hexValue(hi); hi > 15 {
			return false
		}
		if lo = hexValue(lo); lo > 15 {
			return false
		}
		h[i] = hi<<4 | lo
	}
	return true
}

// hexValue is a lower-case hex digit's value, over 15 for any other byte.
func hexValue(c byte) byte {
	if c-'0' <= 9 {
		return c - '0'
	}
	if c-'a' <= 5 {
		return c - 'a' + 10
	}
	return 16
}

// bytesString is b as a string, not copied: for bytes that never change
// again while the string (or a piece of it) is in use, as an object the
// store inflated for this walk alone.
func bytesString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// fields is the commit (hash, in hex if known) as StreamLog reads it from git's %H, %P, %an, %ae,
// %aI, %cI, %s and %b (pretty.c: format_subject), from its object and
// header: every string a piece of the object as inflated (not copied: the
// store's objects are not written again once read).
func (w *logWalk) fields(hash plumbing.Hash, hex string, data []byte, h *commitHeader) (c Commit, ok bool) {
	text := bytesString(data)
	if c.Hash = hex; hex == "" { // hex: the hash as handed ahead, if it was
		c.Hash = hash.String()
	}
	if len(h.parents) > 0 {
		// "tree <hex>\n" then "parent <hex>\n" lines: readCommitHeader
		// took no other layout.
		c.Parents = make([]string, len(h.parents))
		for i := range h.parents {
			at := len("tree \n") + 40 + i*(len("parent \n")+40) + len("parent ")
			c.Parents[i] = text[at : at+40]
		}
	}
	ident := text[h.author:h.authorEnd]
	name, email, secs, off := h.cname, h.cemail, int64(h.date), h.zone
	if ident != h.committer {
		if name, email, secs, off, _, ok = splitIdentStrict(ident); !ok {
			return c, false
		}
	}
	c.AuthorName, c.AuthorEmail, c.AuthorTime = name, email, time.Unix(secs, 0).In(w.zone(off))
	c.CommitTime = time.Unix(int64(h.date), 0).In(w.zone(h.zone))
	c.Author = identNameEmail(ident, name, email)
	c.Subject, c.Body = splitMessage(text[h.msg:])
	if !w.body {
		c.Body = ""
	}
	return c, true
}

// identNameEmail is "name <email>": the start of ident, the ident line
// they were read from, where it reads so (the usual case: nothing to
// copy), else put together.
func identNameEmail(ident, name, email string) string {
	n := len(name) + len(" <") + len(email) + len(">")
	if len(ident) >= n && ident[:len(name)] == name && ident[len(name):len(name)+2] == " <" &&
		ident[len(name)+2:n-1] == email && ident[n-1] == '>' {
		return ident[:n]
	}
	return name + " <" + email + ">"
}

// zone is the Location of a zone off seconds east, one for each zone met.
func (w *logWalk) zone(off int) *time.Location {
	loc := w.zones[off]
	if loc == nil {
		if w.zones == nil {
			w.zones = map[int]*time.Location{}
		}
		loc = time.FixedZone("", off)
		w.zones[off] = loc
	}
	return loc
}
