package interop

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/store"
)

// What links.sqlite's index of other tools' notes keeps (docs/interop.md):
// per ref, the notes commit it reflects; per commit, the writers its note
// names with their lines and files (what ReadWriters counts) and the notes
// a read skips. It is brought up to date from the notes that changed
// between the indexed tip and the ref's (NoteChanges), so a read decodes
// no note.

// IndexVersion is the version of what the index keeps of a note. A change
// to how notes are read (a parser's bounds, a claim's words) must bump it:
// an index another version wrote is rebuilt from scratch. Version 2 keeps
// a row for every note, one naming no writer too: which ref's git-ai note
// a commit reads (CompareRefs) depends on which refs have one.
const IndexVersion = 2

// NoteBlob is a note on a notes ref: the commit it is about, its path in
// the notes tree, and its blob ("" when the note is gone).
type NoteBlob struct {
	Commit, Path, Blob string
}

// NoteChanges lists the notes of ref at tip (a notes commit) that differ
// from those at old: one git diff-tree -r of the two notes commits, the
// notes' paths flat or fanned out (ab/cdef…). With no old, or where old is
// gone (a ref rewritten, then pruned), it lists every note at tip and full
// is true: the only rebuild from scratch. A ref rewritten to an unrelated
// history whose old commit still exists is diffed like any other.
func (r *Reader) NoteChanges(ctx context.Context, ref, old, tip string) (changes []NoteBlob, full bool, err error) {
	if old != "" {
		out, err := gitx.Command(ctx, r.g.Dir, r.g.Env, "diff-tree", "-r", "-z", "--no-renames", "--no-ext-diff", old, tip).Output()
		if err == nil {
			return parseDiffTree(out), false, nil
		}
		// old is gone (or no commit): read every note at tip.
	}
	out, err := gitx.Command(ctx, r.g.Dir, r.g.Env, "ls-tree", "-r", "-z", "--full-tree", tip).Output()
	if err != nil {
		return nil, true, fmt.Errorf("listing %s at %.12s: %v", ref, tip, err)
	}
	for entry := range strings.SplitSeq(string(out), "\x00") {
		meta, path, ok := strings.Cut(entry, "\t")
		if f := strings.Fields(meta); ok && len(f) == 3 && f[1] == "blob" {
			changes = append(changes, NoteBlob{Commit: strings.ReplaceAll(path, "/", ""), Path: path, Blob: f[2]})
		}
	}
	return changes, true, nil
}

// parseDiffTree reads git diff-tree -r -z's raw records
// (":<mode> <mode> <blob> <blob> <status>\0<path>\0"): each path's blob
// after the change, "" when no blob is there any more.
func parseDiffTree(out []byte) []NoteBlob {
	var changes []NoteBlob
	fields := strings.Split(string(out), "\x00")
	for i := 0; i+1 < len(fields); i += 2 {
		f := strings.Fields(strings.TrimPrefix(fields[i], ":"))
		if len(f) < 5 {
			break
		}
		path, blob := fields[i+1], f[3]
		if f[1] == "000000" || f[1] == "160000" || strings.Trim(blob, "0") == "" {
			blob = "" // removed, or a gitlink: no note ls-tree would list as a blob
		}
		changes = append(changes, NoteBlob{Commit: strings.ReplaceAll(path, "/", ""), Path: path, Blob: blob})
	}
	return changes
}

// IndexNotes reads the notes changes name (on ref, at its notes commit
// tip) and says what each says, as rows of the index: per commit its
// writers (one per claim, its lines, its files in order) and the notes (or
// records) every read skips. A commit whose note is gone has no rows; a
// note moved (flat to fanned out) is read where it is now. Where one
// commit has two notes at once (a flat and a fanned-out path, which git's
// own notes code never leaves), a full build reads the last listed, as
// ReadWriters does; an update, the one that changed.
func (r *Reader) IndexNotes(ctx context.Context, ref, tip string, changes []NoteBlob) (store.NotesUpdate, error) {
	u := store.NotesUpdate{Tip: tip, Version: IndexVersion}
	last := make(map[string]int, len(changes)) // commit -> its note in changes
	for i, c := range changes {
		if _, seen := last[c.Commit]; !seen {
			u.Cleared = append(u.Cleared, c.Commit)
		}
		if j, seen := last[c.Commit]; !seen || c.Blob != "" || changes[j].Blob == "" {
			last[c.Commit] = i
		}
	}
	var read []NoteBlob
	for _, c := range u.Cleared {
		if n := changes[last[c]]; n.Blob != "" {
			read = append(read, n)
		}
	}
	blobs := r.repo.NewBlobReader(maxNoteBytes, r.getenv) // the notes' delta bases inflated once
	defer blobs.Close()
	for len(read) > 0 { // a batch of notes held at a time, as log read them
		batch := read[:min(len(read), indexBatchSize)]
		read = read[len(batch):]
		if err := r.indexBatch(ctx, ref, tip, blobs, batch, &u); err != nil {
			return u, err
		}
	}
	return u, nil
}

// indexBatchSize bounds the notes held at once while indexing (each up to 8 MiB).
const indexBatchSize = 128

