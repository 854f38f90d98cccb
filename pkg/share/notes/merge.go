package notes

import (
	"context"
	"sort"
	"strings"

	"github.com/git-convo/git-convo/pkg/share/trace"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/util/textmatch"
)

// The merges of the local database with teammates' shared notes, one set
// for every front end, which call them through pkg/app (the CLI's read
// commands, the MCP tools): the same filters and limits, so both give the
// same answer on the same data.

// LocalConversation looks a conversation up in the local database (nil, nil:
// unknown); a front end without a database passes nil.
type LocalConversation func(ctx context.Context, id string) (*store.Conversation, error)

// MergeLinkedLocal is MergeLinked, then LocalTitles.
func (r *Reader) MergeLinkedLocal(ctx context.Context, hashes []string, linked map[string][]store.LinkedConversation, local LocalConversation) error {
	err := r.MergeLinked(ctx, hashes, linked)
	LocalTitles(ctx, linked, local)
	return err
}

// LocalTitles gives a link read from a note without a title (a squash
// derived from a note written before the title was known) what the local
// database knows of its conversation.
func LocalTitles(ctx context.Context, linked map[string][]store.LinkedConversation, local LocalConversation) {
	if local == nil {
		return
	}
	known := map[string]*store.Conversation{}
	for _, lcs := range linked {
		for i := range lcs {
			lc := &lcs[i]
			if lc.Source != SourceNotes || lc.Conv.Title != "" {
				continue
			}
			c, seen := known[lc.ConversationID]
			if !seen {
				c, _ = local(ctx, lc.ConversationID)
				known[lc.ConversationID] = c
			}
			if c != nil {
				FillConversation(&lc.Conv, *c)
			}
		}
	}
}

// ByConversation is every conversation the shared records recs (Reader.All)
// name, with the commits they link it to, strongest first, each with the
// conversation's metadata as that note has it.
func ByConversation(recs map[string]trace.Record) map[string][]store.LinkedConversation {
	out := map[string][]store.LinkedConversation{}
	for c, rec := range recs {
		for _, lc := range Linked(c, rec) {
			out[lc.ConversationID] = append(out[lc.ConversationID], lc)
		}
	}
	for _, links := range out {
		sort.Slice(links, func(i, j int) bool {
			if links[i].Confidence != links[j].Confidence {
				return links[i].Confidence > links[j].Confidence
			}
			return links[i].CommitHash < links[j].CommitHash
		})
	}
	return out
}

// AddConversations adds to list (the local database's answer under f) the
// conversations only the shared records recs name, with the number of
// commits naming them, under the same filter: f.FileKey (lines or matched
// files of that file, Touches), f.SinceMs and f.Limit. The list comes back
// most recent first (ties: by id).
func AddConversations(recs map[string]trace.Record, list []store.ConversationSummary, f store.ConversationFilter) []store.ConversationSummary {
	known := map[string]bool{}
	for _, cs := range list {
		known[cs.ID] = true
	}
	found := map[string]*store.ConversationSummary{}
	for c, r := range recs {
		for _, lc := range Linked(c, r) {
			if known[lc.ConversationID] || f.FileKey != "" && !Touches(r, lc, f.FileKey) {
				continue
			}
			cs := found[lc.ConversationID]
			if cs == nil {
				cs = &store.ConversationSummary{Conversation: lc.Conv}
				found[lc.ConversationID] = cs
			} else {
				FillConversation(&cs.Conversation, lc.Conv)
			}
			cs.Commits++
			cs.ActivityMs = max(cs.ActivityMs, lc.Conv.ActivityMs)
		}
	}
	var more []store.ConversationSummary
	for _, cs := range found {
		if cs.ActivityMs >= f.SinceMs {
			more = append(more, *cs)
		}
	}
	if len(more) == 0 {
		return list
	}
	sort.Slice(more, func(i, j int) bool { return more[i].ID < more[j].ID }) // map order is random
	list = append(list, more...)
	sort.SliceStable(list, func(i, j int) bool { return list[i].ActivityMs > list[j].ActivityMs })
	if f.Limit > 0 && len(list) > f.Limit {
		list = list[:f.Limit]
	}
	return list
}

// SearchDocs adds to search's candidates docs the conversations only the
// shared records recs name (under f, less its limit: search ranks, then
// cuts) whose title, summary or shared first prompt hold every word;
// shared says which those are.
func SearchDocs(recs map[string]trace.Record, docs []store.SearchDoc, words []string, f store.ConversationFilter) ([]store.SearchDoc, map[string]bool) {
	list := make([]store.ConversationSummary, len(docs))
	local := map[string]bool{}
	for i, d := range docs {
		list[i] = store.ConversationSummary{Conversation: d.Conversation}
		local[d.ID] = true
	}
	f.Limit = 0
	shared := map[string]bool{}
	for _, cs := range AddConversations(recs, list, f) {
		text := cs.Title + "\n" + cs.Summary + "\n" + cs.FirstPrompt
		if local[cs.ID] || !ContainsAll(text, words) {
			continue
		}
		docs = append(docs, store.SearchDoc{Conversation: cs.Conversation, Text: text, Commits: cs.Commits})
		shared[cs.ID] = true
	}
	return docs, shared
}

// ContainsAll reports whether text holds every word, ignoring case
// (textmatch.Fold).
func ContainsAll(text string, words []string) bool {
	folded := textmatch.Fold(text)
	for _, w := range words {
		if !strings.Contains(folded, textmatch.Fold(w)) {
			return false
		}
	}
	return true
}
