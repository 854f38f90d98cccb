package trace

import (
	"encoding/json"
	"sort"
)

// Merge joins two records of the same commit, conversation by conversation,
// losing nothing of either: two people's notes on one commit, or a note and
// the one a rewrite carried over.
func Merge(a, b Record) Record {
	out := Record{Version: SpecVersion, Timestamp: a.Timestamp, VCS: a.VCS, Tool: a.Tool}
	if b.Timestamp > out.Timestamp {
		out.Timestamp = b.Timestamp
	}
	if out.VCS == nil {
		out.VCS = b.VCS
	}
	if out.Tool == nil {
		out.Tool = b.Tool
	}
	out.Files = mergeFiles(a.Files, b.Files)
	for k, v := range b.Metadata {
		if out.Metadata == nil {
			out.Metadata = map[string]json.RawMessage{}
		}
		out.Metadata[k] = v
	}
	for k, v := range a.Metadata {
		if out.Metadata == nil {
			out.Metadata = map[string]json.RawMessage{}
		}
		out.Metadata[k] = v
	}
	ma, okA := a.Meta()
	mb, okB := b.Meta()
	if okA || okB {
		out.SetMeta(mergeMeta(ma, mb))
	}
	out.ID = contentID(out)
	return out
}

func mergeFiles(a, b []File) []File {
	byPath := map[string]*File{}
	var order []string
	for _, fs := range [][]File{a, b} {
		for _, f := range fs {
			cur := byPath[f.Path]
			if cur == nil {
				cp := File{Path: f.Path}
				cur = &cp
				byPath[f.Path] = cur
				order = append(order, f.Path)
			}
			cur.Conversations = mergeConversations(cur.Conversations, f.Conversations)
		}
	}
	sort.Strings(order)
	out := make([]File, 0, len(order))
	for _, p := range order {
		out = append(out, *byPath[p])
	}
	return out
}

// convKey identifies a conversation entry in a file: its URL, or for
// people's lines the contributor type.
func convKey(c Conversation) string {
	if c.URL != "" {
		return c.URL
	}
	if c.Contributor != nil {
		return "contributor:" + c.Contributor.Type
	}
	return "contributor:unknown"
}

func mergeConversations(a, b []Conversation) []Conversation {
	out := append([]Conversation{}, a...)
	for _, c := range b {
		i := -1
		for j := range out {
			if convKey(out[j]) == convKey(c) {
				i = j
				break
			}
		}
		if i < 0 {
			out = append(out, c)
			continue
		}
		if out[i].Contributor == nil || out[i].Contributor.ModelID == "" && c.Contributor != nil {
			out[i].Contributor = c.Contributor
		}
		out[i].Ranges = mergeRanges(out[i].Ranges, c.Ranges)
	}
	if out == nil {
		out = []Conversation{}
	}
	return out
}

func mergeRanges(a, b []Range) []Range {
	seen := map[[2]int]bool{}
	var out []Range
	for _, r := range append(append([]Range{}, a...), b...) {
		k := [2]int{r.StartLine, r.EndLine}
		if !seen[k] {
			seen[k] = true
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].StartLine < out[j].StartLine })
	if out == nil {
		out = []Range{}
	}
	return out
}

func mergeMeta(a, b Meta) Meta {
	out := Meta{Format: max(a.Format, b.Format, Format), Writer: a.Writer, Conversations: map[string]ConvMeta{}}
	if out.Writer != b.Writer {
		out.Writer = ""
	}
	for id, c := range b.Conversations {
		out.Conversations[id] = c
	}
	for id, c := range a.Conversations {
		if o, ok := out.Conversations[id]; ok {
			c = fillConv(c, o)
		}
		out.Conversations[id] = c
	}
	seen := map[[2]string]bool{}
	for _, e := range append(append([]Evidence{}, a.Evidence...), b.Evidence...) {
		k := [2]string{e.Path, e.Conversation}
		if !seen[k] {
			seen[k] = true
			out.Evidence = append(out.Evidence, e)
		}
	}
	withdrawn := map[string]bool{}
	for _, w := range append(append([]Withdrawal{}, a.Withdrawn...), b.Withdrawn...) {
		if !withdrawn[w.Conversation] {
			withdrawn[w.Conversation] = true
			out.Withdrawn = append(out.Withdrawn, w)
		}
	}
	return out
}

// fillConv keeps a's view of a conversation (a manual link, or the higher
// confidence, wins) and takes from b what a lacks.
func fillConv(a, b ConvMeta) ConvMeta {
	if b.Status == "manual" && a.Status != "manual" || b.Status == a.Status && b.Confidence > a.Confidence {
		a, b = b, a
	}
	for _, f := range []struct {
		dst *string
		src string
	}{
		{&a.Agent, b.Agent}, {&a.Model, b.Model}, {&a.Title, b.Title}, {&a.Summary, b.Summary},
		{&a.Reason, b.Reason}, {&a.Derived, b.Derived}, {&a.FirstPrompt, b.FirstPrompt}, {&a.StartedAt, b.StartedAt}, {&a.LastActiveAt, b.LastActiveAt},
	} {
		if *f.dst == "" {
			*f.dst = f.src
		}
	}
	if len(a.MatchedFiles) == 0 {
		a.MatchedFiles = b.MatchedFiles
	}
	return a
}
