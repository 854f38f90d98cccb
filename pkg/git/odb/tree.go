package odb

import (
	"bytes"
	"errors"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// TreeEntry is one entry of a tree object.
type TreeEntry struct {
	Name string
	Dir  bool
	Mode string // as git reads it (canonMode): 40000, 100644, 100755, 120000 or 160000
	Hash plumbing.Hash
}

// ParseTree reads a tree object: "<mode> <name>\0<20-byte hash>" entries.
// A tree git would read otherwise than its entries say is an error (the
// caller asks git): a mode that is no octal number, and entries out of
// git's order or repeated (git fsck's treeNotSorted, duplicateEntries).
func ParseTree(data []byte) ([]TreeEntry, error) {
	var out []TreeEntry
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		nul := bytes.IndexByte(data, 0)
		if sp < 0 || nul < sp || len(data) < nul+21 {
			return nil, errors.New("malformed tree object")
		}
		mode, ok := canonMode(data[:sp])
		if !ok {
			return nil, errors.New("malformed tree object: an entry's mode")
		}
		e := TreeEntry{Name: string(data[sp+1 : nul]), Mode: mode, Dir: mode == "40000"}
		copy(e.Hash[:], data[nul+1:nul+21])
		if n := len(out); n > 0 && compareEntries(&out[n-1], &e) >= 0 {
			return nil, errors.New("tree entries out of git's order, or repeated")
		}
		out = append(out, e)
		data = data[nul+21:]
	}
	return out, nil
}

// canonMode is a tree entry's mode as git reads it (canon_mode): whatever
// the digits, a directory is 40000 (git fsck only warns of 040000), a file
// 100644 or 100755 by its owner's execute bit, a symlink 120000, and
// anything else a submodule's commit, 160000. ok is false where git finds
// no mode (a byte that is no octal digit).
func canonMode(raw []byte) (mode string, ok bool) {
	if len(raw) == 0 || len(raw) > 8 {
		return "", false
	}
	var m uint32
	for _, c := range raw {
		if c < '0' || c > '7' {
			return "", false
		}
		m = m<<3 | uint32(c-'0')
	}
	switch m & 0o170000 {
	case 0o040000:
		return "40000", true
	case 0o100000:
		if m&0o100 != 0 {
			return "100755", true
		}
		return "100644", true
	case 0o120000:
		return "120000", true
	}
	return "160000", true
}

// TreePath finds path ("a/b/c") under tree: present is false where it is
// not there (cat-file's "missing"), ok false where a tree cannot be read.
func (s *Store) TreePath(tree plumbing.Hash, path string) (h plumbing.Hash, present, ok bool) {
	e, present, ok := s.TreeEntryAt(tree, path, nil)
	if !present || e.Mode == "160000" {
		return e.Hash, false, ok // a submodule's commit: not in this repository
	}
	return e.Hash, true, ok
}

// TreeEntryAt is the entry at path ("a/b/c") under tree: present is false
// where none is there, ok false where a tree cannot be read. trees, when
// not nil, keeps each tree read for the next look-up (many paths under
// one tree read it once).
func (s *Store) TreeEntryAt(tree plumbing.Hash, path string, trees map[plumbing.Hash][]TreeEntry) (e TreeEntry, present, ok bool) {
	e = TreeEntry{Dir: true, Mode: "40000", Hash: tree}
	for comp := range strings.SplitSeq(path, "/") {
		if !e.Dir {
			return e, false, true // a path under a file or a submodule
		}
		entries, kept := trees[e.Hash]
		if !kept {
			data, err := s.Typed(e.Hash, plumbing.TreeObject)
			if err != nil {
				return e, false, false
			}
			if entries, err = ParseTree(data); err != nil {
				return e, false, false
			}
			if trees != nil {
				trees[e.Hash] = entries
			}
		}
		found := false
		for _, c := range entries {
			if c.Name != comp {
				continue
			}
			if found {
				// A file and a directory of one name (ParseTree lets
				// them by: git orders them apart): which one git walks
				// into depends on the path, so git answers.
				return e, false, false
			}
			e, found = c, true
		}
		if !found {
			return e, false, true
		}
	}
	return e, true, true
}

// DiffTrees appends the paths that differ between trees a and b (either may
// be zero: empty) as git diff-tree -r names them. Both trees are in git's
// order, so one merge pass pairs their entries, and a subtree whose hash did
// not change is never read.
func (s *Store) DiffTrees(a, b plumbing.Hash, prefix string, out *[]string) error {
	ea, err := s.readTree(a)
	if err != nil {
		return err
	}
	eb, err := s.readTree(b)
	if err != nil {
		return err
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
			if err := s.addEntry(&ea[i], prefix, out); err != nil {
				return err
			}
			i++
		case c > 0: // only in b
			if err := s.addEntry(&eb[j], prefix, out); err != nil {
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
			if !x.Dir { // both files (compareEntries tells dirs apart)
				*out = append(*out, prefix+x.Name)
				continue
			}
			if err := s.DiffTrees(x.Hash, y.Hash, prefix+x.Name+"/", out); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *Store) readTree(h plumbing.Hash) ([]TreeEntry, error) {
	if h.IsZero() {
		return nil, nil
	}
	data, err := s.Typed(h, plumbing.TreeObject)
	if err != nil {
		return nil, err
	}
	return ParseTree(data)
}

// addEntry appends an entry on one side only: its path, or for a directory
// every path under it.
func (s *Store) addEntry(e *TreeEntry, prefix string, out *[]string) error {
	if !e.Dir {
		*out = append(*out, prefix+e.Name)
		return nil
	}
	return s.DiffTrees(plumbing.ZeroHash, e.Hash, prefix+e.Name+"/", out)
}

// compareEntries orders tree entries as git stores them: by name, a
// directory's name read with a trailing "/". A file and a directory of one
// name are thus two entries (a type change lists both paths, as git does).
func compareEntries(x, y *TreeEntry) int {
	kx, ky := x.Name, y.Name
	n := min(len(kx), len(ky))
	if c := strings.Compare(kx[:n], ky[:n]); c != 0 {
		return c
	}
	return cmpByte(entryByte(x, n), entryByte(y, n))
}

// entryByte is the byte at i of an entry's sort key (name, plus "/" for a
// directory), 0 past its end.
func entryByte(e *TreeEntry, i int) int {
	switch {
	case i < len(e.Name):
		return int(e.Name[i])
	case i == len(e.Name) && e.Dir:
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
