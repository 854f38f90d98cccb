// Package position keeps line evidence by position: where in a file an
// agent's edit wrote its lines (located in the file as it was on disk right
// after the edit), and where those lines are in a later version of the file
// (carried through a line diff). A line is the agent's when a carried range
// covers it, whatever text other lines share with it.
//
// A file is kept as a Snapshot: one 64-bit hash per line (link.LineHash:
// line endings and trailing white space do not count), so capture stores 8
// bytes a line and never the text.
package position

import (
	"encoding/binary"
	"strings"

	"github.com/git-convo/git-convo/pkg/attribution/link"
)

// MaxLines bounds the files kept by position: a larger file's edits are
// kept as text only (the weaker "text match" evidence).
const MaxLines = 20000

// Range is lines [Start, End] of a file, 1-based, inclusive.
type Range struct {
	Start int `json:"s"`
	End   int `json:"e"`
}

// Write is one edit an agent reports, in any agent's terms: the text it
// replaced and the text it wrote (Old, New), or with Whole the file before
// ("" when new or unknown) and after. Lines, when the agent says so (a
// structured patch), are the 1-based lines of the file after the edit that
// it wrote, with their text; they are checked against the file.
type Write struct {
	Old, New string
	Whole    bool
	Lines    []PatchLine
}

// PatchLine is one line an agent's own patch says it wrote.
type PatchLine struct {
	N    int
	Text string
}

// Span is what capture keeps of one event's edits to one file: the file as
// it was on disk then (its line hashes) and the lines the edits wrote.
type Span struct {
	Path     string  `json:"path"`
	Snapshot []byte  `json:"snapshot"` // 8 bytes a line, little endian
	Ranges   []Range `json:"ranges"`
}

// Hashes returns the line hashes of a Snapshot.
func Hashes(snapshot []byte) []int64 {
	out := make([]int64, len(snapshot)/8)
	for i := range out {
		out[i] = int64(binary.LittleEndian.Uint64(snapshot[i*8:]))
	}
	return out
}

