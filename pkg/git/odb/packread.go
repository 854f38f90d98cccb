package odb

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"io"
	"os"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/objfile"
)

// A pack read for a few objects: a read command wants one commit, a tree or
// two and a blob, so the index is searched where it lies (its fan-out and
// one bucket of names, a few reads) rather than loaded whole, and only the
// objects asked for are inflated, with their delta bases. go-git's
// packfile reader maps every offset of the index to its hash on first use,
// which costs more than the whole of git show on a 4,000-commit history.

// ErrBadPack: a pack or index this reader does not take (another version,
// a corrupt entry): the caller asks git.
const ErrBadPack = constError("unreadable pack")

// v2Index is a version 2 pack index (.idx) file, mapped into memory: a
// lookup (packIndex.find) touches a few of its pages and makes no system
// call, where reading a bucket of names cost a pread of up to 24 KB on
// git.git; or its whole table of names (the abbreviations,
// MapIndexNames). It is the one reader of the format.
type v2Index struct {
	data   []byte
	unmap  func()
	fanout [256]uint32
	n      uint32 // the number of objects
}

// idxNames is where an index's sorted names start: after its magic,
// version and fan-out table.
const idxNames = 8 + 1024

// openV2Index maps an index (shared through m) and reads its header and
// fan-out; another version, or a fan-out that is not sorted, is ErrBadPack.
func openV2Index(m *Maps, path string) (*v2Index, error) {
	data, unmap, err := m.mapFile(path)
	if err != nil {
		return nil, err
	}
	if len(data) < idxNames || !bytes.Equal(data[:8], []byte{0xff, 't', 'O', 'c', 0, 0, 0, 2}) {
		unmap()
		return nil, ErrBadPack
	}
	x := &v2Index{data: data, unmap: unmap}
	for i := range x.fanout {
		x.fanout[i] = binary.BigEndian.Uint32(data[8+4*i:])
		if i > 0 && x.fanout[i] < x.fanout[i-1] {
			unmap()
			return nil, ErrBadPack
		}
	}
	x.n = x.fanout[255]
	return x, nil
}

// at is n bytes of the index at off, in place; ErrBadPack past its end.
func (x *v2Index) at(off, n int64) ([]byte, error) {
	if off < 0 || n < 0 || off+n > int64(len(x.data)) {
		return nil, ErrBadPack
	}
	return x.data[off : off+n], nil
}

// names is the sorted names of the objects lo to hi-1, 20 bytes each, in
// place (valid until the index is closed).
func (x *v2Index) names(lo, hi uint32) ([]byte, error) {
	return x.at(idxNames+int64(lo)*20, int64(hi-lo)*20)
}

// MapIndexNames maps a version 2 pack index for abbreviations (which
// search it for every hash), shared through m with the repository's other
// readers: its sorted object names, in place, and its fan-out table,
// valid until unmap. Nothing is copied: a lookup touches a few of the
// mapped pages, where a copy of the names cost log -n 1000 a fresh page of
// memory for every 200 objects of the pack.
func MapIndexNames(m *Maps, p string) (names []byte, fan [256]uint32, unmap func(), ok bool) {
	x, err := openV2Index(m, p)
	if err != nil {
		return nil, fan, nil, false
	}
	in, err := x.names(0, x.n)
	if err != nil {
		x.unmap()
		return nil, fan, nil, false // a corrupt count
	}
	return in, x.fanout, x.unmap, true
}

// packIndex is one pack: its index, read as needed, and the pack file,
// mapped where the platform maps files (data; pack reads from it), as git
// maps it: a walk that inflates thousands of commits makes no system call
// for each, and copies no 4 KB buffer for a 200-byte object.
type packIndex struct {
	*v2Index
	pack      io.ReaderAt
	data      []byte // the mapped pack (nil: read through pack)
	closePack func()
}

