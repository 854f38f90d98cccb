package notes

import (
	"cmp"
	"slices"
	"strings"

	"github.com/git-convo/git-convo/pkg/share/trace"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/store/repokey"
	"github.com/git-convo/git-convo/pkg/util/mstime"
)

// SourceNotes is the link source of a conversation known from shared notes.
const SourceNotes = "notes"

// Origin is "notes" for a link read from shared notes, "local" otherwise:
// the JSON of the read commands carries it.
func Origin(source string) string {
	if source == SourceNotes {
		return "notes"
	}
	return "local"
}

// OldRuleLabel is added to the reason of a derived link written before
// links were marked derived: two matching lines were enough then.
const OldRuleLabel = " (recognised by the old line-hash rule: weaker evidence; git convo share clean checks it)"

// Linked turns a record into the links read commands print, strongest
// first, with Source SourceNotes.
func Linked(commit string, r trace.Record) []store.LinkedConversation {
	m, _ := r.Meta()
	return linkedMeta(commit, m)
}

// Sharer is the clone whose note gave a conversation's link: the sharer a
// derived link (or a merge of several clones' records) names, else the
// record's writer.
func Sharer(c trace.ConvMeta, m trace.Meta) string {
	if c.SharedBy != "" {
		return c.SharedBy
	}
	return m.Writer
}

// linkedMeta is Linked from the record's git-convo metadata.
func linkedMeta(commit string, m trace.Meta) []store.LinkedConversation {
	if len(m.Conversations) == 0 {
		return nil
	}
	out := make([]store.LinkedConversation, 0, len(m.Conversations))
	for id, c := range m.Conversations {
		out = append(out, linkedConv(commit, id, c, m.Writer))
	}
	sortLinked(out)
	return out
}

// linkedConv is one conversation's link of linkedMeta: c is the
// conversation id's metadata in a record written by writer.
func linkedConv(commit, id string, c trace.ConvMeta, writer string) store.LinkedConversation {
	lc := store.LinkedConversation{
		Link: store.Link{ConversationID: id, CommitHash: commit, MatchedFiles: c.MatchedFiles, Confidence: c.Confidence,
			Status: c.Status, Reason: c.Reason, Source: SourceNotes, WrittenLines: c.WrittenLines, AddedLines: c.AddedLines,
			SharedBy: Sharer(c, trace.Meta{Writer: writer}), PositionLines: min(c.PositionLines, c.WrittenLines), RewrittenFrom: c.RewrittenFrom},
		Conv: store.Conversation{ID: id, Title: c.Title, Summary: c.Summary, FirstPrompt: c.FirstPrompt, Model: c.Model,
			Agent: c.Agent, FirstSeenMs: mstime.ParseISO(c.StartedAt), ActivityMs: mstime.ParseISO(c.LastActiveAt)},
	}
	if lc.Status == "" {
		lc.Status = "auto"
	}
	if lc.SharedBy != writer {
		lc.DerivedBy = writer // the clone that derived it from the sharer's note
	}
	if c.Derived == "" && c.IsDerived() {
		lc.Reason += OldRuleLabel
	}
	return lc
}