// SplitFile splits a file's content into its lines (a final newline ends the
// last line, it does not start another).
func SplitFile(content string) []string {
	if content == "" {
		return nil
	}
	lines := strings.Split(strings.ReplaceAll(content, "\r\n", "\n"), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// HashLines hashes each line.
func HashLines(lines []string) []int64 {
	out := make([]int64, len(lines))
	for i, l := range lines {
		out[i] = link.LineHash(l)
	}
	return out
}

// encode is the Snapshot of hashes.
func encode(hashes []int64) []byte {
	b := make([]byte, 8*len(hashes))
	for i, h := range hashes {
		binary.LittleEndian.PutUint64(b[i*8:], uint64(h))
	}
	return b
}

// Locate finds the lines that writes wrote in content, the file as it is on
// disk after them. ok is false for a write it cannot place with certainty
// (its text is not in the file, or is there more than once with nothing to
// choose between them): that write's lines are then text evidence only.
// The returned span holds the located writes' lines; nil when none was.
func Locate(path, content string, writes []Write) (span *Span, ok []bool) {
	lines := SplitFile(content)
	ok = make([]bool, len(writes))
	if len(lines) > MaxLines {
		return nil, ok
	}
	hashes := HashLines(lines)
	var written []int // 1-based
	for i, w := range writes {
		var ns []int
		switch {
		case len(w.Lines) > 0:
			ns, ok[i] = patchLines(lines, w.Lines)
		case w.Whole:
			ns, ok[i] = wholeLines(hashes, w.Old, w.New)
		default:
			ns, ok[i] = editLines(content, w.Old, w.New)
		}
		if ok[i] {
			written = append(written, ns...)
		}
	}
	if len(written) == 0 {
		return nil, ok
	}
	return &Span{Path: path, Snapshot: encode(hashes), Ranges: ToRanges(written)}, ok
}

// patchLines checks an agent's own line numbers against the file: each line
// must be there with that text (white space aside: some patches show tabs
// as spaces).
func patchLines(lines []string, pl []PatchLine) ([]int, bool) {
	squash := func(s string) string { return strings.Join(strings.Fields(s), "") }
	out := make([]int, 0, len(pl))
	for _, p := range pl {
		if p.N < 1 || p.N > len(lines) || squash(lines[p.N-1]) != squash(p.Text) {
			return nil, false
		}
		out = append(out, p.N)
	}
	return out, true
}

// wholeLines places a whole-file write: the lines of after that before does
// not have (by a diff), carried into the file on disk.
func wholeLines(disk []int64, before, after string) ([]int, bool) {
	afterH := HashLines(SplitFile(after))
	ins := Inserted(HashLines(SplitFile(before)), afterH)
	if ins == nil {
		return nil, false
	}
	return Carry(afterH, ToRanges(ins), disk)
}

// editLines places a replacement: the one place new is in content, widened
// to whole lines; the lines there that the replaced text did not have.
func editLines(content, old, new string) ([]int, bool) {
	if strings.TrimSpace(new) == "" {
		return nil, strings.Contains(content, new) // wrote nothing countable
	}
	at := strings.Index(content, new)
	if at < 0 || strings.Contains(content[at+1:], new) {
		return nil, false
	}
	start := strings.LastIndexByte(content[:at], '\n') + 1
	end := at + len(new)
	if content[end-1] != '\n' { // new ends inside a line: take all of it
		if nl := strings.IndexByte(content[end:], '\n'); nl >= 0 {
			end += nl + 1
		} else {
			end = len(content)
		}
	}
	first := strings.Count(content[:start], "\n") + 1
	after := SplitFile(content[start:end])
	before := SplitFile(content[start:at] + old + content[at+len(new):end])
	ins := Inserted(HashLines(before), HashLines(after))
	if ins == nil && len(after) > 0 {
		return nil, false
	}
	for i := range ins {
		ins[i] += first - 1
	}
	return ins, true
}

// ToRanges turns line numbers into ranges.
func ToRanges(ns []int) []Range {
	var out []Range
	for _, n := range ns {
		if k := len(out); k > 0 && n == out[k-1].End+1 {
			out[k-1].End = n
			continue
		}
		out = append(out, Range{n, n})
	}
	return out
}

// Covered returns the line numbers that ranges cover.
func Covered(rs []Range) []int {
	var out []int
	for _, r := range rs {
		for n := r.Start; n <= r.End; n++ {
			out = append(out, n)
		}
	}
	return out
}

// Inserted returns the 1-based lines of b that a line diff from a inserts
// (b's lines with no counterpart in a); nil when the diff is too large to
// trust (see maxEdits). An empty, non-nil slice: nothing inserted.
func Inserted(a, b []int64) []int {
	m, ok := Match(a, b)
	if !ok {
		return nil
	}
	out := []int{}
	for j, i := range m {
		if i < 0 {
			out = append(out, j+1)
		}
	}
	return out
}

// Carry returns where the lines that ranges cover in from are in to: the
// lines a diff from from to to keeps unchanged. ok is false when the diff is
// too large to trust.
//
// A blank line follows the written lines it lies among, not the diff: a
// diff pairs one blank line with any other, so a person's blank line next
// to the agent's would take its place. A written blank line keeps its
// distance to the nearest written non-blank line of its range (above it,
// else below it) when that line is carried and the lines between are
// blank in to as well; a range of blank lines alone follows the diff.
func Carry(from []int64, ranges []Range, to []int64) ([]int, bool) {
	m, ok := Match(from, to)
	if !ok {
		return nil, false
	}
	return CarryMatched(m, from, ranges, to), true
}

// CarryMatched is Carry with the diff Match(from, to) gave m already made:
// many edits of a file captured in one state share it.
func CarryMatched(m []int, from []int64, ranges []Range, to []int64) []int {
	fwd := make([]int, len(from))
	for i := range fwd {
		fwd[i] = -1
	}
	for j, i := range m {
		if i >= 0 {
			fwd[i] = j
		}
	}
	want := map[int]bool{}
	for _, n := range Covered(ranges) {
		if n >= 1 && n <= len(from) {
			want[n-1] = true
		}
	}
	settle(fwd, m, from, ranges, to)
	blankHash := link.LineHash("")
	blank := func(h int64) bool { return h == blankHash }
	allBlank := func(lo, hi int) bool { // to[lo..hi] are all blank lines
		if lo < 0 || hi >= len(to) {
			return false
		}
		for j := lo; j <= hi; j++ {
			if !blank(to[j]) {
				return false
			}
		}
		return true
	}
	got := map[int]bool{}
	for i := range from {
		if !want[i] {
			continue
		}
		if !blank(from[i]) {
			if fwd[i] >= 0 {
				got[fwd[i]] = true
			}
			continue
		}
		j := -1
		k := i - 1
		for k >= 0 && want[k] && blank(from[k]) {
			k--
		}
		if k >= 0 && want[k] && fwd[k] >= 0 && allBlank(fwd[k]+1, fwd[k]+i-k) {
			j = fwd[k] + i - k
		} else {
			k = i + 1
			for k < len(from) && want[k] && blank(from[k]) {
				k++
			}
			switch {
			case k < len(from) && want[k] && fwd[k] >= 0:
				if allBlank(fwd[k]-(k-i), fwd[k]-1) {
					j = fwd[k] - (k - i)
				}
			case (k >= len(from) || !want[k]) && (i == 0 || !want[i-1] || blank(from[i-1])):
				j = fwd[i] // no written line to follow: the diff's answer
			}
		}
		if j >= 0 {
			got[j] = true
		}
	}
	out := make([]int, 0, len(got))
	for j := range to {
		if got[j] {
			out = append(out, j+1)
		}
	}
	return out
}

// settle corrects what a shortest diff says of a range's lines that every
// file repeats. A diff keeps as many lines as it can: when a person edits
// the agent's "return nil" and inserts a function after the agent's, the
// diff pairs the agent's "return nil" and "}" with the person's further on
// (two lines kept rather than one). The diff splits a range into islands
// (runs carried with one offset). The one with the most anchors (lines
// whose text is once in from and once in to: a "return nil" can be one by
// chance) is the range's home and certain; so is an island with as many
// anchors (a person's function inserted between two parts of the agent's
// file leaves two islands of one anchor each), one at the home's
// offset (a line replaced between), or one moved away from it across lines
// none of which has the text of one of its own (a person's line inserted
// inside the agent's function). Any other island is not: its lines go back
// to the home's offset when to has the same line there that the diff paired
// with nothing, else they are not carried. A range with no anchor keeps the
// diff's answer.
func settle(fwd, m []int, from []int64, ranges []Range, to []int64) {
	count := func(hs []int64) map[int64]int {
		c := make(map[int64]int, len(hs))
		for _, h := range hs {
			c[h]++
		}
		return c
	}
	blank := link.LineHash("")
	var inFrom, inTo map[int64]int
	type island struct{ lo, hi, off int }
	for _, r := range ranges {
		lo, hi := max(r.Start-1, 0), min(r.End-1, len(from)-1)
		var islands []island
		for i := lo; i <= hi; i++ {
			if fwd[i] < 0 {
				continue
			}
			if n := len(islands); n > 0 && islands[n-1].hi == i-1 && fwd[i-1] == fwd[i]-1 {
				islands[n-1].hi = i
			} else {
				islands = append(islands, island{lo: i, hi: i, off: fwd[i] - i})
			}
		}
		if len(islands) < 2 {
			continue // carried whole, or not at all: nothing to settle
		}
		if inFrom == nil {
			inFrom, inTo = count(from), count(to)
		}
		// The range's home: the island with the most anchors (lines whose
		// text is once in from and once in to), the first of equals.
		home, best := -1, 0
		anchors := make([]int, len(islands))
		for k, is := range islands {
			for i := is.lo; i <= is.hi; i++ {
				if inFrom[from[i]] == 1 && inTo[from[i]] == 1 {
					anchors[k]++
				}
			}
			if anchors[k] > best {
				home, best = k, anchors[k]
			}
		}
		if home < 0 {
			continue
		}
		near := islands[home]
		for k, is := range islands {
			if k == home || is.off == near.off || anchors[k] >= best {
				continue // as many anchors as the home: as certain as it
			}
			// The lines of to between the island and the home, but the range's.
			gapLo, gapHi := near.hi+near.off+1, is.lo+is.off-1
			if is.lo < near.lo {
				gapLo, gapHi = is.hi+is.off+1, near.lo+near.off-1
			}
			own := map[int64]bool{}
			for i := is.lo; i <= is.hi; i++ {
				if from[i] != blank {
					own[from[i]] = true
				}
			}
			moved := false
			for j := max(gapLo, 0); j <= gapHi && j < len(to) && !moved; j++ {
				moved = own[to[j]] && (m[j] < lo || m[j] > hi)
			}
			if !moved {
				continue // nothing of its own to stay with: the diff is right
			}
			for i := is.lo; i <= is.hi; i++ {
				fwd[i] = -1
				if j := i + near.off; j >= 0 && j < len(to) && to[j] == from[i] && m[j] < 0 {
					fwd[i] = j
				}
			}
		}
	}
}
