// Package odb reads a repository's objects in process, as git reads them:
// loose objects, packs (through alternates) and the commit-graph. It uses
// go-git's object formats, not its storage or object model, and imports
// nothing of git-convo. It answers only where it is sure to agree with
// git: an error means the caller asks git.
package odb

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/objfile"
)

// constError is an error that can be a constant.
type constError string

func (e constError) Error() string { return string(e) }

// ErrNoObject: the object is in none of the stores read here (a promisor
// remote of a partial clone, a shallow boundary): the caller asks git.
const ErrNoObject = constError("object not found")

// ErrOverLimit: the object is larger than the store's limit; it was not
// inflated past its header.
const ErrOverLimit = constError("object over the size limit")

// Store reads a repository's objects in process: loose objects and
// packs, through alternates. It uses go-git's object formats only (and its
// own pack reader, packread.go), not go-git's storage or object model,
// whose imports (config parsing, OpenPGP signature verification) would be
// initialised in every git-convo process.
type Store struct {
	dirs  []string     // objects directories, the repository's first
	packs []*packIndex // indexes opened on first need
	read  bool
	pr    packReader
	// odd: an alternates line git may read otherwise (white space at
	// either end, a CR, quoting): every read is git's then.
	odd bool
	// limit: an object over it is ErrOverLimit, read no further than its
	// header (0: none). A caller reading what others wrote (notes) sets it.
	limit     int64
	maps      *Maps        // the pack indexes' mappings, shared (nil: its own)
	graph     *CommitGraph // opened on first need (CommitGraph)
	graphRead bool
	graphOdd  bool // a graph git may read otherwise: walks are git's
}

// Open reads the objects of the repository whose common directory is
// commonDir, and of its alternates.
func Open(commonDir string) *Store { return OpenShared(commonDir, nil) }

// OpenShared is Open with the pack indexes mapped through maps, shared
// with the repository's other readers (MapIndexNames).
func OpenShared(commonDir string, maps *Maps) *Store {
	s := &Store{maps: maps}
	seen := map[string]bool{}
	var add func(dir string, depth int)
	add = func(dir string, depth int) {
		if seen[dir] || depth > 5 {
			return
		}
		seen[dir] = true
		s.dirs = append(s.dirs, dir)
		data, err := os.ReadFile(filepath.Join(dir, "info", "alternates"))
		if err != nil {
			return
		}
		for _, line := range strings.Split(string(data), "\n") {
			// git takes each line as it is (a CR is part of the path,
			// which then names no directory): any doubt is git's.
			if line != strings.TrimSpace(line) || strings.HasPrefix(line, `"`) {
				s.odd = true
			}
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			if !filepath.IsAbs(line) {
				line = filepath.Join(dir, line)
			}
			add(filepath.Clean(line), depth+1)
		}
	}
	add(filepath.Join(commonDir, "objects"), 0)
	return s
}

// SetLimit makes every object over limit bytes ErrOverLimit, read no
// further than its header (0: no limit). A caller reading what others
// wrote (notes) sets one.
func (s *Store) SetLimit(limit int64) { s.limit = limit }

// Close releases the pack files and the commit-graph.
func (s *Store) Close() {
	for _, p := range s.packs {
		p.close()
	}
	if s.graph != nil {
		s.graph.Close()
	}
}

// CommitGraph is the repository's commit-graph, opened on first need; nil
// where there is none (its methods then answer nothing). odd: there is one
// this reader does not take, and no walk should be taken here.
func (s *Store) CommitGraph() (g *CommitGraph, odd bool) {
	if !s.graphRead {
		s.graphRead = true
		s.graph, s.graphOdd = OpenCommitGraph(s.dirs[0])
	}
	return s.graph, s.graphOdd || s.odd
}

// object returns an object's type and content.
func (s *Store) Object(h plumbing.Hash) (plumbing.ObjectType, []byte, error) {
	return s.objectAt(h, 0)
}

