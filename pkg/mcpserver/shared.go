package mcpserver

import (
	"context"
	"strconv"

	"github.com/git-convo/git-convo/pkg/app"
	"github.com/git-convo/git-convo/pkg/git/gitx"
)

// addSharedCommits adds to cc the commits shared notes link its
// conversation to that the local database does not, and what the local
// data lacks of the conversation (title, summary, agent).
func addSharedCommits(cc *ConversationCommits, links []app.LinkedConversation) {
	have := map[string]bool{}
	for _, c := range cc.Commits {
		have[c.Hash] = true
	}
	for _, lc := range links {
		conv := app.Conversation{Title: cc.Title, Summary: cc.Summary, Agent: cc.Agent, FirstPrompt: cc.FirstPrompt}
		app.FillConversation(&conv, lc.Conv)
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
func (d *Deps) addSharedFileContext(ctx context.Context, repo *gitx.Repo, rel string, limit int, keywords []string, out *FileOutput) {
	if len(out.Commits) >= limit {
		return
	}
	have := map[string]bool{}
	for _, c := range out.Commits {
		have[c.Hash] = true
	}
	var commits []gitx.Commit
	_ = repo.StreamLog(ctx, []string{"-n", strconv.Itoa(limit), "--", rel}, gitx.LogOptions{}, func(c gitx.Commit) bool {
		if !have[c.Hash] {
			commits = append(commits, c)
		}
		return true
	})
	known := map[string]bool{}
	for _, fc := range out.Conversations {
		known[fc.ID] = true
	}
	for _, fl := range d.App.SharedFileCommits(ctx, repo, rel, commits) {
		if len(out.Commits) >= limit {
			continue
		}
		c := fl.Commit
		fc := FileCommit{CommitRef: CommitRef{Hash: c.Hash, Subject: c.Subject, Author: c.Author,
			CommittedAt: c.CommitTime.UTC().Format("2006-01-02T15:04:05Z")}, Conversations: []ConversationRef{}}
		for _, lc := range fl.Linked {
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
