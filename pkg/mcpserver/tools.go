package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-convo/git-convo/pkg/app"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/util/mstime"
	"github.com/git-convo/git-convo/pkg/util/textmatch"
)

// ConversationRef is a conversation as the tools return it.
type ConversationRef struct {
	ID           string   `json:"id"`
	Title        string   `json:"title"`
	Summary      string   `json:"summary,omitempty"`
	FirstPrompt  string   `json:"firstPrompt,omitempty"`
	LastActive   string   `json:"lastActive,omitempty"`
	Confidence   float64  `json:"confidence,omitempty"`
	Status       string   `json:"status,omitempty"`
	Reason       string   `json:"reason,omitempty"`
	MatchedFiles []string `json:"matchedFiles,omitempty"`
	WrittenLines int      `json:"writtenLines,omitempty"`
	AddedLines   int      `json:"addedLines,omitempty"`
	Origin       string   `json:"origin"`             // local | notes (a teammate's shared note)
	SharedBy     string   `json:"sharedBy,omitempty"` // the clone whose note says so (origin notes)
	Agent        string   `json:"agent,omitempty"`    // the agent's name (cursor, claude, ...)
	// Evidence is what the link rests on: position, text match, overlap
	// only (edited the same files; wrote none of these lines), agent
	// commit, manual.
	Evidence string `json:"evidence,omitempty"`
}

// CommitRef is a commit as the tools return it.
type CommitRef struct {
	Hash        string  `json:"hash"`
	Subject     string  `json:"subject,omitempty"`
	Author      string  `json:"author,omitempty"`
	CommittedAt string  `json:"committedAt,omitempty"`
	Confidence  float64 `json:"confidence,omitempty"`
	Status      string  `json:"status,omitempty"`
	Reason      string  `json:"reason,omitempty"`
	Evidence    string  `json:"evidence,omitempty"` // as ConversationRef's
}

func convRef(lc app.LinkedConversation) ConversationRef {
	return ConversationRef{ID: lc.ConversationID, Title: lc.Conv.Title, Summary: lc.Conv.Summary, FirstPrompt: lc.Conv.FirstPrompt,
		LastActive: mstime.ISO(lc.Conv.ActivityMs), Confidence: lc.Confidence, Status: lc.Status, Reason: lc.Reason,
		MatchedFiles: lc.MatchedFiles, WrittenLines: lc.WrittenLines, AddedLines: lc.AddedLines, Agent: lc.Conv.Agent, Origin: app.Origin(lc.Source),
		SharedBy: lc.SharedBy, Evidence: lc.Evidence()}
}

// ---- get_commit_conversations

// CommitInput is get_commit_conversations' input.
type CommitInput struct {
	CommitHash string `json:"commitHash" jsonschema:"any revision git accepts: a full or short hash, HEAD, HEAD~2, a branch"`
	RepoPath   string `json:"repoPath,omitempty" jsonschema:"the repository (default: the directory the server runs in)"`
}

// CommitOutput is get_commit_conversations' result.
type CommitOutput struct {
	Commit        CommitRef         `json:"commit"`
	Recorded      bool              `json:"recorded"`
	Conversations []ConversationRef `json:"conversations"`
	Hint          string            `json:"hint"`
	// OtherTools: what git-ai's notes, other tools' Agent Trace records and
	// trailers say of the commit, each writer with its source
	// (docs/interop.md).
	OtherTools []app.OtherWriter `json:"otherTools,omitempty"`
}

func (d *Deps) commitConversations(ctx context.Context, _ *mcp.CallToolRequest, in CommitInput) (*mcp.CallToolResult, CommitOutput, error) {
	var out CommitOutput
	if strings.TrimSpace(in.CommitHash) == "" {
		return nil, out, errors.New("commitHash is required (a revision such as HEAD or a hash)")
	}
	repo, h, err := d.commitIn(ctx, in.RepoPath, in.CommitHash)
	if err != nil {
		return nil, out, err
	}
	out.Commit.Hash = h
	if c, err := d.Store.GetCommit(ctx, h); err != nil {
		return nil, out, err
	} else if c != nil {
		out.Recorded = true
		out.Commit.Subject, out.Commit.Author, out.Commit.CommittedAt = c.Message, c.Author, c.CommittedAt.UTC().Format("2006-01-02T15:04:05Z")
	}
	linked, err := d.App.CommitLinks(ctx, d.Store, repo.TopLevel, []string{h})
	if err != nil {
		return nil, out, err
	}
	out.Conversations = []ConversationRef{}
	for _, lc := range linked[h] {
		out.Conversations = append(out.Conversations, convRef(lc))
	}
	out.Hint = hint(out.Conversations)
	out.OtherTools = d.App.OtherTools(ctx, d.Store, repo, h)
	return nil, out, nil
}

