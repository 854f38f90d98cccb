// Package mcpserver serves git-convo's links to AI agents over the Model
// Context Protocol, so an agent about to change a file can first read why it
// is the way it is: which conversations and commits produced it.
package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-convo/git-convo/pkg/agents"
	"github.com/git-convo/git-convo/pkg/app"
	"github.com/git-convo/git-convo/pkg/attribution/link"
	"github.com/git-convo/git-convo/pkg/git/gitx"
)

// Deps is what the tools work with.
type Deps struct {
	// App is git-convo's application (pkg/app): every answer the CLI gives
	// too comes from it.
	App    *app.App
	Store  *app.Store
	Dir    string              // the directory the server was started in (its repository)
	Getenv func(string) string // for the agents' stores and the cache directory
	// Agents read conversations (get_conversation).
	Agents  *agents.Registry
	Now     func() time.Time
	Version string
	// Drain records the commits git's hooks queued; every tool call runs it
	// first, so answers include the latest commits (nil: nothing to do).
	Drain func(context.Context)
	// AllRepositories lets the tools answer for every repository the store
	// knows, not only the server's own and its work trees (scope.go).
	AllRepositories bool
}

// New returns the MCP server with git-convo's tools.
func New(d *Deps) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "git-convo", Version: d.Version}, &mcp.ServerOptions{
		Instructions: "git-convo links git commits to the AI conversations that produced them. Before changing a file, " +
			"call get_file_context with its path to learn which conversations and commits shaped it and why; " +
			"then get_conversation to read one in full.",
	})
	addTool(s, &mcp.Tool{Name: "get_file_context", Description: "Conversations and commits that touched a file, and why. " +
		"Use it before changing a file. relevance is 'direct' (the conversation edited or read this file) or 'indirect' " +
		"(another file in the same directory). With keywords, each conversation gets keyword match counts with excerpts, " +
		"and results are ranked by them."}, d.fileContext)
	addTool(s, &mcp.Tool{Name: "get_commit_conversations", Description: "The conversations behind a commit: title, " +
		"confidence, whether linked automatically or by hand, the files and lines they account for, and why. " +
		"commitHash takes any revision git accepts (HEAD, a short hash, a branch)."}, d.commitConversations)
	addTool(s, &mcp.Tool{Name: "list_conversation_commits", Description: "Conversations with their linked commits and " +
		"confidence, newest first; filter by conversationId (or a unique prefix), projectPath (a repository) or filePath."}, d.listConversationCommits)
	addTool(s, &mcp.Tool{Name: "get_conversation", Description: "Writes a whole conversation (every message, the " +
		"agent's thinking, tool steps and code) to a Markdown file and returns its path and size. Read the file with your " +
		"own file tools (grep for keywords, read the relevant sections) rather than all at once."}, d.getConversation)
	addTool(s, &mcp.Tool{Name: "link_conversation_commit", Description: "Links a conversation to a commit by hand " +
		"(status manual, confidence 1.0), for example when you know a commit came from this conversation. Works when " +
		"only one side is known to git-convo yet."}, d.linkConversationCommit)
	addTool(s, &mcp.Tool{Name: "pr_summary", Description: "The conversations behind a range of commits (a pull request), as " +
		"git convo pr --format json gives it: added lines written by agents' edits, in recorded commits from no recorded edit, " +
		"and in commits with no record (never a person's); the commits no record covers; per file and per hunk the " +
		"conversation, the prompt, the link's confidence and evidence."}, d.prSummary)
	s.AddReceivingMiddleware(d.scopeMiddleware)
	if d.Drain != nil {
		s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
			return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
				if method == "tools/call" {
					d.Drain(ctx)
				}
				return next(ctx, method, req)
			}
		})
	}
	return s
}

// repoFor opens the repository at dir (the server's own by default) and
// returns it with its key; one outside the call's scope is refused.
func (d *Deps) repoFor(ctx context.Context, dir string) (*gitx.Repo, string, error) {
	if dir == "" {
		dir = d.Dir
	}
	repo, err := gitx.Open(ctx, dir, false)
	if err != nil {
		return nil, "", fmt.Errorf("%s is not in a git repository: %v", dir, err)
	}
	key := app.RepoKey(repo.CommonDir)
	if err := d.scope(ctx).allowRepo(key, repo.TopLevel); err != nil {
		return nil, "", err
	}
	return repo, key, nil
}

// commitIn resolves rev, as git does, to a commit of the repository at dir
// (repoFor), returned with it.
func (d *Deps) commitIn(ctx context.Context, dir, rev string) (*gitx.Repo, string, error) {
	repo, _, err := d.repoFor(ctx, dir)
	if err != nil {
		return nil, "", err
	}
	hashes, err := repo.RevParse(ctx, rev)
	if err != nil {
		return nil, "", err
	}
	return repo, hashes[0], nil
}

// relPath makes a file path (absolute, or relative to the repository's top
// level or the server's directory) repository-relative.
func relPath(repo *gitx.Repo, base, p string) (string, error) {
	if p == "" {
		return "", errors.New("filePath is required")
	}
	p = filepath.FromSlash(p)
	if !filepath.IsAbs(p) {
		if _, err := filepath.Rel(repo.TopLevel, filepath.Join(repo.TopLevel, p)); err == nil && !strings.HasPrefix(p, "..") {
			return link.NormPath(filepath.ToSlash(p)), nil
		}
		p = filepath.Join(base, p)
	}
	rel, err := filepath.Rel(repo.TopLevel, p)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "", fmt.Errorf("%s is outside the repository %s", p, repo.TopLevel)
	}
	return link.NormPath(filepath.ToSlash(rel)), nil
}