// objectAt is object for a delta's base, depth deltas down. Like git
// (odb_read_object), packs come first, then the first loose file found:
// where the two copies differ, git's is the one read. A copy that cannot
// be read is an error (git's to answer), never a cue to try another.
func (s *Store) objectAt(h plumbing.Hash, depth int) (plumbing.ObjectType, []byte, error) {
	if s.odd {
		return 0, nil, ErrBadPack
	}
	if err := s.loadPacks(); err != nil {
		return 0, nil, err
	}
	for _, p := range s.packs {
		off, ok, err := p.find(h)
		if err != nil {
			return 0, nil, err
		}
		if ok {
			return s.pr.read(p, off, depth, s.limit, s.objectAt)
		}
	}
	f, err := s.openLoose(h)
	if err != nil {
		return 0, nil, err
	}
	defer f.Close()
	return readLoose(f, s.limit)
}

// openLoose opens the first loose file of h, the one git reads; ErrNoObject
// where there is none.
func (s *Store) openLoose(h plumbing.Hash) (*os.File, error) {
	hex := h.String()
	for _, dir := range s.dirs {
		f, err := os.Open(filepath.Join(dir, hex[:2], hex[2:]))
		if os.IsNotExist(err) {
			continue
		}
		return f, err
	}
	return nil, fmt.Errorf("%w: %s", ErrNoObject, hex)
}

// readLoose reads a loose object: at most the size its header gives and one
// byte more, so a stream that inflates past it (a zlib bomb) is refused
// after that many bytes, as git refuses it ("garbage at end of loose
// object"); the stream must end there, its checksum right. An object over
// limit (when not 0) is ErrOverLimit, its header the only part inflated.
func readLoose(f io.Reader, limit int64) (plumbing.ObjectType, []byte, error) {
	r, err := objfile.NewReader(f)
	if err != nil {
		return 0, nil, err
	}
	defer r.Close()
	t, size, err := r.Header()
	if err != nil {
		return 0, nil, err
	}
	if size < 0 || size > maxLooseBytes {
		return 0, nil, ErrBadPack
	}
	if limit > 0 && size > limit {
		return t, nil, ErrOverLimit
	}
	data, err := readSized(r, size)
	return t, data, err
}

// readSized reads exactly size bytes of an object from an inflating r:
// a stream that ends early, or goes on past size (a zlib bomb: at most one
// byte more is read), or whose checksum is wrong, is ErrBadPack. Memory
// grows with what the stream yields, not with what a header claims.
func readSized(r io.Reader, size int64) ([]byte, error) {
	buf := make([]byte, 0, min(size, 1<<20)+1) // one allocation up to 1 MB
	lr := io.LimitReader(r, size+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := lr.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, ErrBadPack
		}
	}
	if int64(len(buf)) != size {
		return nil, ErrBadPack
	}
	return buf, nil
}

// maxLooseBytes bounds a loose object read in process (the header's size
// is allocated up front): a larger one is git's to read.
const maxLooseBytes = 256 << 20

// loadPacks opens every pack index once (header and fan-out only).
func (s *Store) loadPacks() error {
	if s.read {
		return nil
	}
	s.read = true
	for _, dir := range s.dirs {
		idxs, _ := filepath.Glob(filepath.Join(dir, "pack", "*.idx"))
		for _, ip := range idxs {
			packPath := strings.TrimSuffix(ip, ".idx") + ".pack"
			if _, err := os.Stat(packPath); err != nil {
				continue
			}
			p, err := openPackIndex(s.maps, ip, packPath)
			if err != nil {
				return fmt.Errorf("reading %s: %w", ip, err)
			}
			s.packs = append(s.packs, p)
		}
	}
	return nil
}

// typed returns an object's content, checking its type.
func (s *Store) Typed(h plumbing.Hash, want plumbing.ObjectType) ([]byte, error) {
	t, data, err := s.Object(h)
	if err != nil {
		return nil, err
	}
	if t != want {
		return nil, fmt.Errorf("object %s is a %s, not a %s", h, t, want)
	}
	return data, nil
}
