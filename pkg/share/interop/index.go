package interop

import (
	"context"
	"errors"
	"fmt"
	"slices"
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
// an index another version wrote is rebuilt from scratch.
const IndexVersion = 1

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
// records) every read skips. A commit whose note is gone has no rows. Where
// one commit has two notes (a flat and a fanned-out path), the last listed
// is read, as ReadWriters reads it.
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
	blobs := make([][]byte, len(read))
	over := make([]bool, len(read))
	names := make([]string, len(read))
	for i, n := range read {
		names[i] = n.Blob
	}
	if b, o, ok := r.repo.BlobsInProcess(names, maxNoteBytes, r.getenv); ok {
		blobs, over = b, o
	} else if len(read) > 0 {
		paths := make([]string, len(read))
		for i, n := range read {
			paths[i] = n.Path
		}
		files, err := r.repo.FilesAt(ctx, tip, paths)
		if err != nil {
			return u, err
		}
		for i, n := range read {
			blobs[i] = files[n.Path]
		}
	}
	for i, n := range read {
		if over[i] {
			u.Skips = append(u.Skips, store.NoteSkip{Ref: ref, Commit: n.Commit, Reason: errTooLarge.Error()})
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
			t := ts.of(c)
			t.lines += end - start + 1
			if k := len(t.files); k == 0 || t.files[k-1] != path {
				t.files = append(t.files, path)
			}
		}, ref, n.Commit, string(blobs[i]), nil)
		for _, s := range skips {
			u.Skips = append(u.Skips, store.NoteSkip{Ref: ref, Commit: n.Commit, Reason: s.Err.Error()})
		}
		for _, t := range ts.list {
			slices.Sort(t.files)
			files := slices.Compact(t.files)
			for _, f := range files {
				if f == "" || strings.IndexByte(f, '\n') >= 0 { // the index joins files with "\n"; no parser takes either
					return u, fmt.Errorf("%s on %.12s: a path with a newline", ref, n.Commit)
				}
			}
			c := t.claim
			u.Writers = append(u.Writers, store.NoteWriter{Ref: ref, Commit: n.Commit, Source: c.Source, From: c.From,
				Evidence: c.Evidence, Attribution: c.Attribution, Tool: c.Tool, Model: c.Model, Session: c.Session,
				Person: c.Person, Rank: int(c.Rank), Lines: t.lines, Files: files})
		}
	}
	return u, nil
}

// IndexedWriters is what ReadWriters gives (without notes given) from the
// index's rows of the commits: per commit, each writer's lines summed over
// the refs, its files joined, in sortWriters' order; and the skipped notes.
func IndexedWriters(rows []store.NoteWriter, skipped []store.NoteSkip) (map[string][]Writer, []Skip) {
	byCommit := map[string]*tallies{}
	for _, w := range rows {
		ts := byCommit[w.Commit]
		if ts == nil {
			ts = &tallies{}
			byCommit[w.Commit] = ts
		}
		t := ts.of(Claim{Source: w.Source, From: w.From, Evidence: w.Evidence, Rank: Rank(w.Rank), Attribution: w.Attribution,
			Tool: w.Tool, Model: w.Model, Session: w.Session, Person: w.Person})
		t.lines += w.Lines
		t.files = append(t.files, w.Files...)
	}
	out := make(map[string][]Writer, len(byCommit))
	for commit, ts := range byCommit {
		ws := make([]Writer, len(ts.list))
		for i, t := range ts.list {
			files := t.files
			if len(files) > 1 {
				slices.Sort(files)
				files = slices.Compact(files)
			}
			ws[i] = Writer{Claim: t.claim, Lines: t.lines, Files: files}
		}
		sortWriters(ws)
		out[commit] = ws
	}
	var skips []Skip
	for _, s := range skipped {
		skips = append(skips, Skip{Ref: s.Ref, Commit: s.Commit, Err: errors.New(s.Reason)})
	}
	return out, skips
}
