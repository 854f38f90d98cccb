package mcpserver

import (
	"context"

	"github.com/git-convo/git-convo/pkg/app"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/util/mstime"
)

// Other tools' records (docs/interop.md), read by pkg/share/interop: these only
// put its answers into the tools' results.

// addOtherFileContext adds to get_file_context's result what other tools'
// records say of the file: each commit's writers (otherTools), the recent
// commits of the file only they name (up to limit), the conversations
// git-convo knows among their sessions, and every writer they name.
func (d *Deps) addOtherFileContext(ctx context.Context, repo *gitx.Repo, rel string, limit int, out *FileOutput) {
	hashes := make([]string, len(out.Commits))
	for i, c := range out.Commits {
		hashes[i] = c.Hash
	}
	f := d.App.FileOthers(ctx, d.Store, repo, rel, hashes, limit)
	for i := range out.Commits {
		out.Commits[i].OtherTools = f.ByCommit[out.Commits[i].Hash]
	}
	for _, h := range f.Extra {
		if len(out.Commits) >= limit {
			break
		}
		fc := FileCommit{CommitRef: CommitRef{Hash: h}, Conversations: []ConversationRef{}, OtherTools: f.ByCommit[h]}
		if c, err := repo.ReadHeaderInProcess(h); err == nil {
			fc.Subject, fc.Author, fc.CommittedAt = c.Subject, c.Author, c.CommitTime.UTC().Format("2006-01-02T15:04:05Z")
		}
		out.Commits = append(out.Commits, fc)
	}
	have := map[string]bool{}
	for _, c := range out.Conversations {
		have[c.ID] = true
	}
	for _, w := range f.Writers {
		if w.Conversation == "" {
			out.OtherTools = append(out.OtherTools, w)
			continue
		}
		if have[w.Conversation] {
			continue
		}
		have[w.Conversation] = true
		ref := ConversationRef{ID: w.Conversation, Agent: w.Tool, Evidence: w.Evidence, Origin: "local", WrittenLines: w.Lines}
		if c, err := d.Store.GetConversation(ctx, w.Conversation); err == nil && c != nil {
			ref.Title, ref.Summary, ref.FirstPrompt, ref.LastActive, ref.Agent = c.Title, c.Summary, c.FirstPrompt, mstime.ISO(c.ActivityMs), c.Agent
		}
		out.Conversations = append(out.Conversations, FileConversation{ConversationRef: ref, Relevance: "direct", Path: rel, Score: 1})
	}
}

// addSessionCommits adds to a conversation's commits those git-ai's notes
// give to its session (same agent, same id) that git-convo does not link,
// locally or in shared notes (App.SessionCommits, which git convo
// conversations counts).
func (d *Deps) addSessionCommits(ctx context.Context, repo *gitx.Repo, sessions app.Sessions, shared []app.LinkedConversation, cc *ConversationCommits) {
	for _, h := range d.App.SessionCommits(ctx, d.Store, sessions, shared, cc.Agent, cc.ID) {
		ref := CommitRef{Hash: h, Evidence: "git-ai checkpoint", Reason: "from git-ai's notes"}
		if repo != nil {
			if c, err := repo.ReadHeaderInProcess(h); err == nil {
				ref.Subject, ref.Author, ref.CommittedAt = c.Subject, c.Author, c.CommitTime.UTC().Format("2006-01-02T15:04:05Z")
			}
		}
		cc.Commits = append(cc.Commits, ref)
	}
}
