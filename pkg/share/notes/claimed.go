package notes

import (
	"context"

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
