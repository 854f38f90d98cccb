package notes

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/git-convo/git-convo/pkg/git/gitx"
)

// linksFile keeps, in the git common dir, what log reads of each note on
// the shared notes refs: the note's metadata for links (a quarter of its
// bytes), with the tips it was read at. log then asks git for no note
// (%N: git took longer to read 1,000 notes than for the rest of its log)
// and decodes a quarter of the bytes. The read that finds it behind a tip
// brings it up to date from the notes that changed since (git diff-tree of
// the old tip and the new), reading whole only a ref it has not seen, and
// a file damaged or missing; where none can be written, git log prints
// the notes as before. It is a cache of the notes, never an answer of its
// own.
const linksFile = "git-convo-notes-links"

// linksHeader starts the file; one "<ref> <tip>" line a ref follows
// (sorted: an entry names its ref by its place; "<ref> <tip> whole" for
// a ref read whole at each move, linksWhole), "entries <count> <heap
// bytes> <crc32c of the entries>", and an empty line; then the entries,
// linksEntrySize bytes each, sorted by commit then ref: the commit's hash
// (20 bytes), the ref's place, the kind (entryMeta, entryNone, entryLong),
// the note's blob (20 bytes: two refs' notes of a commit are the same note,
// or not; zero for a commit noted at two paths of a ref), the value's offset, length and CRC-32C (big-endian uint32s);
// then the heap of values. The file is mapped, not read: a log touches the
// entries and the values it asks for, each checked as it is read.
const linksHeader = "git-convo notes links 3\n"

// linksWhole marks a ref's line: its moves are read whole (LinksIndex.whole).
// A binary that knows no mark reads "<tip> whole" as a tip no ref has, and
// so reads the ref whole too.
const linksWhole = "whole"

// An entry's fields, by their offsets.
const (
	entRef, entKind, entBlob, entOff, entLen, entCRC = 20, 21, 22, 42, 46, 50
	linksEntrySize                                   = 54
)

// linksMaxRefs: more refs than an entry's byte can name are not indexed.
const linksMaxRefs = 250

// LinksIndex is the links file for some refs at their tips. Close it.
type LinksIndex struct {
	refs []string // sorted: an entry's ref byte is its place here
	tips map[string]string
	// whole: the refs whose tree names a note at a path not in lower case.
	// git joins a commit's notes at every path that names it, in either
	// case; a move of such a ref is read whole, as no look-up of the paths
	// a change touched finds the commit's other paths in other cases.
	whole   map[string]bool
	entries []byte
	heap    []byte
	// path, file and unmap: the file mapped (nil unmap: x is in
	// memory); damaged: a value failed its checksum (the file goes at
	// Close, unless another has taken its name).
	path    string
	file    os.FileInfo
	unmap   func() error
	damaged bool
}

// errLinksDamaged: a value of the links file failed its checksum.
var errLinksDamaged = errors.New("the notes' links file is damaged")

// value is entry e's value, ok when it passes its checksum.
func (x *LinksIndex) value(e []byte) (v []byte, ok bool) {
	off, ln := binary.BigEndian.Uint32(e[entOff:]), binary.BigEndian.Uint32(e[entLen:])
	v = x.heap[off : off+ln : off+ln]
	if checksum(v) != binary.BigEndian.Uint32(e[entCRC:]) {
		x.damaged = true
		return nil, false
	}
	return v, true
}

// Close lets the file go, and removes it when a value was found damaged
// (the next read builds it again).
func (x *LinksIndex) Close() {
	if x == nil {
		return
	}
	if x.unmap != nil {
		_ = x.unmap()
		x.unmap, x.entries, x.heap = nil, nil, nil
	}
	if x.damaged && x.path != "" && x.file != nil {
		if now, err := os.Stat(x.path); err == nil && os.SameFile(now, x.file) {
			_ = os.Remove(x.path)
		}
	}
}

// linksEntry is one note's entry, as an update builds the file.
type linksEntry struct {
	commit [20]byte
	ref    string
	kind   byte
	blob   [20]byte
	value  []byte // a kept entry's is the old file's: not copied
	at     byte   // ref's place among the file's refs (buildLinksIndex's)
}

