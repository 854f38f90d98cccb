package notes

import (
	"sort"
	"strings"

	"github.com/git-convo/git-convo/pkg/share/trace"
)

// A teammate's note is a claim, not a fact: whoever can push can write
// one. claims keeps only what a reader may believe of a note's records.

// claims keeps the records of commit's note that are about commit (a record
// whose vcs.revision names another commit was copied or forged onto it) and
// takes out the derived links that a record on the commit withdrew
// (git convo unlink, share clean).
func claims(commit string, recs []trace.Record) []trace.Record {
	out := recs[:0:0]
	withdrawn := map[string]bool{}
	for _, r := range recs {
		if r.VCS == nil || !strings.EqualFold(r.VCS.Revision, commit) {
			continue
		}
		m, _ := r.Meta()
		for _, w := range m.Withdrawn {
			withdrawn[w.Conversation] = true
		}
		out = append(out, unmarkRewrites(r, m))
	}
	if len(withdrawn) == 0 {
		return out
	}
	for i := range out {
		out[i] = withdraw(out[i], withdrawn, true)
	}
	return out
}

// unmarkRewrites clears what only a reader may say of a link, that it was
// copied by rewrite (carry), from a record as its note gives it: a note
// saying so itself would have its lines shown as copied without the
// confidence a copy loses.
func unmarkRewrites(r trace.Record, m trace.Meta) trace.Record {
	marked := false
	for id, c := range m.Conversations {
		if c.RewrittenFrom != "" {
			c.RewrittenFrom, marked = "", true
			m.Conversations[id] = c
		}
	}
	if marked {
		r.SetMeta(m)
	}
	return r
}

// withdraw takes the links of the conversations in ids out of r (only the
// derived ones: onlyDerived): their entry, their files' lines and their
// evidence.
func withdraw(r trace.Record, ids map[string]bool, onlyDerived bool) trace.Record {
	m, ok := r.Meta()
	if !ok {
		return r
	}
	gone := map[string]bool{}
	for id, c := range m.Conversations {
		if ids[id] && (c.IsDerived() || !onlyDerived) {
			gone[id] = true
		}
	}
	if len(gone) == 0 {
		return r
	}
	return sift(r, func(id string) bool { return gone[id] }, true)
}

// sift is r less the conversations drop picks (by id; "" is an entry of
// no conversation): their entries, their files' lines (left unknown with
// unknown) and their evidence.
func sift(r trace.Record, drop func(id string) bool, unknown bool) trace.Record {
	m, _ := r.Meta()
	convs := make(map[string]trace.ConvMeta, len(m.Conversations))
	for id, c := range m.Conversations {
		if !drop(id) {
			convs[id] = c
		}
	}
	m.Conversations = convs
	var ev []trace.Evidence
	for _, e := range m.Evidence {
		if !drop(e.Conversation) {
			ev = append(ev, e)
		}
	}
	m.Evidence = ev
	files := make([]trace.File, 0, len(r.Files))
	for _, f := range r.Files {
		nf := trace.File{Path: f.Path, Conversations: []trace.Conversation{}}
		var left []trace.Range // the withdrawn lines: still added, by whom unknown
		for _, c := range f.Conversations {
			if drop(trace.ConversationID(c.URL)) {
				left = append(left, c.Ranges...)
				continue
			}
			nf.Conversations = append(nf.Conversations, c)
		}
		if unknown && len(left) > 0 {
			sort.Slice(left, func(i, j int) bool { return left[i].StartLine < left[j].StartLine })
			nf.Conversations = append(nf.Conversations, trace.Conversation{Contributor: &trace.Contributor{Type: "unknown"}, Ranges: left})
		}
		if len(nf.Conversations) > 0 {
			files = append(files, nf)
		}
	}
	r.Files = files
	r.SetMeta(m)
	return r
}

// decodeClaims is Decode of commit's note text, less what claims refuses.
func decodeClaims(commit string, text []byte) []trace.Record {
	return claims(commit, Decode(text))
}

// mapRanges is files with each conversation's ranges as each gives them for
// it (ok false: the conversation is dropped), a file left with none gone:
// clipping, moving and cutting a record's lines all walk it so.
func mapRanges(files []trace.File, each func(path string, c trace.Conversation) (ranges []trace.Range, ok bool)) []trace.File {
	out := make([]trace.File, 0, len(files))
	for _, f := range files {
		nf := trace.File{Path: f.Path, Conversations: make([]trace.Conversation, 0, len(f.Conversations))}
		for _, c := range f.Conversations {
			var ok bool
			if c.Ranges, ok = each(f.Path, c); ok {
				nf.Conversations = append(nf.Conversations, c)
			}
		}
		if len(nf.Conversations) > 0 {
			out = append(out, nf)
		}
	}
	return out
}
