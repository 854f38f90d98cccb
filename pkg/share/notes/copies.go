package notes

import (
	"context"
	"maps"
	"sort"
	"strings"

	"github.com/git-convo/git-convo/pkg/share/trace"
)

// A rebase merge made on the server, or a cherry-pick, makes commits with
// the same patch as noted ones: git patch-id says so, whatever the lines
// look like (a function built of lines every file repeats has no rare line
// for the squash rule to weigh). Such a copy takes the noted commit's line
// attribution by position: the i-th line the noted commit adds to a file is
// the i-th line the copy adds there, the same text. The structural rules of
// squashes hold: the noted commit is not on the copy's line of history and
// was committed at the same time or before it, and its record is about it.

// copyReason prefixes the reason of a link carried to a copy.
const copyReason = "copy of "

// patchIDs returns the stable patch id of each commit that has a diff of
// its own (a merge has none): two git processes for all.
func (g Git) patchIDs(ctx context.Context, commits []string) (map[string]string, error) {
	out := map[string]string{}
	if len(commits) == 0 {
		return out, nil
	}
	args := append(append([]string{}, diffOptions...), "log", "--no-walk=unsorted", "--stdin", "-p", "--no-color",
		"--no-renames", "--no-ext-diff", "--no-textconv", "--format=commit %H")
	patches, err := g.run(ctx, []byte(strings.Join(commits, "\n")+"\n"), args...)
	if err != nil {
		return nil, err
	}
	ids, err := g.run(ctx, patches, "patch-id", "--stable")
	if err != nil {
		return nil, err
	}
	for _, l := range strings.Split(string(ids), "\n") {
		if f := strings.Fields(l); len(f) == 2 {
			out[f[1]] = f[0]
		}
	}
	return out, nil
}

// copiesOf derives the record of each candidate (diffs: their added lines)
// that has the same patch as one of the noted commits. A candidate whose
// patch two noted commits share with different attributions gets nothing:
// the evidence does not say which.
func (g Git) copiesOf(ctx context.Context, cands []string, notes map[string]noteRanges, diffs map[string]commitDiff, o BuildOptions) (map[string]trace.Record, error) {
	res := map[string]trace.Record{}
	have := make([]string, 0, len(notes))
	for c := range notes {
		have = append(have, c)
	}
	if len(have) == 0 || len(cands) == 0 {
		return res, nil
	}
	sort.Strings(have)
	ids, err := g.patchIDs(ctx, append(append([]string{}, cands...), have...))
	if err != nil {
		return nil, err
	}
	byID := map[string][]string{}
	for _, c := range have {
		if id := ids[c]; id != "" {
			byID[id] = append(byID[id], c)
		}
	}
	for _, h := range cands {
		d := diffs[h]
		var writers map[string]map[int]string
		origins := map[string]map[string]bool{}
		agree := true
		for _, c := range byID[ids[h]] {
			if ids[h] == "" || notes[c].time.After(d.time) || g.ancestry(ctx, c, h) {
				continue
			}
			w := carryCopy(d, notes[c], c, origins)
			if writers != nil && !sameWriters(writers, w) {
				agree = false // two noted commits disagree: no answer
				break
			}
			writers = w
		}
		if !agree || len(writers) == 0 {
			continue
		}
		if r, ok := buildDerived(h, d, writers, origins, notes, copyReason, "the same patch (git patch-id)", o); ok {
			res[h] = r
		}
	}
	return res, nil
}

// carryCopy carries the lines noted commit c's note gives to conversations
// to its copy (added lines d): the i-th line c adds to a file is the i-th
// line the copy adds there, the same text; a file whose added lines differ
// is left out. It adds c to origins for each conversation carried.
func carryCopy(d commitDiff, n noteRanges, c string, origins map[string]map[string]bool) map[string]map[int]string {
	writers := map[string]map[int]string{}
	for p, ls := range n.writers {
		from, to := n.added[p], d.added[p]
		if len(from) != len(to) {
			continue
		}
		same := true
		for i := range from {
			same = same && from[i].Text == to[i].Text
		}
		if !same {
			continue
		}
		for i, l := range from {
			conv := ls[l.Line]
			if conv == "" {
				continue
			}
			if writers[p] == nil {
				writers[p] = map[int]string{}
			}
			writers[p][to[i].Line] = conv
			if origins[conv] == nil {
				origins[conv] = map[string]bool{}
			}
			origins[conv][c] = true
		}
	}
	return writers
}

// sameWriters reports whether two attributions give every line to the same
// conversation.
func sameWriters(a, b map[string]map[int]string) bool {
	if len(a) != len(b) {
		return false
	}
	for p, ls := range a {
		if !maps.Equal(ls, b[p]) {
			return false
		}
	}
	return true
}
