package notes

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/git-convo/git-convo/pkg/link"
	"github.com/git-convo/git-convo/pkg/trace"
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

// copiesOf derives the record of each candidate that has the same patch as
// one of the noted commits (with diffs: the candidates' added lines). A
// candidate whose patch two noted commits share with different
// attributions gets nothing: the evidence does not say which.
func (g Git) copiesOf(ctx context.Context, refs, cands []string, noted map[string]bool, diffs map[string]commitDiff, o BuildOptions) (map[string]trace.Record, error) {
	res := map[string]trace.Record{}
	var others []string
	for c := range noted {
		others = append(others, c)
	}
	sort.Strings(others)
	have, err := g.existing(ctx, others)
	if err != nil || len(have) == 0 {
		return res, err
	}
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
	pairs := map[string][]string{} // candidate -> noted commits with its patch
	need := map[string]bool{}
	for _, h := range cands {
		if id := ids[h]; id != "" && len(byID[id]) > 0 {
			pairs[h] = byID[id]
			for _, c := range byID[id] {
				need[c] = true
			}
		}
	}
	if len(pairs) == 0 {
		return res, nil
	}
	texts, err := g.Read(ctx, refs, need)
	if err != nil {
		return nil, err
	}
	var list []string
	for c := range need {
		list = append(list, c)
	}
	sort.Strings(list)
	srcDiffs, err := g.diffs(ctx, list)
	if err != nil {
		return nil, err
	}
	for _, h := range cands {
		var got *trace.Record
		for _, c := range pairs[h] {
			rec, ok := Combine(decodeClaims(c, texts[c]))
			src, have := srcDiffs[c]
			if !ok || !have || src.time.After(diffs[h].time) || g.ancestry(ctx, c, h) {
				continue
			}
			r, ok := carryCopy(h, diffs[h], c, src, rec, o)
			if !ok {
				continue
			}
			if got != nil && !sameWriters(*got, r) {
				got = nil // two noted commits disagree: no answer
				break
			}
			got = &r
		}
		if got != nil {
			res[h] = *got
		}
	}
	return res, nil
}

// carryCopy carries rec, the record of noted commit c (added lines src), to
// its copy h (added lines d) by position. ok is false when no line of a
// conversation's own carries: a differing line count or text in a file
// leaves that file out.
func carryCopy(h string, d commitDiff, c string, src commitDiff, rec trace.Record, o BuildOptions) (trace.Record, bool) {
	m, _ := rec.Meta()
	writers := map[string]map[int]string{}
	written := map[string]int{} // conversation -> countable lines carried
	for _, f := range rec.Files {
		p := link.NormPath(f.Path)
		from, to := src.added[p], d.added[p]
		if len(from) == 0 || len(from) != len(to) {
			continue
		}
		same := true
		index := map[int]int{} // line in c -> its place among c's added lines
		for i := range from {
			if from[i].Text != to[i].Text {
				same = false
				break
			}
			index[from[i].Line] = i
		}
		if !same {
			continue
		}
		for _, cv := range f.Conversations {
			id := trace.ConversationID(cv.URL)
			cm, ok := m.Conversations[id]
			if id == "" || !ok || cm.IsDerived() || cv.Contributor == nil || cv.Contributor.Type != "ai" {
				continue
			}
			for _, r := range cv.Ranges {
				for n := r.StartLine; n <= r.EndLine; n++ {
					i, added := index[n]
					if !added {
						continue // a range beyond the commit's own lines
					}
					if writers[p] == nil {
						writers[p] = map[int]string{}
					}
					writers[p][to[i].Line] = id
					if link.Countable(to[i].Text) {
						written[id]++
					}
				}
			}
		}
	}
	in := trace.Input{Commit: h, Time: d.time, Added: d.added, Writers: writers, Root: o.Root, Home: o.Home,
		ToolVersion: o.ToolVersion, Writer: o.Writer}
	sha := c[:min(len(c), 7)]
	for id, cm := range m.Conversations {
		n := written[id]
		if n == 0 {
			continue
		}
		in.Links = append(in.Links, trace.Link{ID: id, Agent: cm.Agent, Model: cm.Model, Title: cm.Title,
			Summary: cm.Summary, Status: "auto", Confidence: cm.Confidence,
			Reason:       fmt.Sprintf("%s%s: the same patch (git patch-id), %d lines carried by position", copyReason, sha, n),
			WrittenLines: n, AddedLines: cm.AddedLines, PositionLines: min(n, cm.PositionLines), Derived: DerivedSquash})
	}
	if len(in.Links) == 0 {
		return trace.Record{}, false
	}
	sort.Slice(in.Links, func(i, j int) bool { return in.Links[i].ID < in.Links[j].ID })
	return trace.Build(in), true
}

// sameWriters reports whether two derived records give every line to the
// same conversation.
func sameWriters(a, b trace.Record) bool {
	flat := func(r trace.Record) []byte {
		var buf bytes.Buffer
		for _, f := range r.Files {
			for _, c := range f.Conversations {
				if c.Contributor != nil && c.Contributor.Type == "ai" {
					fmt.Fprintf(&buf, "%s\x00%s\x00%v\n", f.Path, c.URL, c.Ranges)
				}
			}
		}
		return buf.Bytes()
	}
	return bytes.Equal(flat(a), flat(b))
}