func hint(convs []ConversationRef) string {
	switch {
	case len(convs) == 0:
		return "No conversation is linked: this was probably written by hand, or before git-convo was installed."
	case convs[0].Evidence == app.LinkEvidenceOverlap && convs[0].AddedLines > 0:
		return "The linked conversations edited the same files but wrote none of these lines: a person probably wrote them."
	case convs[0].Confidence >= 0.7:
		return fmt.Sprintf("High confidence: read conversation %s with get_conversation for the reasoning behind it.", convs[0].ID)
	default:
		return "Low confidence links: the conversations were around this code but may not have written it."
	}
}

// ---- list_conversation_commits

// ListInput is list_conversation_commits' input.
type ListInput struct {
	ConversationID string `json:"conversationId,omitempty" jsonschema:"a conversation id or a unique prefix"`
	ProjectPath    string `json:"projectPath,omitempty" jsonschema:"only conversations of this repository"`
	FilePath       string `json:"filePath,omitempty" jsonschema:"only conversations that touched this file"`
	Limit          int    `json:"limit,omitempty" jsonschema:"at most this many conversations (default 20)"`
}

// ConversationCommits is a conversation with its linked commits.
type ConversationCommits struct {
	ConversationRef
	Commits []CommitRef `json:"commits"`
}

// ListOutput is list_conversation_commits' result.
type ListOutput struct {
	Conversations []ConversationCommits `json:"conversations"`
}

