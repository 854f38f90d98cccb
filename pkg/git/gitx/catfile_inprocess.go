package gitx

import (
	"strings"

	"github.com/git-convo/git-convo/pkg/git/odb"
	"github.com/go-git/go-git/v5/plumbing"
)

// BlobsInProcess answers what `git cat-file --batch` answers for each name
// ("<ref>:<path>" with a full ref name, or a full hash), from the object
// files with no process: a blob's content, nil where cat-file would say
// "missing" or the object is no blob. ok is false where only git can tell
// (a ref not in the ref files, an object not in the object files, replace
// refs or grafts, SHA-256): ask cat-file then.
//
// No object over limit bytes (0: no limit) is inflated past its header or
// held: such a blob's content is nil and over[i] true; such a tree or
// commit on the way to a name (a notes tree) leaves the answer to git.
func (r *Repo) BlobsInProcess(names []string, limit int64, getenv func(string) string) (contents [][]byte, over []bool, ok bool) {
	b := r.NewBlobReader(limit, getenv)
	defer b.Close()
	return b.Blobs(names)
}

// BlobReader is BlobsInProcess over one object store kept open for many
// calls, with the delta bases it inflated: a caller reading many blobs a
// batch at a time inflates each shared base once. Close releases it.
type BlobReader struct {
	r  *Repo
	st *odb.Store // nil: only git can tell
}

// NewBlobReader is a BlobReader of r's objects (limit as BlobsInProcess's).
func (r *Repo) NewBlobReader(limit int64, getenv func(string) string) *BlobReader {
	if r.ObjectFormat != "sha1" || !r.PlainObjects(getenv) {
		return &BlobReader{r: r}
	}
	st := odb.Open(r.CommonDir)
	st.SetLimit(limit)
	return &BlobReader{r: r, st: st}
}

// Close releases the object store.
func (b *BlobReader) Close() {
	if b.st != nil {
		b.st.Close()
	}
}

// Blobs is BlobsInProcess's answer for names.
func (b *BlobReader) Blobs(names []string) (contents [][]byte, over []bool, ok bool) {
	r, st := b.r, b.st
	if st == nil {
		return nil, nil, false
	}
	refs := refFiles{r: r}
	trees := map[string]plumbing.Hash{} // ref -> its root tree
	out, over := make([][]byte, len(names)), make([]bool, len(names))
	for i, name := range names {
		var h plumbing.Hash
		if len(name) == 40 && IsFullHash(name) {
			h = plumbing.NewHash(name)
		} else {
			ref, path, found := strings.Cut(name, ":")
			if !found || !strings.HasPrefix(ref, "refs/") || path == "" {
				return nil, nil, false
			}
			tree, seen := trees[ref]
			if !seen {
				tip, ok := refs.resolve(ref, 0)
				if !ok {
					return nil, nil, false
				}
				if tree, ok = rootTree(st, plumbing.NewHash(tip)); !ok {
					return nil, nil, false
				}
				trees[ref] = tree
			}
			var ok, present bool
			if h, present, ok = st.TreePath(tree, path); !ok {
				return nil, nil, false
			}
			if !present {
				continue // cat-file: missing
			}
		}
		t, data, err := st.Object(h)
		if err == odb.ErrOverLimit {
			// Its type from the headers alone (a delta's is its base's).
			t, err = st.Type(h)
			over[i] = t == plumbing.BlobObject
		}
		if err != nil {
			return nil, nil, false
		}
		if t == plumbing.BlobObject {
			out[i] = data
		}
	}
	return out, over, true
}

// rootTree peels a commit (or tags to one, or a tree) to its tree.
func rootTree(st *odb.Store, h plumbing.Hash) (plumbing.Hash, bool) {
	h, ok := peelToCommit(st, h)
	if !ok {
		t, _, err := st.Object(h)
		return h, err == nil && t == plumbing.TreeObject
	}
	data, err := st.Typed(h, plumbing.CommitObject)
	if err != nil {
		return h, false
	}
	_, tree, err := parseCommitObject(h.String(), data)
	return tree, err == nil
}
