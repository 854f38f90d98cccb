package notes

import (
	"bytes"
	"context"
	"strconv"
	"strings"
)

// minRecordLine is the shortest line Decode takes as a record
// ({"files":[]}): a note shorter than MaxNoteRecords of them cannot hold
// more records than the bound, and is not read.
const minRecordLine = len(`{"files":[]}`) + 1

// Over is what readers skip of the notes on some refs (doctor shows it):
// notes over MaxNoteBytes, never decoded, and records past MaxNoteRecords.
type Over struct {
	TooLarge       int // notes skipped whole
	TooMany        int // notes with records past the bound
	RecordsSkipped int // those records
}

// Bounds counts what the bounds skip on refs. It lists each ref's notes
// with their sizes (one git ls-tree) and reads only the notes large
// enough to hold more records than the bound.
func (g Git) Bounds(ctx context.Context, refs []string) (Over, error) {
	var o Over
	var read []string
	for _, ref := range refs {
		out, err := g.run(ctx, nil, "ls-tree", "-r", "-l", "-z", "--full-tree", ref)
		if err != nil {
			continue // a vanished ref: the others still answer
		}
		for _, entry := range bytes.Split(out, []byte{0}) {
			meta, _, ok := bytes.Cut(entry, []byte{'\t'})
			f := strings.Fields(string(meta))
			if !ok || len(f) != 4 || f[1] != "blob" {
				continue
			}
			size, err := strconv.Atoi(f[3])
			switch {
			case err != nil:
			case size > MaxNoteBytes:
				o.TooLarge++
			case size >= MaxNoteRecords*minRecordLine:
				read = append(read, f[2])
			}
		}
	}
	if len(read) == 0 {
		return o, nil
	}
	contents, _, err := g.catBlobs(ctx, read)
	if err != nil {
		return o, err
	}
	for _, b := range contents {
		if _, n := Skipped(b); n > 0 {
			o.TooMany++
			o.RecordsSkipped += n
		}
	}
	return o, nil
}
