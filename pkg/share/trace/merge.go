package trace

import (
	"encoding/json"
	"sort"
)

// Merge joins two records of the same commit, conversation by conversation,
// losing nothing of either: two people's notes on one commit, or a note and
// the one a rewrite carried over.
func Merge(a, b Record) Record { return MergeAll([]Record{a, b}) }

// MergeAll joins the records of one commit in one pass, as Merge folded
// over them would: each file, conversation, range and evidence is indexed
// once, and the merged record is marshalled and hashed once (a fold of
// Merge did both per record: cubic in the records of a flooded note).
// Ties keep the earlier record's view.
func MergeAll(recs []Record) Record {
	if len(recs) == 0 {
		return Record{Version: SpecVersion, Files: []File{}}
	}
	out := Record{Version: SpecVersion, Timestamp: recs[0].Timestamp, VCS: recs[0].VCS, Tool: recs[0].Tool}
	files := fileMerger{byPath: map[string]*mergedFile{}}
	meta := metaMerger{out: Meta{Format: Format, Writer: "", Conversations: map[string]ConvMeta{}}, seen: map[[2]string]bool{}, withdrawn: map[string]bool{},
		sharer: map[string]string{}}
	anyMeta := false
	for i := range recs {
		r := &recs[i]
		if r.Timestamp > out.Timestamp {
			out.Timestamp = r.Timestamp
		}
		if out.VCS == nil {
			out.VCS = r.VCS
		}
		if out.Tool == nil {
			out.Tool = r.Tool
		}
		files.add(r.Files)
		for k, v := range r.Metadata {
			if out.Metadata == nil {
				out.Metadata = map[string]json.RawMessage{}
			}
			if _, ok := out.Metadata[k]; !ok { // the earlier record's key wins
				out.Metadata[k] = v
			}
		}
		m, ok := r.Meta()
		anyMeta = anyMeta || ok
		meta.add(m, i == 0)
	}
	out.Files = files.result()
	if anyMeta {
		out.SetMeta(meta.result())
	}
	out.ID = contentID(out)
	return out
}

// fileMerger unites files by path, conversations by convKey, ranges by
// their lines.
type fileMerger struct {
	byPath map[string]*mergedFile
}

type mergedFile struct {
	convs []Conversation
	at    map[string]int    // convKey -> index in convs
	seen  []map[[2]int]bool // per conversation, its ranges' lines
}

func (f *fileMerger) add(files []File) {
	for _, fl := range files {
		cur := f.byPath[fl.Path]
		if cur == nil {
			cur = &mergedFile{at: map[string]int{}}
			f.byPath[fl.Path] = cur
		}
		for _, c := range fl.Conversations {
			k := convKey(c)
			i, ok := cur.at[k]
			if !ok {
				i = len(cur.convs)
				cur.at[k] = i
				cur.convs = append(cur.convs, Conversation{URL: c.URL, Contributor: c.Contributor})
				cur.seen = append(cur.seen, map[[2]int]bool{})
			} else if o := &cur.convs[i]; o.Contributor == nil || o.Contributor.ModelID == "" && c.Contributor != nil {
				o.Contributor = c.Contributor
			}
			for _, r := range c.Ranges {
				key := [2]int{r.StartLine, r.EndLine}
				if !cur.seen[i][key] {
					cur.seen[i][key] = true
					cur.convs[i].Ranges = append(cur.convs[i].Ranges, r)
				}
			}
		}
	}
}

func (f *fileMerger) result() []File {
	paths := make([]string, 0, len(f.byPath))
	for p := range f.byPath {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	out := make([]File, 0, len(paths))
	for _, p := range paths {
		convs := f.byPath[p].convs
		for i := range convs {
			rs := convs[i].Ranges
			sort.SliceStable(rs, func(a, b int) bool { return rs[a].StartLine < rs[b].StartLine })
			if rs == nil {
				convs[i].Ranges = []Range{}
			}
		}
		if convs == nil {
			convs = []Conversation{}
		}
		out = append(out, File{Path: p, Conversations: convs})
	}
	return out
}

// metaMerger unites git-convo's metadata as mergeMeta folded would.
type metaMerger struct {
	out       Meta
	seen      map[[2]string]bool
	withdrawn map[string]bool
	mixed     bool              // two records name different writers
	sharer    map[string]string // conversation -> the clone whose view of it won
}

func (m *metaMerger) add(x Meta, first bool) {
	m.out.Format = max(m.out.Format, x.Format)
	switch {
	case first:
		m.out.Writer = x.Writer
	case x.Writer != m.out.Writer:
		m.mixed = true
	}
	for id, c := range x.Conversations {
		by := c.SharedBy
		if by == "" {
			by = x.Writer
		}
		if o, ok := m.out.Conversations[id]; ok {
			if !wins(c, o) {
				by = m.sharer[id]
			}
			c = fillConv(o, c)
		}
		m.out.Conversations[id] = c
		m.sharer[id] = by
	}
	for _, e := range x.Evidence {
		k := [2]string{e.Path, e.Conversation}
		if !m.seen[k] {
			m.seen[k] = true
			m.out.Evidence = append(m.out.Evidence, e)
		}
	}
	for _, w := range x.Withdrawn {
		if !m.withdrawn[w.Conversation] {
			m.withdrawn[w.Conversation] = true
			m.out.Withdrawn = append(m.out.Withdrawn, w)
		}
	}
}

func (m *metaMerger) result() Meta {
	if m.mixed {
		// The merged record has no one writer: each link keeps its sharer.
		m.out.Writer = ""
		for id, c := range m.out.Conversations {
			if c.SharedBy == "" && m.sharer[id] != "" {
				c.SharedBy = m.sharer[id]
				m.out.Conversations[id] = c
			}
		}
	}
	return m.out
}

// wins reports whether b's view of a conversation is the one fillConv
// keeps over a's.
func wins(b, a ConvMeta) bool {
	return b.Status == "manual" && a.Status != "manual" || b.Status == a.Status && b.Confidence > a.Confidence
}

// fillConv keeps a's view of a conversation (a manual link, or the higher
// confidence, wins) and takes from b what a lacks.
func fillConv(a, b ConvMeta) ConvMeta {
	if wins(b, a) {
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

// convKey identifies a conversation entry in a file: its URL and
// contributor type (a conversation's "ai" lines and its "mixed" ones, a
// person's edits over them, stay apart: joined, one type would be given to
// the other's lines), or for people's lines the contributor type.
func convKey(c Conversation) string {
	typ := ""
	if c.Contributor != nil {
		typ = c.Contributor.Type
	}
	switch {
	case c.URL != "":
		return c.URL + " " + typ
	case typ == "":
		return "contributor:unknown"
	}
	return "contributor:" + typ
}
