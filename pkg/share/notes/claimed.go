package notes

import (
	"context"

	"github.com/git-convo/git-convo/pkg/share/trace"
	"github.com/git-convo/git-convo/pkg/store"
)

// MergeClaimedLines is MergeLineWriters without the clip to each commit's
// diff: for a caller that looks up only lines it knows the commit added
// (pr, whose replay of the range's patches gives each line's commit and
// number there), the clip's git log -p of every noted commit is the same
// work done twice. A line a note claims but its commit did not add is
// then never asked for.
func (r *Reader) MergeClaimedLines(ctx context.Context, hashes []string, writers map[string]map[string]map[int]store.LineWriter, recorded map[string]bool) error {
	return r.mergeLines(ctx, hashes, writers, recorded, r.Records)
}

// MergeLinkedClaimed is MergeLinked then MergeClaimedLines from one read
// of the notes (pr): each note is read and decoded once, not twice.
func (r *Reader) MergeLinkedClaimed(ctx context.Context, hashes []string, linked map[string][]store.LinkedConversation,
	writers map[string]map[string]map[int]store.LineWriter, recorded map[string]bool) error {
	recs, err := r.Records(ctx, hashes)
	if err != nil {
		return err
	}
	for c, rec := range recs {
		linked[c] = mergeLinks(linked[c], Linked(c, rec))
	}
	return r.mergeLines(ctx, hashes, writers, recorded, func(_ context.Context, need []string) (map[string]trace.Record, error) {
		out := make(map[string]trace.Record, len(need))
		for _, h := range need {
			if rec, ok := recs[h]; ok {
				out[h] = rec
			}
		}
		return out, nil
	})
}