// sortLinked orders a commit's links strongest first: manual links, then
// by confidence, then by conversation id.
func sortLinked(out []store.LinkedConversation) {
	slices.SortFunc(out, func(a, b store.LinkedConversation) int {
		if (a.Status == "manual") != (b.Status == "manual") {
			if a.Status == "manual" {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(b.Confidence, a.Confidence); c != 0 {
			return c
		}
		return strings.Compare(a.ConversationID, b.ConversationID)
	})
}

// linkedFromNote is Linked for a commit's note text (and a derived record),
// as Records would combine them. The usual note, one record, is decoded
// for its metadata only: the files' line ranges and hashes, most of a
// note's bytes, are skipped without being built.
func linkedFromNote(commit string, derived []byte, text string) []store.LinkedConversation {
	if len(text) > MaxNoteBytes {
		text = "" // skipped, as Decode skips it
	}
	if derived == nil {
		// The fast path only for a record plainly about commit (claims).
		if line := strings.TrimSpace(text); line != "" && !strings.Contains(line, "\n") &&
			strings.Contains(line, `"revision":"`+commit+`"`) && !strings.Contains(line, `"withdrawn"`) {
			if lcs, ok := linkedLine(commit, line); ok {
				return lcs
			}
			m, ok := decodeMeta(line)
			if !ok {
				return nil
			}
			return linkedMeta(commit, m)
		}
	}
	rec, ok := Combine(decodeClaims(commit, joinLines(derived, []byte(text))))
	if !ok {
		return nil
	}
	return Linked(commit, rec)
}

// linkedLine is linkedMeta(commit, decodeMeta(line)) for the usual note:
// a few conversations, each as git-convo writes it. Their links are built
// from the raw values, without the metadata's map (a map of ConvMeta took
// 2 KB of fresh memory a commit: log -n 1000 of noted commits faulted in
// some 500 pages for it). ok is false for anything else (a repeated id,
// many conversations, what the scanners refuse): the caller then decodes
// the note as before, which gives the same answer.
func linkedLine(commit, line string) (lcs []store.LinkedConversation, ok bool) {
	raw, ok := noteMeta(line)
	if !ok {
		return nil, false
	}
	return linkedRaw(commit, raw)
}

// linkedRaw is linkedLine from the note's raw git-convo metadata.
func linkedRaw(commit, raw string) (lcs []store.LinkedConversation, ok bool) {
	if raw == "" {
		return nil, true // no metadata: no link, as decodeMeta reads it
	}
	var f [3]string
	var m trace.Meta
	if !rawFields(raw, f[:], "format", "conversations", "writer") ||
		f[0] != "" && !scanMetaField(&m, "format", f[0]) || f[2] != "" && !plainString(f[2], &m.Writer) {
		return nil, false
	}
	if m.Format > trace.Format || f[1] == "" {
		return nil, true
	}
	type conv struct {
		id string
		c  trace.ConvMeta
	}
	var first [4]conv
	convs := first[:0]
	if f[1][0] != '{' || !eachField(f[1], func(id, raw string) bool {
		c, ok := scanConvMeta(raw)
		if !ok || !plainBody(id) || len(convs) == maxLineConvs {
			return false
		}
		for _, e := range convs {
			if e.id == id {
				return false // json keeps the last: the long way
			}
		}
		convs = append(convs, conv{id, c})
		return true
	}) {
		return nil, false
	}
	if len(convs) == 0 {
		return nil, true
	}
	lcs = make([]store.LinkedConversation, 0, len(convs))
	for _, e := range convs {
		lcs = append(lcs, linkedConv(commit, e.id, e.c, m.Writer))
	}
	sortLinked(lcs)
	return lcs, true
}

// maxLineConvs bounds linkedLine's search for a repeated id.
const maxLineConvs = 16

// decodeMeta is Decode of a one-record note, keeping only git-convo's
// metadata (the part Linked reads): a record is accepted as Decode accepts it (an object with a
// files array, of a format it knows), the rest is skipped unread.
func decodeMeta(line string) (trace.Meta, bool) {
	raw, ok := noteMeta(line)
	if !ok {
		return trace.Meta{}, false
	}
	var m trace.Meta
	if raw != "" {
		m = linksMeta(raw)
	}
	if m.Format > trace.Format {
		return trace.Meta{}, false
	}
	return m, true
}

// noteMeta is the raw git-convo metadata of a one-record note ("": none);
// ok is false where Decode would refuse the record (no files array) or its
// metadata is no object.
func noteMeta(line string) (raw string, ok bool) {
	var top [2]string
	if !rawFields(line, top[:], "files", "metadata") || top[0] == "" || top[0][0] != '[' {
		return "", false
	}
	if md := top[1]; md != "" && md != "null" {
		var mf [1]string
		if !rawFields(md, mf[:], trace.MetaKey) {
			return "", false
		}
		return mf[0], true
	}
	return "", true
}

// linksMeta is metaOf(metaForLinks(raw)) without building that object:
// scanMeta would read {"format":F,"conversations":C} as F then C, so the
// scanner takes the values where they lie (format, conversations and the
// writer, whose "shared by" read commands print; what it takes is valid
// JSON, as metaOf checks first). What it cannot take goes the long way.
func linksMeta(raw string) trace.Meta {
	var f [3]string
	if rawFields(raw, f[:], "format", "conversations", "writer") {
		var m trace.Meta
		if (f[0] == "" || scanMetaField(&m, "format", f[0])) && (f[1] == "" || scanMetaField(&m, "conversations", f[1])) &&
			(f[2] == "" || plainString(f[2], &m.Writer)) {
			return m
		}
	}
	return metaOf(metaForLinks(raw))
}

// metaForLinks is git-convo's metadata raw with only what Linked reads
// (format, conversations and writer): the evidence, per-line hashes and most of
// its bytes, is skipped unread instead of decoded. A value that is not an
// object is left for Meta to refuse.
func metaForLinks(raw string) string {
	keys := [3]string{"format", "conversations", "writer"}
	var f [3]string
	if !rawFields(raw, f[:], keys[:]...) {
		return raw
	}
	var out strings.Builder
	out.WriteByte('{')
	for i, k := range keys {
		if v := f[i]; v != "" {
			if out.Len() > 1 {
				out.WriteByte(',')
			}
			out.WriteString(`"` + k + `":`)
			out.WriteString(v)
		}
	}
	out.WriteByte('}')
	return out.String()
}

func mergeLinks(local, shared []store.LinkedConversation) []store.LinkedConversation {
	if len(local) == 0 {
		return shared // a commit only notes link: no copy, no map
	}
	at := map[string]int{}
	for i, lc := range local {
		at[lc.ConversationID] = i
	}
	for _, s := range shared {
		i, ok := at[s.ConversationID]
		if !ok {
			local = append(local, s)
			continue
		}
		FillConversation(&local[i].Conv, s.Conv)
	}
	return local
}

// FillConversation fills what dst lacks (title, summary, model, agent) from
// src, another source's view of the same conversation.
func FillConversation(dst *store.Conversation, src store.Conversation) {
	for _, f := range []struct {
		dst *string
		src string
	}{{&dst.Title, src.Title}, {&dst.Summary, src.Summary}, {&dst.Model, src.Model}, {&dst.Agent, src.Agent}} {
		if *f.dst == "" {
			*f.dst = f.src
		}
	}
}

// Touches reports whether record r says conversation lc touched the file
// whose path key (repokey.PathKey) is key: its lines, or its matched files.
func Touches(r trace.Record, lc store.LinkedConversation, key string) bool {
	for _, p := range lc.MatchedFiles {
		if repokey.PathKey(p) == key {
			return true
		}
	}
	for _, f := range r.Files {
		if repokey.PathKey(f.Path) != key {
			continue
		}
		for _, c := range f.Conversations {
			if trace.ConversationID(c.URL) == lc.ConversationID {
				return true
			}
		}
	}
	return false
}

// What the links index (linksindex.go) keeps of a commit's note on one
// ref: its metadata for links, no link at all, or nothing it can answer
// from (the note is read the long way).
const (
	entryMeta byte = 'm'
	entryNone byte = 'n'
	entryLong byte = 'l'
)

// indexEntry is what the links index keeps of text, commit's note on one
// ref: linkedIndexed of it gives what linkedFromNote(commit, nil, text)
// gives, for the usual note (one record plainly about commit); anything
// else is entryLong.
func indexEntry(commit, text string) (kind byte, value string) {
	if len(text) > MaxNoteBytes {
		return entryLong, ""
	}
	line := strings.TrimSpace(text)
	if line == "" || strings.Contains(line, "\n") || !strings.Contains(line, `"revision":"`+commit+`"`) ||
		strings.Contains(line, `"withdrawn"`) {
		return entryLong, ""
	}
	raw, ok := noteMeta(line)
	if !ok {
		return entryNone, "" // Decode refuses it: no link
	}
	// Only what links are read from: a quarter of a note's bytes.
	return entryMeta, metaForLinks(raw)
}

// linkedIndexed is the links of commit's note from its index entry (kind
// entryMeta or entryNone).
func linkedIndexed(commit string, kind byte, value string) []store.LinkedConversation {
	if kind != entryMeta {
		return nil
	}
	if lcs, ok := linkedRaw(commit, value); ok {
		return lcs
	}
	m := linksMeta(value)
	if m.Format > trace.Format {
		return nil
	}
	return linkedMeta(commit, m)
}