// OpenLinksIndex is the links file of the repository whose common dir is
// common, for refs at tips (every ref read from the ref files), brought up
// to date with g where a tip moved (written back for the next read). An
// error: the notes are read as before.
func (g Git) OpenLinksIndex(ctx context.Context, common string, tips map[string]string, local *gitx.Repo) (*LinksIndex, error) {
	if len(tips) == 0 || len(tips) > linksMaxRefs {
		return nil, errors.New("no notes refs to index, or too many")
	}
	path := filepath.Join(common, linksFile)
	old, oerr := readLinksIndex(path)
	if oerr == nil && maps.Equal(old.tips, tips) {
		return old, nil
	}
	defer func() {
		if old != nil {
			old.damaged = false // its damage is read whole below, and the file replaced
			old.Close()
		}
	}()
	// The file beside it first: where none can be written (a read-only
	// repository) every read would read every note again, so none does.
	tmp, err := os.CreateTemp(common, linksFile+".*")
	if err != nil {
		return nil, fmt.Errorf("the notes' links cannot be kept: %w", err)
	}
	var trees *gitx.TreeReader
	if local != nil {
		trees = local.NewTreeReader(g.getenv)
		defer trees.Close()
	}
	x, err := g.updateLinks(ctx, old, tips, trees)
	if errors.Is(err, errLinksDamaged) {
		x, err = g.updateLinks(ctx, nil, tips, trees) // read whole
	}
	if err == nil {
		err = writeLinksIndex(tmp, path, x)
	} else {
		tmp.Close()
	}
	if err != nil {
		os.Remove(tmp.Name())
		return nil, err
	}
	return x, nil
}

// indexed is an entry as lookup gives it.
type indexed struct {
	ref   string
	kind  byte // entryLong for a value that failed its checksum: the note is read
	blob  [20]byte
	value string
}

