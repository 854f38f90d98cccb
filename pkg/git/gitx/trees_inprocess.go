package gitx

import (
	"github.com/git-convo/git-convo/pkg/git/odb"
	"github.com/go-git/go-git/v5/plumbing"
)

// TreeReader answers, from the object files with no process, what
// `git diff-tree -r --no-renames` and `git ls-tree` answer of commits'
// trees: for a caller that compares two tips of a ref and looks a few of
// its paths up (the notes' links file after a fetch or a push: three git
// processes were most of its update). Close releases it.
type TreeReader struct {
	st *odb.Store // nil: only git can tell
}

// NewTreeReader is a TreeReader of r's objects; one where replace refs,
// grafts or another object format could make git read otherwise answers
// nothing (every ok false).
func (r *Repo) NewTreeReader(getenv func(string) string) *TreeReader {
	if r.ObjectFormat != "sha1" || !r.PlainObjects(getenv) {
		return &TreeReader{}
	}
	return &TreeReader{st: odb.Open(r.CommonDir)}
}

// Close releases the object store. A nil TreeReader answers nothing.
func (t *TreeReader) Close() {
	if t != nil && t.st != nil {
		t.st.Close()
	}
}

// ChangedPaths is the paths git diff-tree -r --no-renames names between
// commits from and to (full hashes): added, removed or changed, in mode
// or content. ok is false where the objects cannot tell.
func (t *TreeReader) ChangedPaths(from, to string) (paths []string, ok bool) {
	if t == nil || t.st == nil || !IsFullHash(from) || !IsFullHash(to) {
		return nil, false
	}
	a, ok := rootTree(t.st, plumbing.NewHash(from))
	if !ok {
		return nil, false
	}
	b, ok := rootTree(t.st, plumbing.NewHash(to))
	if !ok {
		return nil, false
	}
	if err := t.st.DiffTrees(a, b, "", &paths); err != nil {
		return nil, false
	}
	return paths, true
}

// Blobs is, for each of paths, the blob git ls-tree -r lists at it in
// commit's tree (a full hash): a file's or a symlink's object, "" where
// the path holds none (missing, a tree, a submodule's commit). ok is false
// where the objects cannot tell.
func (t *TreeReader) Blobs(commit string, paths []string) (blobs []string, ok bool) {
	if t == nil || t.st == nil || !IsFullHash(commit) {
		return nil, false
	}
	tree, ok := rootTree(t.st, plumbing.NewHash(commit))
	if !ok {
		return nil, false
	}
	blobs = make([]string, len(paths))
	read := map[plumbing.Hash][]odb.TreeEntry{}
	for i, p := range paths {
		e, present, ok := t.st.TreeEntryAt(tree, p, read)
		if !ok {
			return nil, false
		}
		if present && !e.Dir && e.Mode != "160000" { // modes as git reads them (odb.ParseTree)
			blobs[i] = e.Hash.String()
		}
	}
	return blobs, true
}
