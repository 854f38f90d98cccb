package odb

import (
	"encoding/binary"
	"math/bits"
)

// A zlib stream of a small object, inflated straight into a buffer of the
// size the pack's header gives. A log walk inflates thousands of commits
// of a few hundred bytes, one dynamic block each: compress/flate builds
// three 512-entry tables for each block and copies through its 32 KB
// window; here a table is as large as the block's longest code (a commit's
// literals: 7 to 9 bits) and the output is its own window. Nothing
// unusual is decided here (an error, a stream that yields another size, a
// wrong Adler-32): the caller inflates the stream again with
// compress/zlib, whose answer counts.

// maxInflateSmall bounds the objects inflated here.
const maxInflateSmall = 64 << 10

// inflater holds the tables of one stream at a time, reused.
type inflater struct {
	src   []byte
	pos   int    // the next byte of src not in bits
	bits  uint64 // bits read ahead, the next one lowest
	nbits uint
	out   []byte
	lit   huffman
	dist  huffman
	lens  [320]uint8
	// fixedLit and fixedDist are the fixed block's codes, built once.
	fixedLit, fixedDist *huffman
}

// inflate inflates the zlib stream at the start of src into exactly size
// bytes; ok is false for anything but a complete stream of that size
// whose checksum holds.
func (f *inflater) inflate(src []byte, size int) (out []byte, ok bool) {
	if len(src) < 2 || src[0]&0x0f != 8 || src[0]>>4 > 7 || (uint(src[0])<<8|uint(src[1]))%31 != 0 || src[1]&0x20 != 0 {
		return nil, false // not deflate, a window over 32 KB, a preset dictionary
	}
	f.src, f.pos, f.bits, f.nbits, f.out = src, 2, 0, 0, make([]byte, 0, size)
	defer func() { f.src, f.out = nil, nil }()
	for {
		head, ok := f.take(3)
		if !ok {
			return nil, false
		}
		switch head >> 1 {
		case 0:
			ok = f.stored()
		case 1:
			ok = f.fixed()
		case 2:
			ok = f.dynamic()
		default:
			return nil, false
		}
		if !ok {
			return nil, false
		}
		if head&1 == 1 {
			break
		}
	}
	f.align()
	if len(f.out) != size || f.pos+4 > len(src) || binary.BigEndian.Uint32(src[f.pos:]) != adler32(f.out) {
		return nil, false
	}
	return f.out, true
}

// need reads ahead until n bits (at most 56) are in hand.
func (f *inflater) need(n uint) bool {
	if f.nbits >= n {
		return true
	}
	if f.pos+8 <= len(f.src) {
		f.refill()
		return true
	}
	for f.nbits < n {
		if f.pos >= len(f.src) {
			return false
		}
		f.bits |= uint64(f.src[f.pos]) << f.nbits
		f.pos++
		f.nbits += 8
	}
	return true
}

// refill reads ahead whole bytes up to 56 bits or more, where 8 bytes of
// src are left (else nothing).
func (f *inflater) refill() {
	if f.pos+8 <= len(f.src) {
		f.bits |= binary.LittleEndian.Uint64(f.src[f.pos:]) << f.nbits
		k := (63 - f.nbits) / 8
		f.pos += int(k)
		f.nbits += k * 8
	}
}

func (f *inflater) take(n uint) (uint32, bool) {
	if f.nbits < n && !f.need(n) {
		return 0, false
	}
	v := uint32(f.bits & (1<<n - 1))
	f.bits >>= n
	f.nbits -= n
	return v, true
}

// align drops the bits to the next byte and gives back the whole bytes
// read ahead.
func (f *inflater) align() {
	f.nbits -= f.nbits % 8
	f.pos -= int(f.nbits / 8)
	f.bits, f.nbits = 0, 0
}

