package mcpserver

import (
	"context"
	"strconv"

	"github.com/git-convo/git-convo/pkg/gitx"
	"github.com/git-convo/git-convo/pkg/notes"
	"github.com/git-convo/git-convo/pkg/repokey"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/trace"
)

// mergeShared adds what teammates shared in notes to the local links of
// hashes, as the CLI's read commands do (notes.MergeLinkedLocal; best
// effort: unreadable notes leave the local answer as it is).
func (d *Deps) mergeShared(ctx context.Context, dir string, hashes []string, linked map[string][]store.LinkedConversation) {
	if dir == "" {
		return
	}
	rd := notes.NewReader(ctx, dir)
	defer rd.Close()
	_ = rd.MergeLinkedLocal(ctx, hashes, linked, d.Store.GetConversation)
}

// sharedRecords is every record teammates shared in the notes of the
// repository at dir (best effort: nil).
func sharedRecords(ctx context.Context, dir string) map[string]trace.Record {
	if dir == "" {
		return nil
	}
	rd := notes.NewReader(ctx, dir)
	defer rd.Close()
	recs, _ := rd.All(ctx)
	return recs
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
