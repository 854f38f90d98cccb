package mcpserver

import (
	"context"
	"sort"
	"strconv"

	"github.com/git-convo/git-convo/pkg/gitx"
	"github.com/git-convo/git-convo/pkg/notes"
	"github.com/git-convo/git-convo/pkg/repokey"
	"github.com/git-convo/git-convo/pkg/store"
)

// mergeShared adds what teammates shared in notes to the local links of
// hashes (best effort: unreadable notes leave the local answer as it is).
func mergeShared(ctx context.Context, dir string, hashes []string, linked map[string][]store.LinkedConversation) {
	if dir == "" {
		return
	}
	rd := notes.NewReader(ctx, dir)
	defer rd.Close()
	_ = rd.MergeLinked(ctx, hashes, linked)
}

// sharedConversations is every conversation teammates shared in the notes
// of the repository at dir, with its commits (best effort: nil).
func sharedConversations(ctx context.Context, dir string) map[string][]store.LinkedConversation {
	if dir == "" {
		return nil
	}
	rd := notes.NewReader(ctx, dir)
	defer rd.Close()
	all, _ := rd.Conversations(ctx)
	return all
}

// addSharedCommits adds to cc the commits shared notes link its
// conversation to that the local database does not, and what the local
// data lacks of the conversation (title, summary, agent).
func addSharedCommits(cc *ConversationCommits, links []store.LinkedConversation) {
	have := map[string]bool{}
	for _, c := range cc.Commits {
		have[c.Hash] = true
	}
	for _, lc := range links {
		conv := store.Conversation{Title: cc.Title, Summary: cc.Summary, Agent: cc.Agent, FirstPrompt: cc.FirstPrompt}
		notes.FillConversation(&conv, lc.Conv)
		cc.Title, cc.Summary, cc.Agent = conv.Title, conv.Summary, conv.Agent
		if cc.FirstPrompt == "" {
			cc.FirstPrompt = lc.Conv.FirstPrompt
		}
		if !have[lc.CommitHash] {
			have[lc.CommitHash] = true
			cc.Commits = append(cc.Commits, CommitRef{Hash: lc.CommitHash, Confidence: lc.Confidence, Status: lc.Status, Reason: lc.Reason, Evidence: lc.Evidence()})
		}
	}
}

// addSharedConversations adds to convs, up to limit in all, the
// conversations only shared notes name (touching the file with path key
// fileKey when it is set), most recent first.
func addSharedConversations(convs []store.Conversation, shared map[string][]store.LinkedConversation, fileKey string, limit int) []store.Conversation {
	have := map[string]bool{}
	for _, c := range convs {
		have[c.ID] = true
	}
	var more []store.Conversation
	for id, links := range shared {
		if have[id] || fileKey != "" && !touchesFile(links, fileKey) {
			continue
		}
		conv := links[0].Conv
		for _, lc := range links[1:] {
			notes.FillConversation(&conv, lc.Conv)
		}
		more = append(more, conv)
	}
	sort.Slice(more, func(i, j int) bool {
		if more[i].ActivityMs != more[j].ActivityMs {
			return more[i].ActivityMs > more[j].ActivityMs
		}
		return more[i].ID < more[j].ID
	})
	return append(convs, more[:min(len(more), max(limit-len(convs), 0))]...)
}

func touchesFile(links []store.LinkedConversation, key string) bool {
	for _, lc := range links {
		for _, p := range lc.MatchedFiles {
			if repokey.PathKey(p) == key {
				return true
			}
		}
	}
	return false
}

// addSharedFileContext adds to out, up to limit commits, the recent commits
// of the file rel the local database does not list whose shared notes link
// conversations that touched it, and those conversations (origin notes).
func addSharedFileContext(ctx context.Context, repo *gitx.Repo, rel string, limit int, keywords []string, out *FileOutput) {
	if len(out.Commits) >= limit {
		return
	}
	have := map[string]bool{}
	for _, c := range out.Commits {
		have[c.Hash] = true
	}
	var commits []gitx.Commit
	var hashes []string
	_ = repo.StreamLog(ctx, []string{"-n", strconv.Itoa(limit), "--", rel}, gitx.LogOptions{}, func(c gitx.Commit) bool {
		if !have[c.Hash] {
			commits, hashes = append(commits, c), append(hashes, c.Hash)
		}
		return true
	})
	if len(commits) == 0 {
		return
	}
	rd := notes.NewReader(ctx, repo.TopLevel)
	defer rd.Close()
	recs, err := rd.Records(ctx, hashes)
	if err != nil || len(recs) == 0 {
		return
	}
	known := map[string]bool{}
	for _, fc := range out.Conversations {
		known[fc.ID] = true
	}
	key := repokey.PathKey(rel)
	for _, c := range commits {
		rec, ok := recs[c.Hash]
		if !ok || len(out.Commits) >= limit {
			continue
		}
		fc := FileCommit{CommitRef: CommitRef{Hash: c.Hash, Subject: c.Subject, Author: c.Author,
			CommittedAt: c.CommitTime.UTC().Format("2006-01-02T15:04:05Z")}, Conversations: []ConversationRef{}}
		for _, lc := range notes.Linked(c.Hash, rec) {
			if !notes.Touches(rec, lc, key) {
				continue
			}
			ref := convRef(lc)
			fc.Conversations = append(fc.Conversations, ref)
			if known[lc.ConversationID] {
				continue
			}
			known[lc.ConversationID] = true
			conv := FileConversation{ConversationRef: ref, Relevance: "direct", Path: rel, Score: 1 + lc.Confidence}
			if len(keywords) > 0 {
				conv.matchKeywords(lc.Conv.Title+"\n"+lc.Conv.Summary+"\n"+lc.Conv.FirstPrompt, keywords)
			}
			out.Conversations = append(out.Conversations, conv)
		}
		if len(fc.Conversations) > 0 {
			out.Commits = append(out.Commits, fc)
		}
	}
}