// openPackIndex reads an index's header and fan-out (its mapping shared
// through m), and opens its pack.
func openPackIndex(m *Maps, idxPath, packPath string) (*packIndex, error) {
	x, err := openV2Index(m, idxPath)
	if err != nil {
		return nil, err
	}
	p := &packIndex{v2Index: x}
	if data, unmap, err := mapPack(packPath); err == nil {
		p.data, p.pack, p.closePack = data, bytes.NewReader(data), unmap
		return p, nil
	}
	f, err := os.Open(packPath)
	if err != nil {
		x.unmap()
		return nil, err
	}
	p.pack, p.closePack = f, func() { f.Close() }
	return p, nil
}

func (p *packIndex) close() {
	p.unmap()
	p.closePack()
}

// find returns the pack offset of h; ok is false when the pack lacks it.
func (p *packIndex) find(h plumbing.Hash) (off int64, ok bool, err error) {
	lo := uint32(0)
	if h[0] > 0 {
		lo = p.fanout[h[0]-1]
	}
	hi := p.fanout[h[0]]
	if hi <= lo || hi > p.n {
		return 0, false, nil
	}
	names, err := p.names(lo, hi)
	if err != nil {
		return 0, false, err
	}
	i := SearchNames(names, 0, int(hi-lo), h[:])
	if i == int(hi-lo) || !bytes.Equal(names[i*20:i*20+20], h[:]) {
		return 0, false, nil
	}
	pos := int64(lo) + int64(i)
	b, err := p.at(idxNames+int64(p.n)*24+pos*4, 4)
	if err != nil {
		return 0, false, err
	}
	o := binary.BigEndian.Uint32(b)
	if o&0x80000000 == 0 {
		return int64(o), true, nil
	}
	if b, err = p.at(idxNames+int64(p.n)*28+int64(o&0x7fffffff)*8, 8); err != nil {
		return 0, false, err
	}
	big := binary.BigEndian.Uint64(b)
	if big > 1<<62 {
		return 0, false, ErrBadPack
	}
	return int64(big), true, nil
}