func (f *inflater) stored() bool {
	f.align()
	if f.pos+4 > len(f.src) {
		return false
	}
	n := int(binary.LittleEndian.Uint16(f.src[f.pos:]))
	if uint16(n) != ^binary.LittleEndian.Uint16(f.src[f.pos+2:]) {
		return false
	}
	f.pos += 4
	if f.pos+n > len(f.src) || len(f.out)+n > cap(f.out) {
		return false
	}
	f.out = append(f.out, f.src[f.pos:f.pos+n]...)
	f.pos += n
	return true
}

func (f *inflater) fixed() bool {
	if f.fixedLit == nil {
		var lens [320]uint8
		for i := range 288 {
			switch {
			case i < 144:
				lens[i] = 8
			case i < 256:
				lens[i] = 9
			case i < 280:
				lens[i] = 7
			default:
				lens[i] = 8
			}
		}
		for i := range 32 { // 30 and 31 complete the code; neither is valid
			lens[288+i] = 5
		}
		lit, dist := new(huffman), new(huffman)
		if !lit.build(lens[:288], false) || !dist.build(lens[288:320], false) {
			return false
		}
		f.fixedLit, f.fixedDist = lit, dist
	}
	return f.codes(f.fixedLit, f.fixedDist)
}

// codeOrder is the order of the code length code's lengths.
var codeOrder = [19]uint8{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}

func (f *inflater) dynamic() bool {
	v, ok := f.take(14)
	if !ok {
		return false
	}
	nlen, ndist, ncode := int(v&31)+257, int(v>>5&31)+1, int(v>>10)+4
	if nlen > 286 || ndist > 30 {
		return false
	}
	var cl [19]uint8
	for i := range ncode {
		l, ok := f.take(3)
		if !ok {
			return false
		}
		cl[codeOrder[i]] = uint8(l)
	}
	if !f.lit.build(cl[:], true) {
		return false
	}
	// The two codes' lengths are counted as they are read, not again by
	// build: a pass over some 300 lengths a commit.
	var counts [2][16]uint16
	mask := uint64(1)<<f.lit.tbits - 1
	for i := 0; i < nlen+ndist; {
		// A code of at most 7 bits and at most 7 extra bits: with 14 in
		// hand, a code the table has is read with no check.
		if f.nbits < 14 {
			f.refill()
		}
		var sym int
		if e := f.lit.table[f.bits&mask&(1<<maxTableBits-1)]; e != 0 && f.nbits >= 14 {
			n := uint(e & 15)
			f.bits >>= n
			f.nbits -= n
			sym = int(e >> 4)
		} else if sym, ok = f.lit.decode(f); !ok {
			return false
		}
		if sym < 16 {
			f.lens[i] = uint8(sym)
			if i < nlen {
				counts[0][sym]++
			} else {
				counts[1][sym]++
			}
			i++
			continue
		}
		var rep uint32
		var l uint8
		switch sym {
		case 16:
			if i == 0 {
				return false
			}
			l = f.lens[i-1]
			rep, ok = f.take(2)
			rep += 3
		case 17:
			rep, ok = f.take(3)
			rep += 3
		default:
			rep, ok = f.take(7)
			rep += 11
		}
		if !ok || i+int(rep) > nlen+ndist {
			return false
		}
		inLit := min(int(rep), max(nlen-i, 0)) // a run may cross into the distance code's
		counts[0][l&15] += uint16(inLit)
		counts[1][l&15] += uint16(int(rep) - inLit)
		for ; rep > 0; rep-- {
			f.lens[i] = l
			i++
		}
	}
	if f.lens[256] == 0 {
		return false // no end-of-block code
	}
	if !f.lit.buildCounted(f.lens[:nlen], &counts[0], false) || !f.dist.buildCounted(f.lens[nlen:nlen+ndist], &counts[1], false) {
		return false
	}
	return f.codes(&f.lit, &f.dist)
}

