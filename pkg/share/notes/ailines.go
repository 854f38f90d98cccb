package notes

import (
	"sort"

	"github.com/git-convo/git-convo/pkg/attribution/link"
	"github.com/git-convo/git-convo/pkg/share/trace"
)

// AILines is the lines a record gives a conversation (contributor ai), by
// path (link.NormPath), as sorted runs: asked line by line, a range's size
// costs nothing, however large a note claims it (1..2,000,000,000). A
// caller asks only lines its commit added (stats: its diff's).
type AILines map[string][][2]int

// AILinesOf reads rec's conversations' lines.
func AILinesOf(rec trace.Record) AILines {
	out := AILines{}
	for _, f := range rec.Files {
		p := link.NormPath(f.Path)
		for _, c := range f.Conversations {
			if trace.ConversationID(c.URL) == "" || c.Contributor == nil || c.Contributor.Type != "ai" {
				continue
			}
			for _, rg := range c.Ranges {
				if rg.StartLine <= rg.EndLine {
					out[p] = append(out[p], [2]int{rg.StartLine, rg.EndLine})
				}
			}
		}
	}
	for p, rs := range out {
		sort.Slice(rs, func(i, j int) bool { return rs[i][0] < rs[j][0] })
		merged := rs[:1]
		for _, r := range rs[1:] {
			last := &merged[len(merged)-1]
			if r[0] <= last[1] || r[0]-last[1] == 1 { // overlapping or adjacent
				last[1] = max(last[1], r[1])
				continue
			}
			merged = append(merged, r)
		}
		out[p] = merged
	}
	return out
}

// Has reports whether line n of path is a conversation's.
func (a AILines) Has(path string, n int) bool {
	rs := a[path]
	i := sort.Search(len(rs), func(i int) bool { return rs[i][1] >= n })
	return i < len(rs) && rs[i][0] <= n
}
