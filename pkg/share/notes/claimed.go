package notes

import (
	"context"
	"sort"

	"github.com/git-convo/git-convo/pkg/attribution/link"
	"github.com/git-convo/git-convo/pkg/share/trace"
	"github.com/git-convo/git-convo/pkg/store"
)

// ClaimedLines is what the records MergeLinkedClaimed read say of the
// lines of the commits the local database had none of, for a caller that
// knows which lines each commit added (pr, whose replay of the range's
// patches gives each line's commit and number there): the clip's git log
// -p of every noted commit would be the same work done twice, and walking
// a note's ranges costs what the note claims (1..2,000,000,000). AddIn
// looks up only the lines asked.
type ClaimedLines struct{ recs map[string]trace.Record }

// MergeLinkedClaimed is MergeLinked, and the lines of the same read of
// the notes (each note read and decoded once): recorded gets the commits
// it lacked whose record examined every line (as MergeLineWriters marks
// them); their lines are added by AddIn.
func (r *Reader) MergeLinkedClaimed(ctx context.Context, hashes []string, linked map[string][]store.LinkedConversation,
	recorded map[string]bool) (ClaimedLines, error) {
	recs, err := r.Records(ctx, hashes)
	if err != nil {
		return ClaimedLines{}, err
	}
	for c, rec := range recs {
		linked[c] = mergeLinks(linked[c], Linked(c, rec))
	}
	out := ClaimedLines{recs: map[string]trace.Record{}}
	for _, h := range hashes {
		if rec, ok := recs[h]; ok && !recorded[h] {
			out.recs[h] = rec
			recorded[h] = r.Whole(h, rec)
		}
	}
	return out, nil
}

// AddIn adds to writers the AI lines of want (commit, path as
// link.NormPath, line numbers there) the records give a conversation,
// where no local writer holds them.
func (c ClaimedLines) AddIn(writers map[string]map[string]map[int]store.LineWriter, want map[string]map[string][]int) {
	for h, rec := range c.recs {
		if len(want[h]) == 0 {
			continue
		}
		meta, _ := rec.Meta()
		for _, f := range rec.Files {
			key := link.NormPath(f.Path)
			lines := want[h][key]
			if len(lines) == 0 {
				continue
			}
			sort.Ints(lines)
			for _, conv := range f.Conversations {
				id := trace.ConversationID(conv.URL)
				if id == "" || conv.Contributor == nil || conv.Contributor.Type != "ai" {
					continue
				}
				w := lineWriter(meta, id)
				for _, rg := range conv.Ranges {
					for i := sort.SearchInts(lines, rg.StartLine); i < len(lines) && lines[i] <= rg.EndLine; i++ {
						if writers[h] == nil {
							writers[h] = map[string]map[int]store.LineWriter{}
						}
						if writers[h][key] == nil {
							writers[h][key] = map[int]store.LineWriter{}
						}
						if _, local := writers[h][key][lines[i]]; !local {
							writers[h][key][lines[i]] = w
						}
					}
				}
			}
		}
	}
}