var (
	lenBase   = [29]uint16{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
	lenExtra  = [29]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	distBase  = [30]uint16{1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577}
	distExtra = [30]uint8{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}
)

// codes inflates a block's literals and matches up to its end. While 48
// bits are in hand (a literal or length code, its extra bits, a distance
// code and its extra bits: 15+5+15+13) a symbol is read with no check of
// the bits left, from the tables as they are; near the stream's end, and
// for a code longer than a table's, codeChecked reads it. The bits and
// the output are held in locals, put back in f around every call: a
// commit is mostly literals, and through f each cost a load and a store.
func (f *inflater) codes(lit, dist *huffman) bool {
	lmask, dmask := uint64(1)<<lit.tbits-1, uint64(1)<<dist.tbits-1
	src, pos, bits, nbits, out := f.src, f.pos, f.bits, f.nbits, f.out
	for {
		if nbits < 48 && pos+8 <= len(src) { // refill, as f.refill
			bits |= binary.LittleEndian.Uint64(src[pos:]) << nbits
			k := (63 - nbits) / 8
			pos += int(k)
			nbits += k * 8
		}
		e := lit.table[bits&lmask&(1<<maxTableBits-1)]
		if nbits < 48 || e == 0 {
			f.pos, f.bits, f.nbits, f.out = pos, bits, nbits, out
			if done, ok := f.codeChecked(lit, dist); done || !ok {
				return ok
			}
			pos, bits, nbits, out = f.pos, f.bits, f.nbits, f.out
			continue
		}
		n := uint(e & 15)
		bits >>= n
		nbits -= n
		sym := int(e >> 4)
		if sym < 256 {
			if len(out) == cap(out) {
				return false
			}
			out = append(out, byte(sym))
			continue
		}
		if sym == 256 {
			f.pos, f.bits, f.nbits, f.out = pos, bits, nbits, out
			return true
		}
		if sym > 285 {
			return false
		}
		sym -= 257
		eb := uint(lenExtra[sym])
		ln := int(lenBase[sym]) + int(bits&(1<<eb-1))
		bits >>= eb
		nbits -= eb
		f.pos, f.bits, f.nbits, f.out = pos, bits, nbits, out
		ds := 0
		if de := dist.table[bits&dmask&(1<<maxTableBits-1)]; de != 0 {
			n := uint(de & 15)
			f.bits >>= n
			f.nbits -= n
			ds = int(de >> 4)
		} else {
			var ok bool
			if ds, ok = dist.decode(f); !ok {
				return false
			}
		}
		if !f.match(ln, ds) {
			return false
		}
		pos, bits, nbits, out = f.pos, f.bits, f.nbits, f.out
	}
}

// codeChecked reads one symbol of a block, and its match, checking each
// read; done at the block's end.
func (f *inflater) codeChecked(lit, dist *huffman) (done, ok bool) {
	sym, ok := lit.decode(f)
	if !ok {
		return false, false
	}
	if sym < 256 {
		if len(f.out) == cap(f.out) {
			return false, false
		}
		f.out = append(f.out, byte(sym))
		return false, true
	}
	if sym == 256 {
		return true, true
	}
	if sym > 285 {
		return false, false
	}
	sym -= 257
	e, ok := f.take(uint(lenExtra[sym]))
	if !ok {
		return false, false
	}
	n := int(lenBase[sym]) + int(e)
	ds, ok := dist.decode(f)
	if !ok {
		return false, false
	}
	return false, f.match(n, ds)
}

// match copies n bytes from the distance of code ds (its extra bits still
// to read) back in the output.
func (f *inflater) match(n, ds int) bool {
	if ds > 29 {
		return false
	}
	e, ok := f.take(uint(distExtra[ds]))
	if !ok {
		return false
	}
	d := int(distBase[ds]) + int(e)
	at := len(f.out)
	if d > at || at+n > cap(f.out) {
		return false
	}
	f.out = f.out[:at+n]
	if d >= n { // no overlap
		copy(f.out[at:], f.out[at-d:at-d+n])
		return true
	}
	for i := range n { // byte by byte: the match overlaps its own output
		f.out[at+i] = f.out[at-d+i]
	}
	return true
}

// huffman is a canonical code: a table of its codes indexed by the next
// tbits bits as read (tbits: its longest code, at most maxTableBits; each
// entry the symbol and the code's length, 0 for a longer code), and the
// counts and symbols a longer code is decoded from, bit by bit (as zlib's
// puff does).
type huffman struct {
	table  [1 << maxTableBits]uint16
	tbits  uint
	count  [16]uint16
	symbol [288]uint16
	empty  bool // no code at all (a block of literals only)
}

const maxTableBits = 9

// build makes the code of lengths. A set of lengths zlib refuses is
// refused: over-subscribed, or incomplete but for a single code of one
// bit (in a literal or distance code, not the code length code).
func (h *huffman) build(lengths []uint8, codeLengths bool) bool {
	var count [16]uint16
	for _, l := range lengths {
		if l != 0 {
			count[l]++
		}
	}
	return h.buildCounted(lengths, &count, codeLengths)
}

// buildCounted is build of lengths counted already: count[l] of them are
// l (count[0] is not read).
func (h *huffman) buildCounted(lengths []uint8, count *[16]uint16, codeLengths bool) bool {
	h.count = *count
	h.count[0] = 0
	used := 0
	for _, c := range h.count {
		used += int(c)
	}
	h.empty = used == 0
	if h.empty {
		h.tbits, h.table[0] = 0, 0 // every look-up misses: decode refuses
		return !codeLengths
	}
	longest := 15
	for h.count[longest] == 0 {
		longest--
	}
	left := 1
	for l := 1; l <= 15; l++ {
		left = left<<1 - int(h.count[l])
		if left < 0 {
			return false
		}
	}
	if left > 0 && (codeLengths || longest != 1) {
		return false
	}
	var offs [16]uint16
	for l := 1; l < 15; l++ {
		offs[l+1] = offs[l] + h.count[l]
	}
	for s, l := range lengths {
		if l != 0 {
			h.symbol[offs[l]] = uint16(s)
			offs[l]++
		}
	}
	// The table is built length by length, doubled before each: a code
	// of l bits read from the table of l bits is in both halves of the
	// table of l+1 (the bit more, read last, is either), where a code of
	// l+1 bits takes a slot of its own, empty till then (a longer code's
	// prefix). One entry written per code, and copies.
	h.tbits = uint(min(longest, maxTableBits))
	h.table[0], h.table[1] = 0, 0
	code, idx := 0, 0
	for l := 1; l <= int(h.tbits); l++ {
		if l > 1 {
			copy(h.table[1<<(l-1):1<<l], h.table[:1<<(l-1)])
		}
		for range int(h.count[l]) {
			h.table[bits.Reverse16(uint16(code))>>(16-l)] = h.symbol[idx]<<4 | uint16(l)
			code++
			idx++
		}
		code <<= 1
	}
	return true
}

// decode reads one symbol.
func (h *huffman) decode(f *inflater) (int, bool) {
	if h.empty || f.nbits < 15 && !f.need(15) {
		return 0, false
	}
	if e := h.table[f.bits&(1<<h.tbits-1)]; e != 0 {
		n := uint(e & 15)
		f.bits >>= n
		f.nbits -= n
		return int(e >> 4), true
	}
	code, first, index := 0, 0, 0
	for l := uint(1); l <= 15; l++ {
		code |= int(f.bits>>(l-1)) & 1
		count := int(h.count[l])
		if code-count < first {
			f.bits >>= l
			f.nbits -= l
			return int(h.symbol[index+code-first]), true
		}
		index += count
		first = (first + count) << 1
		code <<= 1
	}
	return 0, false
}

// adler32 is zlib's checksum of b.
func adler32(b []byte) uint32 {
	const mod = 65521
	s1, s2 := uint32(1), uint32(0)
	for len(b) > 0 {
		n := min(len(b), 5552)
		for _, c := range b[:n] {
			s1 += uint32(c)
			s2 += s1
		}
		s1 %= mod
		s2 %= mod
		b = b[n:]
	}
	return s2<<16 | s1
}
