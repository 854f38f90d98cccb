package notes

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// mentionsFile keeps, in the git common dir, every line hash that the
// notes of some refs may name: each 16-hex-digit JSON string in them
// (trace.LineHash), with the tips they were read at. A commit recorded in a
// clone that fetches teammates' notes, with an agent's link and a line no
// local conversation wrote, asks whether a teammate's note names one of
// its lines (teammatesSquashed): a git grep over every note took 0.4 s of
// the background drain for each such commit on 20,000 notes. The file
// answers "none does" at once; it is brought up to date with the notes a
// fetch changed (git diff-tree of the old tip and the new), never read
// whole again but for a ref it has not seen.
const mentionsFile = "git-convo-note-hashes"

// mentionsHeader starts the file; one "<ref> <tip>" line a ref follows,
// "big" when a note was over the size bound (then the file cannot say
// "none"), "hashes <count> <crc32c of them>", and an empty line; then the
// hashes, 8 bytes each, big-endian, sorted, each once. A file cut short or
// damaged otherwise is read again whole, never taken for fewer hashes.
const mentionsHeader = "git-convo note hashes 2\n"

// noteHashes is the file's content: the tips read, the hashes (sorted).
type noteHashes struct {
	tips   map[string]string
	big    bool
	hashes []uint64
}

// mayMention reports whether a note on refs may name one of want (line
// hashes, trace.LineHash): false only when none does. Anything it cannot
// tell (git or the file failing) is true: the caller's git grep decides.
func (g Git) mayMention(ctx context.Context, refs []string, want map[string]bool) bool {
	nh, err := g.noteHashes(ctx, refs)
	if err != nil || nh.big {
		return true
	}
	for h := range want {
		v, err := strconv.ParseUint(h, 16, 64)
		if err != nil || len(h) != 16 {
			return true
		}
		if _, found := slices.BinarySearch(nh.hashes, v); found {
			return true
		}
	}
	return false
}

// noteHashes is the file for refs at their tips, brought up to date (and
// written back) where a tip moved.
func (g Git) noteHashes(ctx context.Context, refs []string) (noteHashes, error) {
	path, err := g.commonPath(ctx, mentionsFile)
	if err != nil {
		return noteHashes{}, err
	}
	tips, err := g.tips(ctx, refs)
	if err != nil {
		return noteHashes{}, err
	}
	old, _ := readNoteHashes(path) // none, or unreadable: read every note
	var blobs []string
	for _, ref := range refs {
		tip, was := tips[ref], old.tips[ref]
		switch {
		case tip == was:
		case tip == "":
			// A ref that is gone names nothing more; what it named stays
			// (more hashes only make the file answer "maybe").
		case was != "":
			changed, err := g.changedBlobs(ctx, was, tip)
			if err == nil {
				blobs = append(blobs, changed...)
				break
			}
			fallthrough // the old tip is gone (a forced push and a gc): read it whole
		default:
			out, err := g.run(ctx, nil, "ls-tree", "-r", "-z", "--full-tree", tip)
			if err != nil {
				return noteHashes{}, err
			}
			eachBlobEntry(out, func(_, blob string) { blobs = append(blobs, blob) })
		}
	}
	nh := noteHashes{tips: tips, big: old.big, hashes: old.hashes}
	if len(blobs) == 0 && maps.Equal(old.tips, tips) {
		return nh, nil
	}
	slices.Sort(blobs)
	blobs = slices.Compact(blobs)
	err = g.eachBlob(ctx, blobs, func(_ string, content []byte, over bool) {
		nh.big = nh.big || over
		nh.hashes = scanHashes(content, nh.hashes)
	})
	if err != nil {
		return noteHashes{}, err
	}
	slices.Sort(nh.hashes)
	nh.hashes = slices.Compact(nh.hashes)
	// Kept for the next commit's question; a file that cannot be written
	// only costs the next one this reading again.
	_ = writeNoteHashes(path, nh)
	return nh, nil
}

// tips resolves refs to the commits they point at ("" for a ref that does
// not exist), with one git.
func (g Git) tips(ctx context.Context, refs []string) (map[string]string, error) {
	tips := make(map[string]string, len(refs))
	if len(refs) == 0 {
		return tips, nil
	}
	args := []string{"for-each-ref", "--format=%(refname) %(objectname)", "refs/replace/"}
	out, err := g.run(ctx, nil, append(args, refs...)...)
	if err != nil {
		return nil, err
	}
	for _, line := range strings.Split(string(out), "\n") {
		ref, tip, ok := strings.Cut(line, " ")
		if strings.HasPrefix(ref, "refs/replace/") {
			// git grep reads a note through a replacement made at any
			// time, which no tip tells.
			return nil, errReplaced
		}
		if ok && slices.Contains(refs, ref) {
			tips[ref] = tip
		}
	}
	return tips, nil
}