// indexBatch reads notes (on ref at tip) and adds what each says to u.
func (r *Reader) indexBatch(ctx context.Context, ref, tip string, in *gitx.BlobReader, read []NoteBlob, u *store.NotesUpdate) error {
	blobs := make([][]byte, len(read))
	over := make([]bool, len(read))
	names := make([]string, len(read))
	for i, n := range read {
		names[i] = n.Blob
	}
	if b, o, ok := in.Blobs(names); ok {
		blobs, over = b, o
	} else if len(read) > 0 {
		paths := make([]string, len(read))
		for i, n := range read {
			paths[i] = n.Path
		}
		files, err := r.repo.FilesAt(ctx, tip, paths)
		if err != nil {
			return err
		}
		for i, n := range read {
			blobs[i] = files[n.Path]
		}
	}
	for i, n := range read {
		if over[i] {
			u.Notes = append(u.Notes, store.IndexedNote{Ref: ref, Commit: n.Commit, Skips: []string{errTooLarge.Error()}})
			continue
		}
		if blobs[i] == nil {
			continue // no blob after all: no note, as cat-file says "missing"
		}
		var ts tallies
		skips := addClaims(func(_, path string, start, end int, c Claim) {
			if end < start {
				return // Read adds no line for it
			}
			ts.add(path, start, end, c)
		}, ref, n.Commit, string(blobs[i]), nil)
		note := store.IndexedNote{Ref: ref, Commit: n.Commit}
		for _, s := range skips {
			note.Skips = append(note.Skips, s.Err.Error())
		}
		var err error
		if note.Writers, err = encodeWriters(ts.writers()); err != nil {
			return fmt.Errorf("%s on %.12s: %v", ref, n.Commit, err)
		}
		u.Notes = append(u.Notes, note) // kept with no writer: the note is there (IndexedWriters)
	}
	return nil
}

// The index keeps a note's writers as one text: each writer's fields
// split by unitSep, its files by fileSep, writers by recordSep. No parser
// takes a control character in a string it keeps (encodeWriters checks).
const (
	recordSep = "\x1e"
	unitSep   = "\x1f"
	fileSep   = "\n"
)

// encodeWriters is ws as the index keeps them.
func encodeWriters(ws []Writer) (string, error) {
	var b strings.Builder
	for i, w := range ws {
		if w.Conversation != "" || w.Commit {
			return "", errors.New("a note's claim names a conversation or the commit") // set by no note
		}
		if i > 0 {
			b.WriteString(recordSep)
		}
		for _, f := range [...]string{w.Source, w.From, w.Evidence, strconv.Itoa(int(w.Rank)), w.Attribution, w.Tool, w.Model,
			w.Session, w.Person, strconv.Itoa(w.Lines)} {
			if strings.ContainsAny(f, recordSep+unitSep) {
				return "", fmt.Errorf("a control character in %q", f)
			}
			b.WriteString(f)
			b.WriteString(unitSep)
		}
		for j, f := range w.Files {
			if f == "" || strings.ContainsAny(f, recordSep+unitSep+fileSep) {
				return "", fmt.Errorf("a path %q the index cannot keep", f)
			}
			if j > 0 {
				b.WriteString(fileSep)
			}
			b.WriteString(f)
		}
	}
	return b.String(), nil
}

// decodeWriters appends the writers encodeWriters kept in s.
func decodeWriters(ws []Writer, s string) ([]Writer, error) {
	for rec := range strings.SplitSeq(s, recordSep) {
		var f [11]string
		for i := range 10 {
			var ok bool
			if f[i], rec, ok = strings.Cut(rec, unitSep); !ok {
				return ws, errors.New("a writer the index did not write")
			}
		}
		rank, err1 := strconv.Atoi(f[3])
		lines, err2 := strconv.Atoi(f[9])
		if err1 != nil || err2 != nil {
			return ws, errors.New("a writer the index did not write")
		}
		w := Writer{Claim: Claim{Source: f[0], From: f[1], Evidence: f[2], Rank: Rank(rank), Attribution: f[4], Tool: f[5],
			Model: f[6], Session: f[7], Person: f[8]}, Lines: lines}
		if rec != "" {
			w.Files = strings.Split(rec, fileSep)
		}
		ws = append(ws, w)
	}
	return ws, nil
}

// IndexedWriters is what ReadWriters gives (without notes given) from the
// index's notes of the commits: per commit, each writer's lines summed over
// the refs, its files joined, in sortWriters' order; and the skipped notes.
//
// A commit's git-ai note is read from one ref, as ReadWriters reads it: the
// first of CompareRefs' order that holds one; copies on later refs are not
// counted.
func IndexedWriters(notes []store.IndexedNote) (map[string][]Writer, []Skip, error) {
	out := make(map[string][]Writer, len(notes))
	var skips []Skip
	gitAI := map[string]string{} // commit -> the ref its git-ai note is read from
	for _, n := range notes {
		if IsGitAIRef(n.Ref) {
			if r, ok := gitAI[n.Commit]; !ok || CompareRefs(n.Ref, r) < 0 {
				gitAI[n.Commit] = n.Ref
			}
		}
	}
	merge := map[string]bool{} // commits with notes on two refs or more
	for _, n := range notes {
		if IsGitAIRef(n.Ref) && gitAI[n.Commit] != n.Ref {
			continue // a copy of the note read from another ref
		}
		for _, s := range n.Skips {
			skips = append(skips, Skip{Ref: n.Ref, Commit: n.Commit, Err: errors.New(s)})
		}
		if n.Writers == "" {
			continue
		}
		prev, seen := out[n.Commit]
		ws, err := decodeWriters(prev, n.Writers)
		if err != nil {
			return nil, nil, err
		}
		out[n.Commit] = ws
		if seen {
			merge[n.Commit] = true
		}
	}
	// A commit noted on one ref has its note's writers, in order already;
	// on more, a writer named on two counts the lines of both.
	for commit := range merge {
		var ts tallies
		for _, w := range out[commit] {
			t := ts.of(w.Claim)
			t.lines += w.Lines
			t.files = append(t.files, w.Files...)
		}
		out[commit] = ts.writers()
	}
	return out, skips, nil
}
