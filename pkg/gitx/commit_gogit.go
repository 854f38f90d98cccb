package gitx

import (
	"errors"
	"sort"
	"strings"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
)

// errGoGitRev: the go-git reader resolves only what needs no rev-parse.
const errGoGitRev = constError("go-git reads HEAD or a full hash only")

// readCommitGoGit reads a commit in-process. It opens go-git's storage
// directly, with the work tree's git dir over the common dir (what
// PlainOpenWithOptions does with EnableDotGitCommonDir): the go-git root
// package would also link, and initialise in every git-convo process, its
// transports, SSH and OpenPGP.
func (r *Repo) readCommitGoGit(rev string) (*Commit, error) {
	if r.GitDir == "" || r.CommonDir == "" {
		return nil, errors.New("repository layout unknown")
	}
	fs := dotgit.NewRepositoryFilesystem(osfs.New(r.GitDir), osfs.New(r.CommonDir))
	st := filesystem.NewStorage(fs, cache.NewObjectLRUDefault())
	var h plumbing.Hash
	switch {
	case rev == "HEAD":
		ref, err := storer.ResolveReference(st, plumbing.HEAD)
		if err != nil {
			return nil, err
		}
		h = ref.Hash()
	case len(rev) == 40 && IsFullHash(rev):
		h = plumbing.NewHash(rev)
	default:
		return nil, errGoGitRev
	}
	co, err := object.GetCommit(st, h)
	if err != nil {
		return nil, err
	}
	c := &Commit{
		Hash:        co.Hash.String(),
		AuthorName:  co.Author.Name,
		AuthorEmail: co.Author.Email,
		AuthorTime:  co.Author.When,
		CommitTime:  co.Committer.When,
	}
	c.Author = c.AuthorName + " <" + c.AuthorEmail + ">"
	c.Subject, c.Body = splitMessage(co.Message)
	for _, p := range co.ParentHashes {
		c.Parents = append(c.Parents, p.String())
	}
	if c.Files, err = changedFiles(st, co); err != nil {
		return nil, err
	}
	c.Branch = headBranch(st, co.Hash)
	return c, nil
}

// changedFiles lists the paths co changes against its first parent, without
// rename detection (a rename is its two paths), or every path of a root
// commit; sorted.
func changedFiles(st storage.Storer, co *object.Commit) ([]string, error) {
	tree, err := co.Tree()
	if err != nil {
		return nil, err
	}
	var parent *object.Tree
	if len(co.ParentHashes) > 0 {
		pc, err := object.GetCommit(st, co.ParentHashes[0])
		if err != nil {
			return nil, err
		}
		if parent, err = pc.Tree(); err != nil {
			return nil, err
		}
	}
	var files []string
	if err := diffTrees(st, parent, tree, "", &files); err != nil {
		return nil, err
	}
	sort.Strings(files)
	return files, nil
}

// diffTrees appends the paths that differ between trees a and b (either may
// be nil: empty) as git diff-tree -r names them. Both trees are in git's
// order, so one merge pass pairs their entries, and a subtree whose hash did
// not change is never read: go-git's DiffTree builds a merkletrie of both
// sides and is several times slower on a wide commit.
func diffTrees(st storage.Storer, a, b *object.Tree, prefix string, out *[]string) error {
	var ea, eb []object.TreeEntry
	if a != nil {
		ea = a.Entries
	}
	if b != nil {
		eb = b.Entries
	}
	i, j := 0, 0
	for i < len(ea) || j < len(eb) {
		var c int
		switch {
		case i == len(ea):
			c = 1
		case j == len(eb):
			c = -1
		default:
			c = compareEntries(&ea[i], &eb[j])
		}
		switch {
		case c < 0: // only in a
			if err := addEntry(st, &ea[i], prefix, out); err != nil {
				return err
			}
			i++
		case c > 0: // only in b
			if err := addEntry(st, &eb[j], prefix, out); err != nil {
				return err
			}
			j++
		default:
			x, y := &ea[i], &eb[j]
			i++
			j++
			if x.Hash == y.Hash && x.Mode == y.Mode {
				continue
			}
			if x.Mode != filemode.Dir { // both files (compareEntries tells dirs apart)
				*out = append(*out, prefix+x.Name)
				continue
			}
			ta, err := object.GetTree(st, x.Hash)
			if err != nil {
				return err
			}
			tb, err := object.GetTree(st, y.Hash)
			if err != nil {
				return err
			}
			if err := diffTrees(st, ta, tb, prefix+x.Name+"/", out); err != nil {
				return err
			}
		}
	}
	return nil
}

// addEntry appends an entry on one side only: its path, or for a directory
// every path under it.
func addEntry(st storage.Storer, e *object.TreeEntry, prefix string, out *[]string) error {
	if e.Mode != filemode.Dir {
		*out = append(*out, prefix+e.Name)
		return nil
	}
	t, err := object.GetTree(st, e.Hash)
	if err != nil {
		return err
	}
	return diffTrees(st, nil, t, prefix+e.Name+"/", out)
}

// compareEntries orders tree entries as git stores them: by name, a
// directory's name read with a trailing "/". A file and a directory of one
// name are thus two entries (a type change lists both paths, as git does).
func compareEntries(x, y *object.TreeEntry) int {
	kx, ky := x.Name, y.Name
	n := min(len(kx), len(ky))
	if c := strings.Compare(kx[:n], ky[:n]); c != 0 {
		return c
	}
	return cmpByte(entryByte(x, n), entryByte(y, n))
}

// entryByte is the byte at i of an entry's sort key (name, plus "/" for a
// directory), 0 past its end.
func entryByte(e *object.TreeEntry, i int) int {
	switch {
	case i < len(e.Name):
		return int(e.Name[i])
	case i == len(e.Name) && e.Mode == filemode.Dir:
		return '/'
	}
	return 0
}

func cmpByte(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// headBranch is the short name of HEAD's branch when that branch's tip is
// h, else "" (detached HEAD, another commit).
func headBranch(st storage.Storer, h plumbing.Hash) string {
	head, err := st.Reference(plumbing.HEAD)
	if err != nil || head.Type() != plumbing.SymbolicReference || !head.Target().IsBranch() {
		return ""
	}
	tip, err := storer.ResolveReference(st, head.Target())
	if err != nil || tip.Hash() != h {
		return ""
	}
	return head.Target().Short()
}