func (d *Deps) listConversationCommits(ctx context.Context, _ *mcp.CallToolRequest, in ListInput) (*mcp.CallToolResult, ListOutput, error) {
	out := ListOutput{Conversations: []ConversationCommits{}}
	limit := in.Limit
	if limit <= 0 || limit > 200 {
		limit = 20
	}
	var convs []app.Conversation
	var shared map[string][]app.LinkedConversation // teammates' notes
	dir := d.Dir                                   // the repository whose git-ai notes give commits
	switch {
	case in.ConversationID != "":
		ids, err := d.Store.ResolveConversationID(ctx, in.ConversationID)
		if err != nil {
			return nil, out, err
		}
		shared = d.App.SharedNotes(ctx, d.Dir).ByConversation()
		kept, refused := ids[:0], error(nil)
		for _, id := range ids {
			if err := d.allowConversation(ctx, id, false); err != nil {
				refused = err
			} else {
				kept = append(kept, id)
			}
		}
		ids = kept
		if len(ids) == 0 {
			links, err := app.FindConversation(shared, in.ConversationID)
			if refused != nil && (err != nil || links == nil) {
				return nil, out, refused
			}
			if err != nil || links == nil {
				return nil, out, fmt.Errorf("no conversation %q is known", in.ConversationID)
			}
			ids = []string{links[0].ConversationID}
		}
		for _, id := range ids {
			c, err := d.Store.GetConversation(ctx, id)
			if err != nil {
				return nil, out, err
			}
			if c == nil {
				c = &app.Conversation{ID: id}
			}
			convs = append(convs, *c)
		}
	default:
		f := app.ConversationFilter{Limit: limit}
		sc := d.scope(ctx)
		if in.ProjectPath != "" || in.FilePath != "" || !sc.all { // confined: this repository's only
			where := in.ProjectPath
			if in.ProjectPath == "" && filepath.IsAbs(in.FilePath) {
				if loc, ok := gitx.FindRepoForPath(in.FilePath); ok {
					where = loc.TopLevel
				}
			}
			repo, key, err := d.repoFor(ctx, where)
			if err != nil {
				return nil, out, err
			}
			f.RepoKey, f.Root = key, repo.TopLevel
			if in.FilePath != "" {
				rel, err := relPath(repo, d.Dir, in.FilePath)
				if err != nil {
					return nil, out, err
				}
				f.FileKey = app.PathKey(rel)
			}
		}
		list, err := d.Store.ListConversations(ctx, f)
		if err != nil {
			return nil, out, err
		}
		// The same merge, filters and limit as git convo conversations.
		dir = firstNonEmpty(f.Root, d.Dir)
		sh := d.App.SharedNotes(ctx, dir)
		shared = sh.ByConversation()
		for _, cs := range sh.AddConversations(list, f) {
			convs = append(convs, cs.Conversation)
		}
	}
	repo, sessions := d.App.Sessions(ctx, dir)
	for _, c := range convs {
		commits, err := d.Store.CommitsForConversation(ctx, c.ID)
		if err != nil {
			return nil, out, err
		}
		cc := ConversationCommits{ConversationRef: ConversationRef{ID: c.ID, Title: c.Title, Summary: c.Summary,
			FirstPrompt: c.FirstPrompt, LastActive: mstime.ISO(c.ActivityMs), Agent: c.Agent}, Commits: []CommitRef{}}
		for _, lc := range commits {
			cc.Commits = append(cc.Commits, CommitRef{Hash: lc.CommitHash, Subject: lc.Subject, Author: lc.Author,
				CommittedAt: mstime.ISO(lc.CommittedMs), Confidence: lc.Confidence, Status: lc.Status, Reason: lc.Reason, Evidence: lc.Evidence()})
		}
		cc.Origin = "local"
		if len(commits) == 0 && shared[c.ID] != nil {
			cc.Origin = "notes"
		}
		addSharedCommits(&cc, shared[c.ID])
		d.addSessionCommits(ctx, repo, sessions, shared[c.ID], &cc)
		out.Conversations = append(out.Conversations, cc)
	}
	return nil, out, nil
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// ---- get_file_context

// FileInput is get_file_context's input.
type FileInput struct {
	FilePath string   `json:"filePath" jsonschema:"the file, absolute or relative to the repository"`
	Keywords []string `json:"keywords,omitempty" jsonschema:"words to look for in the conversations (titles, summaries, prompts)"`
	Limit    int      `json:"limit,omitempty" jsonschema:"at most this many conversations and commits (default 10)"`
}

// KeywordMatch counts one keyword in a conversation.
type KeywordMatch struct {
	Keyword  string   `json:"keyword"`
	Count    int      `json:"count"`
	Excerpts []string `json:"excerpts"`
}

// FileConversation is a conversation in get_file_context's result.
type FileConversation struct {
	ConversationRef
	Relevance      string         `json:"relevance"` // direct | indirect
	Path           string         `json:"path"`
	KeywordMatches []KeywordMatch `json:"keywordMatches,omitempty"`
	Score          float64        `json:"score"`
}

// FileCommit is a commit in get_file_context's result.
type FileCommit struct {
	CommitRef
	Conversations []ConversationRef `json:"conversations"`
	// OtherTools: the writers other tools' records name in the file's
	// lines of the commit, and its trailers' agents (docs/interop.md).
	OtherTools []app.OtherWriter `json:"otherTools,omitempty"`
}

// FileOutput is get_file_context's result.
type FileOutput struct {
	FilePath      string             `json:"filePath"`
	Conversations []FileConversation `json:"conversations"`
	Commits       []FileCommit       `json:"commits"`
	Hints         []string           `json:"hints"`
	// OtherTools: every writer other tools' records name in the file's
	// lines, over its commits, that is no conversation git-convo knows.
	OtherTools []app.OtherWriter `json:"otherTools,omitempty"`
}

func (d *Deps) fileContext(ctx context.Context, _ *mcp.CallToolRequest, in FileInput) (*mcp.CallToolResult, FileOutput, error) {
	var out FileOutput
	// An absolute path names its own repository: the server may have been
	// started anywhere (a user-level mcp.json).
	where := ""
	if filepath.IsAbs(in.FilePath) {
		if loc, ok := gitx.FindRepoForPath(in.FilePath); ok {
			where = loc.TopLevel
		}
	}
	repo, key, err := d.repoFor(ctx, where)
	if err != nil {
		return nil, out, err
	}
	rel, err := relPath(repo, d.Dir, in.FilePath)
	if err != nil {
		return nil, out, err
	}
	limit := in.Limit
	if limit <= 0 || limit > 100 {
		limit = 10
	}
	out.FilePath = rel
	pk := app.PathKey(rel)
	convs, err := d.Store.ConversationsForFile(ctx, key, pk, limit*3)
	if err != nil {
		return nil, out, err
	}
	commits, err := d.Store.CommitsForFile(ctx, key, pk, limit)
	if err != nil {
		return nil, out, err
	}
	hashes := make([]string, len(commits))
	for i, c := range commits {
		hashes[i] = c.Hash
	}
	linked, err := d.Store.ConversationsForCommits(ctx, hashes)
	if err != nil {
		return nil, out, err
	}
	best := map[string]app.LinkedConversation{}
	out.Commits = []FileCommit{}
	for _, c := range commits {
		fc := FileCommit{CommitRef: CommitRef{Hash: c.Hash, Subject: c.Message, Author: c.Author,
			CommittedAt: c.CommittedAt.UTC().Format("2006-01-02T15:04:05Z")}, Conversations: []ConversationRef{}}
		for _, lc := range linked[c.Hash] {
			fc.Conversations = append(fc.Conversations, convRef(lc))
			if b, ok := best[lc.ConversationID]; !ok || lc.Confidence > b.Confidence {
				best[lc.ConversationID] = lc
			}
		}
		out.Commits = append(out.Commits, fc)
	}
	out.Conversations = []FileConversation{}
	for _, c := range convs {
		fc := FileConversation{ConversationRef: ConversationRef{ID: c.ID, Title: c.Title, Summary: c.Summary,
			FirstPrompt: c.FirstPrompt, LastActive: mstime.ISO(c.ActivityMs), Agent: c.Agent}, Relevance: "indirect", Path: c.Path}
		if c.Direct {
			fc.Relevance = "direct"
			fc.Score = 1
		}
		if lc, ok := best[c.ID]; ok {
			fc.Confidence, fc.Status, fc.Reason = lc.Confidence, lc.Status, lc.Reason
			fc.Score += lc.Confidence
		}
		if len(in.Keywords) > 0 {
			text := c.Title + "\n" + c.Summary + "\n" + c.FirstPrompt
			if full, err := d.Store.SearchText(ctx, c.ID); err == nil && full != "" {
				text = c.Title + "\n" + c.Summary + "\n" + full
			}
			fc.matchKeywords(text, in.Keywords)
		}
		fc.Origin = "local"
		out.Conversations = append(out.Conversations, fc)
	}
	d.addSharedFileContext(ctx, repo, rel, limit, in.Keywords, &out)
	d.addOtherFileContext(ctx, repo, rel, limit, &out)
	sort.SliceStable(out.Conversations, func(i, j int) bool { return out.Conversations[i].Score > out.Conversations[j].Score })
	if len(out.Conversations) > limit {
		out.Conversations = out.Conversations[:limit]
	}
	out.Hints = fileHints(out)
	return nil, out, nil
}

// matchKeywords counts each keyword in text, and scores the conversation.
func (fc *FileConversation) matchKeywords(text string, keywords []string) {
	for _, kw := range keywords {
		m := keywordMatch(text, kw)
		fc.KeywordMatches = append(fc.KeywordMatches, m)
		fc.Score += float64(min(m.Count, 10)) / 2
	}
}

func keywordMatch(text, kw string) KeywordMatch {
	m := KeywordMatch{Keyword: kw, Excerpts: []string{}}
	k := strings.TrimSpace(kw)
	for off := 0; ; {
		start, end := textmatch.Index(text, k, off)
		if start < 0 {
			break
		}
		m.Count++
		if len(m.Excerpts) < 3 {
			around, _, _ := textmatch.Around(text, start, end, 40)
			m.Excerpts = append(m.Excerpts, "…"+strings.Join(strings.Fields(around), " ")+"…")
		}
		off = end
	}
	return m
}

func fileHints(out FileOutput) []string {
	var hints []string
	if len(out.Conversations) == 0 && len(out.Commits) == 0 {
		return []string{"git-convo knows no conversation or recorded commit for this file."}
	}
	for _, c := range out.Conversations {
		if c.Relevance == "direct" && c.Confidence >= 0.7 {
			hints = append(hints, fmt.Sprintf("High confidence: read conversation %s (%q) with get_conversation before changing this file.", c.ID, c.Title))
			break
		}
	}
	if len(hints) == 0 && len(out.Conversations) > 0 {
		hints = append(hints, "Use get_conversation on the most relevant conversation, then grep the file it returns for the keywords.")
	}
	return hints
}

// ---- link_conversation_commit

// LinkInput is link_conversation_commit's input.
type LinkInput struct {
	ConversationID string `json:"conversationId" jsonschema:"the conversation id"`
	CommitHash     string `json:"commitHash" jsonschema:"a revision git accepts, or a full hash not known yet"`
	RepoPath       string `json:"repoPath,omitempty" jsonschema:"the repository (default: the directory the server runs in)"`
}

// LinkOutput is link_conversation_commit's result.
type LinkOutput struct {
	ConversationID string  `json:"conversationId"`
	CommitHash     string  `json:"commitHash"`
	Status         string  `json:"status"`
	Confidence     float64 `json:"confidence"`
}

func (d *Deps) linkConversationCommit(ctx context.Context, _ *mcp.CallToolRequest, in LinkInput) (*mcp.CallToolResult, LinkOutput, error) {
	var out LinkOutput
	if strings.TrimSpace(in.ConversationID) == "" || strings.TrimSpace(in.CommitHash) == "" {
		return nil, out, errors.New("conversationId and commitHash are both required")
	}
	// Validated exactly as `git convo link` validates its arguments: the
	// commit must exist in the repository, the id be known or look like one.
	repo, hash, err := d.commitIn(ctx, in.RepoPath, in.CommitHash)
	if err != nil {
		return nil, out, err
	}
	// The same link, with the same effects, as `git convo link`.
	id, err := d.App.Link(ctx, d.Store, app.LinkRequest{Repo: repo, Hash: hash, Conversation: in.ConversationID,
		Reason: "linked by an agent through MCP", Allow: func(ctx context.Context, id string) error { return d.allowConversation(ctx, id, true) }})
	if err != nil {
		return nil, out, err
	}
	return nil, LinkOutput{ConversationID: id, CommitHash: hash, Status: app.StatusManual, Confidence: 1}, nil
}
