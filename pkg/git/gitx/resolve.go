package gitx

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/git-convo/git-convo/pkg/git/gitconfig"
	"github.com/git-convo/git-convo/pkg/git/odb"
	"github.com/go-git/go-git/v5/plumbing"
)

// Discover finds the repository of dir from files, as git would, with no
// process: for read commands that then resolve revisions and read commits
// in process. ok is false where only git can say (GIT_WORK_TREE or
// core.worktree, a bare repository, SHA-256, discovery limits, includes):
// use Open then.
func Discover(dir string, getenv func(string) string) (*Repo, bool) {
	if getenv("GIT_WORK_TREE") != "" || getenv("GIT_COMMON_DIR") != "" || getenv("GIT_DIR") != "" {
		return nil, false
	}
	gitDir, commonDir, err := findGitDir(dir, getenv)
	if err != nil || gitDir == "" || filepath.Base(gitDir) == ".git" && !isAncestorGitDir(dir, gitDir) {
		return nil, false
	}
	s := gitconfig.New()
	if s.ReadFile(filepath.Join(commonDir, "config")) != nil {
		return nil, false
	}
	if _, ok := s.Get("core.worktree"); ok {
		return nil, false
	}
	if bare, _ := s.Bool("core.bare"); bare {
		return nil, false
	}
	if f, ok := s.Get("extensions.objectformat"); ok && !strings.EqualFold(f, "sha1") {
		return nil, false
	}
	top := topLevelOf(dir, gitDir)
	if top == "" {
		return nil, false
	}
	abs, _ := filepath.Abs(dir)
	return &Repo{GitDir: gitDir, CommonDir: commonDir, TopLevel: top, ObjectFormat: "sha1", run: runner{dir: abs}}, true
}

// isAncestorGitDir: dir is not inside the .git directory itself.
func isAncestorGitDir(dir, gitDir string) bool {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(gitDir, abs)
	return err == nil && (rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)))
}