// SearchNames is the first of the sorted names lo to hi-1 (20 bytes each,
// as an index holds them) not below raw, hi if none. Names compare by
// their first 8 bytes as a number, and the rest only where those are
// equal. Object names are hashes, spread evenly, so the search starts
// where raw's first 8 bytes put it between the first and last names, and
// gallops from there to bracket it: the probes stay within a few cache
// lines of the answer, where a binary search over the range touched a
// page of the mapped index for each of its first steps (log -n 1000 on
// 403,077 objects: 2,000 searches, docs/performance.md). Names that are
// not spread evenly cost at most twice a binary search's probes.
func SearchNames(names []byte, lo, hi int, raw []byte) int {
	key := binary.BigEndian.Uint64(raw)
	less := func(m int) bool {
		name := names[m*20 : m*20+20]
		k := binary.BigEndian.Uint64(name)
		return k < key || k == key && bytes.Compare(name[8:], raw[8:]) < 0
	}
	if hi-lo > 16 {
		first, last := binary.BigEndian.Uint64(names[lo*20:]), binary.BigEndian.Uint64(names[(hi-1)*20:])
		if first < key && key < last {
			m := lo + int(float64(key-first)/float64(last-first)*float64(hi-1-lo))
			m = min(max(m, lo), hi-1)
			if less(m) { // the answer is past m: gallop up to a name not below raw
				top := hi
				for step := 1; ; step *= 2 {
					if q := m + step; q >= hi {
						break
					} else if !less(q) {
						top = q
						break
					} else {
						m = q
					}
				}
				lo, hi = m+1, top
			} else { // the answer is m or before: gallop down to a name below raw
				bottom := lo
				for step := 1; ; step *= 2 {
					if q := m - step; q < lo {
						break
					} else if less(q) {
						bottom = q + 1
						break
					} else {
						m = q
					}
				}
				lo, hi = bottom, m
			}
		}
	}
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if less(m) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// packReader inflates objects from packs, keeping the delta bases it made.
type packReader struct {
	small inflater // a small object's stream, in a mapped pack (inflate.go)
	zr    io.ReadCloser
	bases map[baseKey]packed
	size  int // bytes held in bases
}

type baseKey struct {
	p   *packIndex
	off int64
}

type packed struct {
	t    plumbing.ObjectType
	data []byte
}

// maxBaseBytes bounds the delta bases kept while a store is open.
const maxBaseBytes = 32 << 20

// read returns the object at off in p. base resolves a REF_DELTA's base by
// hash (any pack, or loose). An object over limit (when not 0) is
// ErrOverLimit, known from its header (a delta: from its two sizes, before
// its base is read), and a delta whose base is over limit is git's to read
// (ErrBadPack).
func (pr *packReader) read(p *packIndex, off int64, depth int, limit int64,
	base func(plumbing.Hash, int) (plumbing.ObjectType, []byte, error)) (plumbing.ObjectType, []byte, error) {
	if depth > 64 {
		return 0, nil, ErrBadPack
	}
	if o, ok := pr.bases[baseKey{p, off}]; ok {
		return o.t, o.data, nil
	}
	var head [32]byte
	n, err := p.pack.ReadAt(head[:], off)
	if n == 0 {
		return 0, nil, ErrBadPack
	}
	_ = err // a short read at the end of the pack: the header is shorter
	c := head[0]
	typ := plumbing.ObjectType((c >> 4) & 7)
	size := uint64(c & 15)
	pos, shift := 1, uint(4)
	for c&0x80 != 0 {
		if pos >= n || shift > 56 {
			return 0, nil, ErrBadPack
		}
		c = head[pos]
		pos++
		size |= uint64(c&0x7f) << shift
		shift += 7
	}
	if size > 1<<31 {
		return 0, nil, ErrBadPack
	}
	var t plumbing.ObjectType
	var data []byte
	switch typ {
	case plumbing.CommitObject, plumbing.TreeObject, plumbing.BlobObject, plumbing.TagObject:
		if limit > 0 && int64(size) > limit {
			return typ, nil, ErrOverLimit
		}
		t = typ
		data, err = pr.inflate(p, off+int64(pos), int(size))
		if err != nil {
			return 0, nil, err
		}
	case plumbing.OFSDeltaObject:
		rel, ok := ofsDeltaOffset(head[pos:n])
		if !ok {
			return 0, nil, ErrBadPack
		}
		for head[pos]&0x80 != 0 {
			pos++
		}
		pos++
		if rel <= 0 || rel > off {
			return 0, nil, ErrBadPack
		}
		readBase := func() (plumbing.ObjectType, []byte, error) { return pr.read(p, off-rel, depth+1, limit, base) }
		if t, data, err = pr.undelta(p, off+int64(pos), int(size), limit, readBase); err != nil {
			return 0, nil, err
		}
	case plumbing.REFDeltaObject:
		if pos+20 > n {
			return 0, nil, ErrBadPack
		}
		var h plumbing.Hash
		copy(h[:], head[pos:pos+20])
		readBase := func() (plumbing.ObjectType, []byte, error) { return base(h, depth+1) }
		if t, data, err = pr.undelta(p, off+int64(pos+20), int(size), limit, readBase); err != nil {
			return 0, nil, err
		}
	default:
		return 0, nil, ErrBadPack
	}
	if depth > 0 && pr.size+len(data) <= maxBaseBytes {
		if pr.bases == nil {
			pr.bases = map[baseKey]packed{}
		}
		pr.bases[baseKey{p, off}] = packed{t, data}
		pr.size += len(data)
	}
	return t, data, nil
}

// undelta applies the delta of size bytes at off to its base (readBase).
// With a limit (not 0) the delta is read and checked first (delta), so no
// base is read for an object over it; without, after the base, so that a
// chain of deltas holds one delta at a time.
func (pr *packReader) undelta(p *packIndex, off int64, size int, limit int64,
	readBase func() (plumbing.ObjectType, []byte, error)) (plumbing.ObjectType, []byte, error) {
	var delta []byte
	var err error
	if limit > 0 {
		if delta, err = pr.delta(p, off, size, limit); err != nil {
			return 0, nil, err
		}
	}
	bt, b, err := readBase()
	if err != nil {
		return 0, nil, baseErr(err)
	}
	if limit <= 0 {
		if delta, err = pr.inflate(p, off, size); err != nil {
			return 0, nil, err
		}
	}
	data, err := applyDelta(b, delta)
	return bt, data, err
}

// delta inflates the delta of size bytes at off and checks its two sizes,
// the base's and the result's, against limit: a result over it is
// ErrOverLimit, a base over it ErrBadPack (git reads it). A delta longer
// than the limit is checked from its first bytes before it is inflated;
// the usual small one is inflated once, then checked.
func (pr *packReader) delta(p *packIndex, off int64, size int, limit int64) ([]byte, error) {
	if int64(size) > limit {
		var head [2 * binary.MaxVarintLen64]byte
		if err := pr.at(p, off); err != nil {
			return nil, err
		}
		if _, err := io.ReadFull(pr.zr, head[:]); err != nil {
			return nil, ErrBadPack
		}
		if err := deltaWithin(head[:], size, limit); err != nil {
			return nil, err
		}
	}
	d, err := pr.inflate(p, off, size)
	if err == nil {
		err = deltaWithin(d, size, limit)
	}
	return d, err
}

// inflate reads size bytes of the zlib stream at off.
func (pr *packReader) inflate(p *packIndex, off int64, size int) ([]byte, error) {
	if p.data != nil && size <= maxInflateSmall && off >= 0 && off < int64(len(p.data)) {
		if out, ok := pr.small.inflate(p.data[off:], size); ok {
			return out, nil
		}
	}
	if err := pr.at(p, off); err != nil {
		return nil, err
	}
	// The stream must end at the entry's size, its checksum right (git:
	// "packed object is corrupt" otherwise).
	return readSized(pr.zr, int64(size))
}

// at points pr.zr at the zlib stream at off.
func (pr *packReader) at(p *packIndex, off int64) error {
	var src io.Reader
	if p.data != nil {
		if off < 0 || off >= int64(len(p.data)) {
			return ErrBadPack
		}
		src = bytes.NewReader(p.data[off:]) // a ByteReader: flate reads it as it is
	} else {
		src = bufio.NewReaderSize(io.NewSectionReader(p.pack, off, 1<<62), 4096)
	}
	var err error
	if pr.zr == nil {
		pr.zr, err = zlib.NewReader(src)
	} else {
		err = pr.zr.(zlib.Resetter).Reset(src, nil)
	}
	if err != nil {
		return ErrBadPack
	}
	return nil
}

// baseErr is a delta base's error for the delta: a base over the limit,
// though the delta gave its size within it, is a corrupt pack, not an
// object over the limit.
func baseErr(err error) error {
	if err == ErrOverLimit {
		return ErrBadPack
	}
	return err
}

// deltaWithin checks a delta of size bytes that starts with head against
// limit. Each delta op takes at most 8 bytes and yields at least one, so a
// delta longer than that for its result is corrupt.
func deltaWithin(head []byte, size int, limit int64) error {
	src, k := binary.Uvarint(head)
	if k <= 0 {
		return ErrBadPack
	}
	dst, j := binary.Uvarint(head[k:])
	switch {
	case j <= 0 || uint64(size) > uint64(k+j)+8*dst:
		return ErrBadPack
	case dst > uint64(limit):
		return ErrOverLimit
	case src > uint64(limit):
		return ErrBadPack
	}
	return nil
}

// applyDelta rebuilds an object from its base and a git delta: the two
// sizes, then copies from the base and inserted bytes. go-git's
// packfile.PatchDelta does the same job but costs more (BenchmarkApplyDelta:
// about 2-4 times the time and 3.6 times the memory on a 256 KB object,
// docs/performance.md) and refuses an empty base, so this one stays.
func applyDelta(base, delta []byte) ([]byte, error) {
	src, n := binary.Uvarint(delta)
	if n <= 0 || src != uint64(len(base)) {
		return nil, ErrBadPack
	}
	delta = delta[n:]
	dst, n := binary.Uvarint(delta)
	if n <= 0 || dst > 1<<31 {
		return nil, ErrBadPack
	}
	delta = delta[n:]
	// The size is only the delta's word until the ops bear it out: a
	// corrupt one claiming 2 GB must not allocate it up front. Each op
	// yields at most its copy of the base or its own inserted bytes.
	limit := uint64(len(base)+len(delta)) * 8
	out := make([]byte, 0, min(dst, limit))
	for len(delta) > 0 {
		op := delta[0]
		delta = delta[1:]
		switch {
		case op&0x80 != 0:
			var off, size uint64
			for i := range 4 {
				if op&(1<<i) != 0 {
					if len(delta) == 0 {
						return nil, ErrBadPack
					}
					off |= uint64(delta[0]) << (8 * i)
					delta = delta[1:]
				}
			}
			for i := range 3 {
				if op&(0x10<<i) != 0 {
					if len(delta) == 0 {
						return nil, ErrBadPack
					}
					size |= uint64(delta[0]) << (8 * i)
					delta = delta[1:]
				}
			}
			if size == 0 {
				size = 0x10000
			}
			if off+size > uint64(len(base)) {
				return nil, ErrBadPack
			}
			if uint64(len(out))+size > dst {
				return nil, ErrBadPack
			}
			out = append(out, base[off:off+size]...)
		case op != 0:
			if int(op) > len(delta) || uint64(len(out))+uint64(op) > dst {
				return nil, ErrBadPack
			}
			out = append(out, delta[:op]...)
			delta = delta[op:]
		default:
			return nil, errors.New("delta opcode 0")
		}
	}
	if uint64(len(out)) != dst {
		return nil, ErrBadPack
	}
	return out, nil
}

// objectType is an object's type from its header alone: a loose object's
// first bytes, a packed entry's type (a delta's from its base's header).
func (s *Store) Type(h plumbing.Hash) (plumbing.ObjectType, error) {
	return s.typeAt(h, 0)
}

func (s *Store) typeAt(h plumbing.Hash, depth int) (plumbing.ObjectType, error) {
	if depth > 64 {
		return 0, ErrBadPack
	}
	if s.odd {
		return 0, ErrBadPack
	}
	if err := s.loadPacks(); err != nil {
		return 0, err
	}
	for _, p := range s.packs {
		off, ok, err := p.find(h)
		if err != nil {
			return 0, err
		}
		if !ok {
			continue
		}
		for range 64 {
			var head [32]byte
			n, _ := p.pack.ReadAt(head[:], off)
			if n == 0 {
				return 0, ErrBadPack
			}
			t := plumbing.ObjectType((head[0] >> 4) & 7)
			pos := 1
			for c := head[0]; c&0x80 != 0; pos++ {
				if pos >= n {
					return 0, ErrBadPack
				}
				c = head[pos]
			}
			switch t {
			case plumbing.CommitObject, plumbing.TreeObject, plumbing.BlobObject, plumbing.TagObject:
				return t, nil
			case plumbing.OFSDeltaObject:
				rel, ok := ofsDeltaOffset(head[pos:n])
				if !ok || rel <= 0 || rel > off {
					return 0, ErrBadPack
				}
				off -= rel
			case plumbing.REFDeltaObject:
				if pos+20 > n {
					return 0, ErrBadPack
				}
				var base plumbing.Hash
				copy(base[:], head[pos:pos+20])
				return s.typeAt(base, depth+1)
			default:
				return 0, ErrBadPack
			}
		}
		return 0, ErrBadPack
	}
	f, err := s.openLoose(h)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	return looseType(f)
}

// ofsDeltaOffset reads an OFS_DELTA's distance back to its base.
func ofsDeltaOffset(b []byte) (int64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	c := b[0]
	rel := int64(c & 0x7f)
	for i := 1; c&0x80 != 0; i++ {
		if i >= len(b) || rel > 1<<55 {
			return 0, false
		}
		c = b[i]
		rel = (rel+1)<<7 | int64(c&0x7f)
	}
	return rel, true
}

// looseType reads a loose object's type from its header, with go-git's
// objfile reader (its zlib readers are pooled: a fifth of the time of a
// new one, BenchmarkLooseType).
func looseType(f io.Reader) (plumbing.ObjectType, error) {
	r, err := objfile.NewReader(f)
	if err != nil {
		return 0, err
	}
	defer r.Close()
	t, _, err := r.Header()
	return t, err
}
