package gitx

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

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
	abbrev *abbrevObjects // nil: no abbreviations asked
	abbrN  int
	seen   map[plumbing.Hash]struct{}
	queue  []*walkCommit // newest first
}

// walkCommit is a commit queued: its date and parents from the graph or
// its object, the rest read from its object once it is shown.
type walkCommit struct {
	h       plumbing.Hash
	date    uint64
	parents []plumbing.Hash
	c       *Commit // nil until read
}

// streamLogLocal is StreamLog in process where l can tell git's answer;
// handled is false where nothing was decided (StreamLog asks git).
func (r *Repo) streamLogLocal(ctx context.Context, l *Local, userArgs []string, opts LogOptions, fn func(Commit) bool) (handled bool, err error) {
	w, start, limit, ok := l.plan(userArgs, opts)
	if !ok {
		return false, nil
	}
	defer w.st.Close()
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
// userArgs can be walked in process, and sets the walk up.
func (l *Local) plan(userArgs []string, opts LogOptions) (*logWalk, plumbing.Hash, int, bool) {
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
	w := &logWalk{st: odb.Open(r.CommonDir), body: opts.Body, seen: map[plumbing.Hash]struct{}{}}
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
		if w.abbrev, ok = openAbbrevObjects(dir); !ok {
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
func (w *logWalk) walk(ctx context.Context, start plumbing.Hash, limit int, fn func(Commit) bool) (shown int, done bool, err error) {
	first, ok := w.load(start)
	if !ok {
		return 0, false, nil
	}
	w.seen[start] = struct{}{}
	w.queue = append(w.queue, first)
	for len(w.queue) > 0 && (limit < 0 || shown < limit) {
		if err := ctx.Err(); err != nil {
			return shown, true, err
		}
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
				return shown, false, nil
			}
			w.seen[p] = struct{}{}
			w.insert(pc)
		}
		commit, ok := w.commit(c)
		if !ok {
			return shown, false, nil
		}
		if !fn(*commit) {
			return shown + 1, true, nil
		}
		shown++
	}
	return shown, true, nil
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
	if w.graph != nil {
		ps, date, found, err := w.graph.Commit(h)
		if err != nil {
			return nil, false
		}
		if found {
			return &walkCommit{h: h, date: date, parents: ps}, true
		}
	}
	c, ps, date, ok := w.read(h)
	if !ok {
		return nil, false
	}
	return &walkCommit{h: h, date: date, parents: ps, c: c}, true
}

// commit is c as StreamLog reads it.
func (w *logWalk) commit(c *walkCommit) (*Commit, bool) {
	if c.c == nil {
		read, ps, _, ok := w.read(c.h)
		if !ok || len(ps) != len(c.parents) {
			return nil, false
		}
		for i := range ps {
			if ps[i] != c.parents[i] {
				return nil, false // the graph and the object disagree: git's to tell
			}
		}
		c.c = read
	}
	if w.abbrev != nil {
		a, ok := w.abbrev.abbrev(c.c.Hash, w.abbrN)
		if !ok {
			return nil, false
		}
		c.c.Abbrev = a
	}
	return c.c, true
}

// read reads a commit object as git log's format reads it (pretty.c:
// parse_commit_header, format_subject; commit.c: parse_commit_buffer,
// parse_commit_date). ok is false for anything git might read otherwise:
// a NUL, a header out of git's order (tree, parents, author, committer),
// a second author or committer, upper-case hex, another encoding, an
// ident or date identForShow does not take.
func (w *logWalk) read(h plumbing.Hash) (c *Commit, parents []plumbing.Hash, date uint64, ok bool) {
	data, err := w.st.Typed(h, plumbing.CommitObject)
	if err != nil {
		return nil, nil, 0, false
	}
	head, msg, found := bytes.Cut(data, []byte("\n\n"))
	if !found || bytes.IndexByte(data, 0) >= 0 {
		return nil, nil, 0, false
	}
	line := func() []byte {
		l, rest, _ := bytes.Cut(head, []byte{'\n'})
		head = rest
		return l
	}
	l := line()
	if t, ok := bytes.CutPrefix(l, []byte("tree ")); !ok || len(t) != 40 || !isLowerHex(string(t)) {
		return nil, nil, 0, false
	}
	c = &Commit{Hash: h.String()}
	l = line()
	for bytes.HasPrefix(l, []byte("parent ")) {
		p := l[len("parent "):]
		if len(p) != 40 || !isLowerHex(string(p)) {
			return nil, nil, 0, false
		}
		c.Parents = append(c.Parents, string(p))
		parents = append(parents, plumbing.NewHash(string(p)))
		l = line()
	}
	author, ok := bytes.CutPrefix(l, []byte("author "))
	if !ok {
		return nil, nil, 0, false
	}
	committer, ok := bytes.CutPrefix(line(), []byte("committer "))
	if !ok {
		return nil, nil, 0, false
	}
	for len(head) > 0 {
		l := line()
		for _, k := range []string{"tree ", "parent ", "author ", "committer "} {
			if bytes.HasPrefix(l, []byte(k)) {
				return nil, nil, 0, false
			}
		}
		if e, ok := bytes.CutPrefix(l, []byte("encoding ")); ok && !isUTF8(string(e)) {
			return nil, nil, 0, false
		}
	}
	var secs int64
	c.AuthorName, c.AuthorEmail, c.AuthorTime, _, ok = identStrict(string(author))
	if !ok {
		return nil, nil, 0, false
	}
	if _, _, c.CommitTime, secs, ok = identStrict(string(committer)); !ok {
		return nil, nil, 0, false
	}
	c.Author = c.AuthorName + " <" + c.AuthorEmail + ">"
	c.Subject, c.Body = splitMessage(string(msg))
	if !w.body {
		c.Body = ""
	}
	return c, parents, uint64(secs), true
}

// identStrict is identForShow's reading of an ident, with its time in its
// own zone (as git's %aI gives it) and its seconds.
func identStrict(s string) (name, email string, when time.Time, secs int64, ok bool) {
	name, email, secs, off, _, ok := splitIdentStrict(s)
	if !ok {
		return "", "", time.Time{}, 0, false
	}
	return name, email, time.Unix(secs, 0).In(time.FixedZone("", off)), secs, true
}