// topLevelOf is the directory holding the .git that led to gitDir.
func topLevelOf(dir, gitDir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for d := abs; ; d = filepath.Dir(d) {
		if g, ok := dotGit(d); ok && g == gitDir {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// ResolveInProcess resolves the revision forms a reader needs most (HEAD,
// @, a full hash, a branch, tag or remote name, with ~N, ^N and ^{commit}
// suffixes) to a commit hash from files, with no process. ok is false for
// every other form, for a name two refs answer (git warns), for anything
// it cannot find, and for a walk longer than git's (see maxInflatedWalk):
// ask git (RevParse) then, which also words the error. The commit-graph is
// used as git uses it by default (core.commitGraph unset).
func (r *Repo) ResolveInProcess(rev string) (string, bool) {
	st := odb.Open(r.CommonDir)
	defer st.Close()
	h, _, ok := r.resolveIn(st, rev, true)
	return h, ok
}

// maxInflatedWalk bounds the commits resolveIn inflates to walk ~N and ^N
// where the commit-graph does not answer: past it git walks. Since the
// pack reader inflates a commit in about 2 µs and the walk reads only its
// parents, the walk in process beats handing it to git at every depth
// measured (show HEAD~1000, ~2000 and ~5000 of 20,000 commits with no
// graph: docs/performance.md); the bound only stops a walk of absurd
// length.
const maxInflatedWalk = 100000

// inflateLimit is r's bound of resolveIn's inflated walk (tests lower it).
func (r *Repo) inflateLimit() int {
	if r.maxInflated > 0 {
		return r.maxInflated
	}
	return maxInflatedWalk
}

// resolveIn is ResolveInProcess reading objects from st, parents from the
// commit-graph when graph is set (core.commitGraph). tag is true when rev
// is a bare name of an annotated tag, which git show shows as a tag before
// its commit.
func (r *Repo) resolveIn(st *odb.Store, rev string, graph bool) (hash string, tag bool, ok bool) {
	bare := !strings.ContainsAny(rev, "~^")
	rev = strings.TrimSuffix(rev, "^{commit}")
	if r.GitDir == "" || r.CommonDir == "" || r.ObjectFormat != "sha1" || rev == "" ||
		strings.ContainsAny(rev, ":@{}.[ \\*?") && !isPlainAt(rev) {
		return "", false, false
	}
	base, ops := splitSuffixes(rev)
	if ops == nil && base != rev {
		return "", false, false
	}
	named, ok := r.resolveBase(base)
	if !ok {
		return "", false, false
	}
	h, ok := peelToCommit(st, named)
	if !ok {
		return "", false, false
	}
	tag = bare && h != named
	w := walker{st: st, graph: graph, limit: r.inflateLimit()}
	if !w.hasGraph() && steps(ops) > w.limit {
		return "", false, false // git's to walk: decided before any is inflated
	}
	for _, op := range ops {
		switch op.kind {
		case '~':
			for left := op.n; left > 0; {
				var n int
				var ok bool
				if h, n, ok = w.firstParents(h, left); !ok {
					return "", false, false
				} else if n > 0 {
					left -= n
					continue
				}
				ps, ok := w.parents(h)
				if !ok || len(ps) == 0 {
					return "", false, false
				}
				h = ps[0]
				left--
			}
		case '^':
			if op.n == 0 {
				continue
			}
			ps, ok := w.parents(h)
			if !ok || op.n > len(ps) {
				return "", false, false
			}
			h = ps[op.n-1]
		}
	}
	if !w.checked(h) {
		return "", false, false
	}
	return h.String(), tag, true
}

// walker finds commits' parents for resolveIn: from the commit-graph where
// it has the commit, else from the commit object, at most limit of them.
type walker struct {
	st       *odb.Store
	graph    bool
	limit    int
	inflated int
}

// steps is how many parents ops follow at most.
func steps(ops []revOp) int {
	n := 0
	for _, op := range ops {
		if op.kind == '~' {
			n += op.n
		} else if op.n > 0 {
			n++
		}
	}
	return n
}

// hasGraph: parents come from a commit-graph this reader takes.
func (w *walker) hasGraph() bool {
	if !w.graph {
		return false
	}
	g, odd := w.st.CommitGraph()
	return g != nil && !odd
}

// checked: git, reaching h, reads its entry in the graph too, and dies
// where a parent it names is out of bounds; a graph this reader does not
// take is git's to read, even for no walk.
func (w *walker) checked(h plumbing.Hash) bool {
	if !w.graph {
		return true
	}
	g, odd := w.st.CommitGraph()
	_, _, err := g.Parents(h)
	return err == nil && !odd
}

// firstParents walks up to n first parents through the graph; ok is false
// where the graph is in doubt (git's to answer).
func (w *walker) firstParents(h plumbing.Hash, n int) (plumbing.Hash, int, bool) {
	if !w.graph {
		return h, 0, true
	}
	g, _ := w.st.CommitGraph()
	h, steps, err := g.FirstParents(h, n)
	return h, steps, err == nil
}

func (w *walker) parents(h plumbing.Hash) ([]plumbing.Hash, bool) {
	if w.graph {
		g, odd := w.st.CommitGraph()
		if odd {
			return nil, false
		}
		if ps, found, err := g.Parents(h); err != nil || found {
			return ps, err == nil
		}
	}
	if w.inflated++; w.inflated > w.limit {
		return nil, false
	}
	data, err := w.st.Typed(h, plumbing.CommitObject)
	if err != nil {
		return nil, false
	}
	return commitParents(data)
}

// commitParents reads a commit's parents as git does (commit.c:
// parse_commit_buffer): the "parent" lines right after the tree's, in
// order. ok is false for a header git may read otherwise (upper-case hex,
// a line that is not a parent's where one could be).
func commitParents(data []byte) (ps []plumbing.Hash, ok bool) {
	const tree, parent = len("tree ") + 40 + 1, len("parent ") + 40 + 1
	if len(data) < tree || string(data[:5]) != "tree " || data[tree-1] != '\n' || !isHash(data[5:tree-1]) {
		return nil, false
	}
	for rest := data[tree:]; len(rest) >= 7 && string(rest[:7]) == "parent "; rest = rest[parent:] {
		if len(rest) < parent || rest[parent-1] != '\n' || !isHash(rest[7:parent-1]) {
			return nil, false
		}
		var p plumbing.Hash
		hex.Decode(p[:], rest[7:parent-1])
		ps = append(ps, p)
	}
	return ps, true
}

// isPlainAt is "@" (HEAD) with suffixes only.
func isPlainAt(rev string) bool {
	return strings.HasPrefix(rev, "@") && !strings.ContainsAny(rev[1:], ":@{}.[ \\*?")
}

type revOp struct {
	kind byte // '~' or '^'
	n    int
}

// splitSuffixes splits "main~2^2^{commit}" into main and its steps. ops is
// nil when a suffix is not one handled here.
func splitSuffixes(rev string) (string, []revOp) {
	i := strings.IndexAny(rev, "~^")
	if i < 0 {
		return rev, []revOp{}
	}
	base, rest := rev[:i], rev[i:]
	ops := []revOp{}
	for rest != "" {
		kind := rest[0]
		if kind != '~' && kind != '^' {
			return base, nil
		}
		j := 1
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		n := 1
		if j > 1 {
			v, err := strconv.Atoi(rest[1:j])
			if err != nil || v > 1<<20 {
				return base, nil
			}
			n = v
		}
		ops = append(ops, revOp{kind, n})
		rest = rest[j:]
	}
	return base, ops
}

// resolveBase resolves a name as git's rev-parse rules do. A name that
// more than one rule finds is git's to answer (it warns).
func (r *Repo) resolveBase(name string) (plumbing.Hash, bool) {
	if name == "HEAD" || name == "@" {
		h, _, err := r.resolveHead()
		return plumbing.NewHash(h), err == nil
	}
	if len(name) == 40 && IsFullHash(name) {
		return plumbing.NewHash(name), true
	}
	if IsHexPrefix(name) {
		return plumbing.ZeroHash, false // an abbreviated hash: git knows which objects are ambiguous
	}
	if strings.ToUpper(name) == name {
		return plumbing.ZeroHash, false // FETCH_HEAD, ORIG_HEAD...: files in the git dir, git's to read
	}
	rules := []string{"refs/" + name, "refs/tags/" + name, "refs/heads/" + name, "refs/remotes/" + name, "refs/remotes/" + name + "/HEAD"}
	if strings.HasPrefix(name, "refs/") {
		rules = append([]string{name}, rules...)
	}
	refs := refFiles{r: r}
	found := ""
	for _, ref := range rules {
		if h, ok := refs.resolve(ref, 0); ok {
			if found != "" {
				return plumbing.ZeroHash, false
			}
			found = h
		}
	}
	return plumbing.NewHash(found), found != "" && !refs.doubt
}

// refFiles reads refs from the loose ref files and packed-refs, the latter
// read once. doubt is set once a file is found that git may read otherwise
// than here (see readRefFile) or a packed-refs line git would refuse: the
// answer is then git's, whatever resolve returned.
type refFiles struct {
	r      *Repo
	packed map[string]refValue
	doubt  bool
}

// RefTip is the object the full ref name points at, from the ref files
// alone (no process); ok is false where they do not name it or only git
// can tell (a reftable, a file git may read otherwise).
func (r *Repo) RefTip(ref string) (string, bool) {
	tips, ok := r.RefTipsFromFiles([]string{ref})
	return tips[ref], ok
}

// RefTipsFromFiles is RefTip of each of refs, packed-refs read once; ok is
// false unless the files name every one.
func (r *Repo) RefTipsFromFiles(refs []string) (map[string]string, bool) {
	if r.CommonDir == "" || r.GitDir == "" {
		return nil, false
	}
	f := refFiles{r: r}
	tips := make(map[string]string, len(refs))
	for _, ref := range refs {
		h, ok := f.resolve(ref, 0)
		if !ok || f.doubt {
			return nil, false
		}
		tips[ref] = h
	}
	return tips, true
}

// resolve follows ref to a hash; ok is false when no file names it (or
// one is in doubt).
func (f *refFiles) resolve(ref string, depth int) (string, bool) {
	if depth > 5 {
		f.doubt = true
		return "", false
	}
	for i, dir := range []string{f.r.GitDir, f.r.CommonDir} {
		if i == 1 && dir == f.r.GitDir {
			break // not a linked worktree: one directory
		}
		v, kind := readRefFile(filepath.Join(dir, filepath.FromSlash(ref)))
		switch kind {
		case refAbsent:
			continue
		case refSymbolic:
			return f.resolve(v, depth+1)
		case refHash:
			return v, true
		}
		f.doubt = true
		return "", false
	}
	if f.packed == nil {
		var ok bool
		f.packed, ok = readPackedRefs(f.r.CommonDir)
		f.doubt = f.doubt || !ok
	}
	if f.doubt {
		return "", false
	}
	v, ok := f.packed[ref]
	return v.hash, ok
}

// What readRefFile found.
const (
	refAbsent   = iota // no file (or a directory): the ref is not loose
	refSymbolic        // "ref: <name>"
	refHash            // a full lower-case hash
	refOdd             // anything else: git's to read
)

// readRefFile reads a loose ref (or HEAD) as git writes one: "ref: <name>"
// or a hash, and a newline. git also reads "ref:<name>", upper-case hex,
// text after the hash, and a symbolic link; it refuses an empty file. Those
// are refOdd, never a cue to look in packed-refs: the answer is git's.
func readRefFile(path string) (string, int) {
	fi, err := os.Lstat(path)
	switch {
	case os.IsNotExist(err) || err == nil && fi.IsDir():
		return "", refAbsent
	case err != nil || !fi.Mode().IsRegular() || fi.Size() > 4096:
		return "", refOdd
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", refOdd
	}
	v, nl := strings.CutSuffix(string(data), "\n")
	if !nl || strings.ContainsAny(v, "\n\r\t\x00") {
		return "", refOdd
	}
	if target, ok := strings.CutPrefix(v, "ref: "); ok {
		if !strings.HasPrefix(target, "refs/") || !validRefName(target) {
			return "", refOdd
		}
		return target, refSymbolic
	}
	if len(v) == 40 && isLowerHex(v) {
		return v, refHash
	}
	return "", refOdd
}

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// validRefName is git's check_refname_format for a full ref name, a little
// stricter: no component starting with "." or ending in ".lock", no "..",
// "@{", "//", control characters, space or any of ~^:?*[\, and no "."
// or "/" at the end. A name it refuses is git's to read (or skip).
func validRefName(name string) bool {
	if name == "" || name == "@" || strings.HasSuffix(name, "/") || strings.HasSuffix(name, ".") ||
		strings.Contains(name, "..") || strings.Contains(name, "@{") || strings.Contains(name, "//") {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; c <= ' ' || c == 0x7f || strings.IndexByte("~^:?*[\\", c) >= 0 {
			return false
		}
	}
	for comp := range strings.SplitSeq(name, "/") {
		if comp == "" || comp[0] == '.' || strings.HasSuffix(comp, ".lock") {
			return false
		}
	}
	return true
}

// IsHexPrefix reports 4 or more hex digits (what git may take for a hash).
func IsHexPrefix(s string) bool {
	if len(s) < 4 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') && (c < 'A' || c > 'F') {
			return false
		}
	}
	return true
}

// peelToCommit follows annotated tags to the commit they name.
func peelToCommit(st *odb.Store, h plumbing.Hash) (plumbing.Hash, bool) {
	p, ok := peelTag(st, h.String())
	if !ok {
		return h, false
	}
	if p != "" {
		h = plumbing.NewHash(p)
	}
	t, err := st.Type(h)
	return h, err == nil && t == plumbing.CommitObject
}

// ReadHeaderInProcess reads a commit's header and message (no changed
// files) from files, for a reader that resolved it with ResolveInProcess:
// no process. Branch is HEAD's when the commit is its tip.
func (r *Repo) ReadHeaderInProcess(hash string) (*Commit, error) {
	if r.CommonDir == "" || r.ObjectFormat != "sha1" || len(hash) != 40 || !IsFullHash(hash) {
		return nil, errGoGitRev
	}
	st := odb.Open(r.CommonDir)
	defer st.Close()
	h := plumbing.NewHash(hash)
	data, err := st.Typed(h, plumbing.CommitObject)
	if err != nil {
		return nil, err
	}
	c, _, err := parseCommitObject(hash, data)
	if err != nil {
		return nil, err
	}
	if head, branch, err := r.resolveHead(); err == nil && head == hash {
		c.Branch = branch
	}
	return c, nil
}