// errReplaced: the repository replaces objects (git replace); the kept
// hashes cannot answer for what git reads.
var errReplaced = errors.New("objects are replaced (refs/replace)")

// changedBlobs are the note blobs the notes commit to has that from has
// not (added or changed), whatever their history.
func (g Git) changedBlobs(ctx context.Context, from, to string) ([]string, error) {
	out, err := g.run(ctx, nil, "diff-tree", "-r", "-z", "--no-renames", from, to)
	if err != nil {
		return nil, err
	}
	var blobs []string
	for _, field := range bytes.Split(out, []byte{0}) {
		// ":<mode> <mode> <old> <new> <status>", then the path's field.
		f := strings.Fields(string(field))
		if len(f) == 5 && strings.HasPrefix(f[0], ":") && f[4] != "D" && strings.Trim(f[3], "0") != "" {
			blobs = append(blobs, f[3])
		}
	}
	return blobs, nil
}

// scanHashes appends to hs every 16-hex-digit JSON string in b, at any
// place (a git grep -F for `"<hash>"` finds those).
func scanHashes(b []byte, hs []uint64) []uint64 {
	for i := 0; i+17 < len(b); i++ {
		if b[i] != '"' || b[i+17] != '"' {
			continue
		}
		var v uint64
		ok := true
		for _, c := range b[i+1 : i+17] {
			switch {
			case c >= '0' && c <= '9':
				v = v<<4 | uint64(c-'0')
			case c >= 'a' && c <= 'f':
				v = v<<4 | uint64(c-'a'+10)
			default:
				ok = false
			}
			if !ok {
				break
			}
		}
		if ok {
			hs = append(hs, v)
		}
	}
	return hs
}

// readNoteHashes reads the file at path (the zero value and an error when
// it is missing or not one).
func readNoteHashes(path string) (noteHashes, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return noteHashes{}, err
	}
	rest, ok := bytes.CutPrefix(b, []byte(mentionsHeader))
	if !ok {
		return noteHashes{}, fmt.Errorf("%s: not a file of note hashes", path)
	}
	nh := noteHashes{tips: map[string]string{}}
	var count int
	var sum uint32
	counted := false
	for {
		line, after, ok := bytes.Cut(rest, []byte{'\n'})
		if !ok {
			return noteHashes{}, fmt.Errorf("%s: cut short", path)
		}
		rest = after
		if len(line) == 0 {
			break
		}
		if string(line) == "big" {
			nh.big = true
			continue
		}
		if _, err := fmt.Sscanf(string(line), "hashes %d %d", &count, &sum); err == nil {
			counted = true
			continue
		}
		ref, tip, ok := strings.Cut(string(line), " ")
		if !ok {
			return noteHashes{}, fmt.Errorf("%s: a bad line", path)
		}
		nh.tips[ref] = tip
	}
	if !counted || len(rest) != 8*count || checksum(rest) != sum {
		return noteHashes{}, fmt.Errorf("%s: cut short or damaged", path)
	}
	nh.hashes = make([]uint64, len(rest)/8)
	for i := range nh.hashes {
		nh.hashes[i] = binary.BigEndian.Uint64(rest[i*8:])
	}
	if !slices.IsSorted(nh.hashes) {
		return noteHashes{}, fmt.Errorf("%s: not sorted", path)
	}
	return nh, nil
}

// writeNoteHashes writes nh to path whole (a file beside it, renamed: a
// reader sees the old file or the new).
func writeNoteHashes(path string, nh noteHashes) error {
	var b bytes.Buffer
	b.Grow(len(mentionsHeader) + 128 + 8*len(nh.hashes))
	b.WriteString(mentionsHeader)
	refs := make([]string, 0, len(nh.tips))
	for ref, tip := range nh.tips {
		if tip != "" {
			refs = append(refs, ref)
		}
	}
	slices.Sort(refs)
	for _, ref := range refs {
		b.WriteString(ref + " " + nh.tips[ref] + "\n")
	}
	if nh.big {
		b.WriteString("big\n")
	}
	payload := make([]byte, 8*len(nh.hashes))
	for i, h := range nh.hashes {
		binary.BigEndian.PutUint64(payload[i*8:], h)
	}
	fmt.Fprintf(&b, "hashes %d %d\n\n", len(nh.hashes), checksum(payload))
	b.Write(payload)
	tmp, err := os.CreateTemp(filepath.Dir(path), mentionsFile+".*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(b.Bytes())
	if werr == nil {
		werr = tmp.Sync() // whole on disk before it takes the name
	}
	cerr := tmp.Close()
	if werr != nil || cerr != nil {
		os.Remove(tmp.Name())
		return errors.Join(werr, cerr)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// checksum is the CRC-32C of parts, one after the other (the processor
// computes it).
func checksum(parts ...[]byte) uint32 {
	tab, sum := crc32.MakeTable(crc32.Castagnoli), uint32(0)
	for _, b := range parts {
		sum = crc32.Update(sum, tab, b)
	}
	return sum
}