// Lookup calls fn with each entry of commit (a full hash) on one of refs.
func (x *LinksIndex) lookup(commit string, refs []string, fn func(indexed)) {
	var key [20]byte
	if len(commit) != 40 {
		return
	}
	if _, err := hex.Decode(key[:], []byte(commit)); err != nil {
		return
	}
	n := len(x.entries) / linksEntrySize
	lo, hi := 0, n
	for lo < hi { // the first entry not below key
		m := int(uint(lo+hi) >> 1)
		if bytes.Compare(x.entries[m*linksEntrySize:m*linksEntrySize+20], key[:]) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	for ; lo < n; lo++ {
		e := x.entries[lo*linksEntrySize : (lo+1)*linksEntrySize]
		if !bytes.Equal(e[:20], key[:]) {
			return
		}
		ref := int(e[entRef])
		if ref >= len(x.refs) || !slices.Contains(refs, x.refs[ref]) {
			continue
		}
		got := indexed{ref: x.refs[ref], kind: e[entKind], blob: [20]byte(e[entBlob:entOff])}
		if v, ok := x.value(e); ok {
			got.value = string(v)
		} else {
			got.kind = entryLong
		}
		fn(got)
	}
}

// covers reports whether the index reflects refs exactly as read.
func (x *LinksIndex) covers(tips map[string]string) bool { return x != nil && maps.Equal(x.tips, tips) }

// updateLinks is old (nil or zero: none) brought to tips: a ref at the
// same tip keeps its entries, a moved one is read from git diff-tree of
// its old tip and the new, any other whole.
func (g Git) updateLinks(ctx context.Context, old *LinksIndex, tips map[string]string, trees *gitx.TreeReader) (*LinksIndex, error) {
	type todo struct {
		ref, commit, blob string
	}
	var read []todo
	keep := map[string]map[[20]byte]bool{} // per ref moved, the commits whose entries go
	whole := map[string]bool{}             // the refs to read whole at their next move (LinksIndex.whole)
	var entries []linksEntry
	for ref, tip := range tips {
		was := ""
		if old != nil {
			was = old.tips[ref]
		}
		switch {
		case was == tip:
			whole[ref] = old.whole[ref] // read as it was: its mark too
			continue
		case was != "" && !old.whole[ref]: // read by its change: no mark, nor one now (changedNotes)
			// The commits whose notes changed, and every note the tip
			// holds for them: git joins a commit's notes at two paths
			// (fanned out and not: a merge fans out at fewer notes than
			// fast-import), of which the change may name one.
			touched, err := g.changedNotes(ctx, trees, was, tip)
			if err == nil {
				var at []todo
				err = g.notesAt(ctx, trees, tip, touched, func(commit, blob string) { at = append(at, todo{ref, commit, blob}) })
				if err == nil {
					read, keep[ref] = append(read, at...), touched
					break
				}
			}
			fallthrough // the old tip is gone (a forced push and a gc), or a path in upper case: read it whole
		default:
			keep[ref] = nil // every entry goes
			out, err := g.run(ctx, nil, "ls-tree", "-r", "-z", "--full-tree", tip)
			if err != nil {
				return nil, err
			}
			eachBlobEntry(out, func(commit, blob string) {
				if commit != "" { // else no note git reads
					read = append(read, todo{ref, commit, blob})
					if strings.ToLower(commit) != commit {
						whole[ref] = true
					}
				}
			})
		}
	}
	// The entries kept: every ref still read at an unmoved tip, and a moved
	// one's but for the commits it changed.
	if old != nil {
		for i := 0; i+linksEntrySize <= len(old.entries); i += linksEntrySize {
			e := old.entries[i : i+linksEntrySize]
			ref := old.refs[e[entRef]]
			drop, moved := keep[ref]
			if _, still := tips[ref]; !still || moved && (drop == nil || drop[[20]byte(e[:20])]) {
				continue
			}
			v, ok := old.value(e)
			if !ok {
				return nil, errLinksDamaged
			}
			entries = append(entries, linksEntry{commit: [20]byte(e[:20]), ref: ref, kind: e[entKind], blob: [20]byte(e[entBlob:entOff]), value: v})
		}
	}
	// Each note's entry, the long way until its blob is read; a commit
	// named twice on one ref (fanned out and not, or in two cases) stays
	// so: which note git reads is its own choice, and the long way asks git.
	at := make(map[todo]int, len(read)) // (ref, commit) -> its entry
	byBlob := make(map[string][]int, len(read))
	twice := map[int]bool{}
	for _, t := range read {
		k, ok := hashKey(t.commit)
		if !ok {
			continue // no commit's note: git log shows it for no commit
		}
		key := todo{ref: t.ref, commit: hex.EncodeToString(k[:])} // as git log names it
		if i, dup := at[key]; dup {
			twice[i], entries[i].blob = true, [20]byte{} // not one note
			continue
		}
		blob, ok := hashKey(t.blob)
		if !ok {
			return nil, fmt.Errorf("notes links: a note's blob %q", t.blob)
		}
		at[key] = len(entries)
		byBlob[t.blob] = append(byBlob[t.blob], len(entries))
		entries = append(entries, linksEntry{commit: k, ref: t.ref, kind: entryLong, blob: blob})
	}
	// Each note read is let go once its entries are made: 20,000 notes are
	// 50 MB.
	err := g.eachBlob(ctx, slices.Sorted(maps.Keys(byBlob)), func(blob string, content []byte, _ bool) {
		if content == nil {
			return // over the bound, or missing: the long way
		}
		text := string(content)
		for _, i := range byBlob[blob] {
			if e := &entries[i]; !twice[i] {
				kind, value := indexEntry(hex.EncodeToString(e.commit[:]), text)
				e.kind, e.value = kind, []byte(value) // not the whole note's bytes
			}
		}
	})
	if err != nil {
		return nil, err
	}
	x, err := buildLinksIndex(tips, entries)
	if x != nil {
		x.whole = whole
	}
	return x, err
}

// hashKey is a full SHA-1 object hash (a commit's, a note's blob's), as
// the file keeps it (git reads a note's path in either case).
func hashKey(hash string) (k [20]byte, ok bool) {
	if len(hash) != 40 {
		return k, false
	}
	_, err := hex.Decode(k[:], []byte(hash))
	return k, err == nil
}

// changedNotes is the commits whose notes the notes commit to changed
// from from (added, changed or removed): read by trees where it can tell
// (nil: git diff-tree). An error where it cannot tell them: a path in
// upper case names a commit whose note may lie at another path too, which
// no listing by path finds.
func (g Git) changedNotes(ctx context.Context, trees *gitx.TreeReader, from, to string) (map[[20]byte]bool, error) {
	paths, ok := trees.ChangedPaths(from, to)
	if !ok {
		out, err := g.run(ctx, nil, "diff-tree", "-r", "-z", "--no-renames", from, to)
		if err != nil {
			return nil, err
		}
		fields := bytes.Split(out, []byte{0})
		for i := 0; i+1 < len(fields); i++ {
			// ":<mode> <mode> <old> <new> <status>", then the path's field.
			if f := bytes.Fields(fields[i]); len(f) != 5 || !bytes.HasPrefix(f[0], []byte(":")) {
				continue
			}
			i++
			paths = append(paths, string(fields[i]))
		}
	}
	touched := map[[20]byte]bool{}
	for _, p := range paths {
		commit := notePath([]byte(p))
		if commit == "" {
			continue // no note git reads, before or after
		}
		if strings.ToLower(commit) != commit {
			return nil, errors.New("a note's path in upper case")
		}
		if k, ok := hashKey(commit); ok {
			touched[k] = true
		}
	}
	return touched, nil
}

// notesAt calls fn with each note tip holds for one of commits, at every
// path (fanned out and not), up to two levels of fan-out (git fans out a
// level for each 256-fold of notes): looked up by trees where it can tell
// (nil: one git ls-tree of those paths), or one git ls-tree of the whole
// tree for many commits.
func (g Git) notesAt(ctx context.Context, trees *gitx.TreeReader, tip string, commits map[[20]byte]bool, fn func(commit, blob string)) error {
	if len(commits) == 0 {
		return nil
	}
	var paths []string
	if len(commits) <= notesAtPaths {
		for k := range commits {
			c := hex.EncodeToString(k[:])
			paths = append(paths, c, c[:2]+"/"+c[2:], c[:2]+"/"+c[2:4]+"/"+c[4:])
		}
		if blobs, ok := trees.Blobs(tip, paths); ok {
			for i, blob := range blobs {
				if blob != "" {
					fn(strings.ReplaceAll(paths[i], "/", ""), blob)
				}
			}
			return nil
		}
	}
	args := []string{"ls-tree", "-r", "-z", "--full-tree", tip}
	if len(paths) > 0 {
		args = append(append(args, "--"), paths...)
	}
	out, err := g.run(ctx, nil, args...)
	if err != nil {
		return err
	}
	eachBlobEntry(out, func(commit, blob string) {
		if k, ok := hashKey(commit); ok && commits[k] {
			fn(commit, blob)
		}
	})
	return nil
}

// notesAtPaths: past so many commits, notesAt lists the whole tree (a
// command line of three paths a commit).
const notesAtPaths = 300

// buildLinksIndex is the index of entries at tips.
func buildLinksIndex(tips map[string]string, entries []linksEntry) (*LinksIndex, error) {
	refs := slices.Sorted(maps.Keys(tips))
	at := make(map[string]byte, len(refs))
	for i, r := range refs {
		at[r] = byte(i)
	}
	total := 0
	for i := range entries {
		entries[i].at = at[entries[i].ref] // not a map look-up a comparison
		total += len(entries[i].value)
	}
	sortEntries(entries)
	x := &LinksIndex{refs: refs, tips: tips, entries: make([]byte, 0, linksEntrySize*len(entries))}
	// Sized once, at most what the values hold: a buffer grown by doubling
	// to 8 MB (20,000 notes) was a fifth of an update's CPU.
	heap := make([]byte, 0, total)
	// One note on two refs (a clone's live ref and the tracking ref it
	// merged) is one value: the entries that follow point to the first.
	prev := map[[40]byte][]byte{} // commit and blob -> the first's entry
	for _, e := range entries {
		var b [linksEntrySize]byte
		copy(b[:], e.commit[:])
		b[entRef], b[entKind] = e.at, e.kind
		copy(b[entBlob:entOff], e.blob[:])
		key := [40]byte(append(e.commit[:], e.blob[:]...))
		if first, ok := prev[key]; ok && e.blob != ([20]byte{}) && first[entKind] == e.kind {
			copy(b[entOff:], first[entOff:])
		} else {
			if len(heap)+len(e.value) > 1<<31 {
				return nil, errors.New("notes links index: too large")
			}
			binary.BigEndian.PutUint32(b[entOff:], uint32(len(heap)))
			binary.BigEndian.PutUint32(b[entLen:], uint32(len(e.value)))
			binary.BigEndian.PutUint32(b[entCRC:], checksum(e.value))
			heap = append(heap, e.value...)
			prev[key] = b[:]
		}
		x.entries = append(x.entries, b[:]...)
	}
	x.heap = heap
	return x, nil
}

// sortEntries orders entries by commit, then ref. An update's are the
// old file's kept entries, in this order already, then the notes read
// (a few, after one more note): those are sorted and merged in, where a
// sort of the whole was a tenth of the update's CPU on 20,000 notes.
func sortEntries(entries []linksEntry) {
	cmp := func(a, b *linksEntry) int {
		if c := bytes.Compare(a.commit[:], b.commit[:]); c != 0 {
			return c
		}
		return int(a.at) - int(b.at)
	}
	n := 1 // the sorted run they start with
	for n < len(entries) && cmp(&entries[n-1], &entries[n]) <= 0 {
		n++
	}
	if n >= len(entries) {
		return
	}
	tail := slices.Clone(entries[n:])
	slices.SortFunc(tail, func(a, b linksEntry) int { return cmp(&a, &b) })
	// Merged from the back: each place written is free by then.
	i, j := n-1, len(tail)-1
	for k := len(entries) - 1; j >= 0; k-- {
		if i >= 0 && cmp(&entries[i], &tail[j]) > 0 {
			entries[k], i = entries[i], i-1
		} else {
			entries[k], j = tail[j], j-1
		}
	}
}

// readLinksIndex maps the file at path (an error when it is missing, not
// one, cut short or its entries damaged; each value is checked as it is
// read).
func readLinksIndex(path string) (*LinksIndex, error) {
	b, fi, unmap, err := mapFile(path)
	if err != nil {
		return nil, err
	}
	x, err := parseLinksIndex(path, b)
	if err != nil {
		_ = unmap()
		return nil, err
	}
	x.path, x.file, x.unmap = path, fi, unmap
	return x, nil
}

// parseLinksIndex is readLinksIndex of the file's bytes b.
func parseLinksIndex(path string, b []byte) (*LinksIndex, error) {
	rest, ok := bytes.CutPrefix(b, []byte(linksHeader))
	if !ok {
		return nil, fmt.Errorf("%s: not a notes links index", path)
	}
	x := &LinksIndex{tips: map[string]string{}, whole: map[string]bool{}}
	var count, heapLen int
	var sum uint32
	counted := false
	for {
		line, after, ok := bytes.Cut(rest, []byte{'\n'})
		if !ok {
			return nil, fmt.Errorf("%s: cut short", path)
		}
		rest = after
		if len(line) == 0 {
			break
		}
		if _, err := fmt.Sscanf(string(line), "entries %d %d %d", &count, &heapLen, &sum); err == nil {
			counted = true
			continue
		}
		ref, tip, ok := strings.Cut(string(line), " ")
		tip, mark, marked := strings.Cut(tip, " ")
		if !ok || len(x.refs) > 0 && ref <= x.refs[len(x.refs)-1] || marked && mark != linksWhole {
			return nil, fmt.Errorf("%s: a bad line", path)
		}
		x.refs = append(x.refs, ref)
		x.tips[ref] = tip
		if marked {
			x.whole[ref] = true
		}
	}
	// The counts are bounded by the bytes there before they are multiplied,
	// so a crafted count cannot wrap around to a small product.
	if !counted || count < 0 || heapLen < 0 || count > len(rest)/linksEntrySize || heapLen > len(rest) ||
		len(rest) != count*linksEntrySize+heapLen ||
		checksum(rest[:count*linksEntrySize]) != sum {
		return nil, fmt.Errorf("%s: cut short or damaged", path)
	}
	x.entries, x.heap = rest[:count*linksEntrySize:count*linksEntrySize], rest[count*linksEntrySize:]
	for i := 0; i < len(x.entries); i += linksEntrySize {
		e := x.entries[i : i+linksEntrySize]
		off, ln := binary.BigEndian.Uint32(e[entOff:]), binary.BigEndian.Uint32(e[entLen:])
		if int(e[entRef]) >= len(x.refs) || uint64(off)+uint64(ln) > uint64(len(x.heap)) ||
			i > 0 && bytes.Compare(x.entries[i-linksEntrySize:i-linksEntrySize+21], e[:21]) >= 0 {
			return nil, fmt.Errorf("%s: damaged", path)
		}
	}
	return x, nil
}

// writeLinksIndex writes x to tmp, a new file beside path, and renames it
// to path: a reader sees the old file or the new.
func writeLinksIndex(tmp *os.File, path string, x *LinksIndex) error {
	var b bytes.Buffer
	b.WriteString(linksHeader)
	for _, ref := range x.refs {
		b.WriteString(ref + " " + x.tips[ref])
		if x.whole[ref] {
			b.WriteString(" " + linksWhole)
		}
		b.WriteString("\n")
	}
	sum := checksum(x.entries)
	fmt.Fprintf(&b, "entries %d %d %d\n\n", len(x.entries)/linksEntrySize, len(x.heap), sum)
	// Not synced: a file a crash cut short fails its checks and is built
	// again; a read does not wait on the disk for a cache. The entries and
	// values are written from where they are, not copied after the header.
	var werr error
	for _, part := range [][]byte{b.Bytes(), x.entries, x.heap} {
		if _, werr = tmp.Write(part); werr != nil {
			break
		}
	}
	if cerr := tmp.Close(); werr != nil || cerr != nil {
		return errors.Join(werr, cerr)
	}
	return os.Rename(tmp.Name(), path)
}
