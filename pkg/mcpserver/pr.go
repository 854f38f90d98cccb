package mcpserver

import (
	"context"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-convo/git-convo/pkg/app/prsummary"
	"github.com/git-convo/git-convo/pkg/gitx"
	"github.com/git-convo/git-convo/pkg/notes"
	"github.com/git-convo/git-convo/pkg/source"
	"github.com/git-convo/git-convo/pkg/store"
)

// PRInput is pr_summary's input.
type PRInput struct {
	Range    string `json:"range,omitempty" jsonschema:"<base>..<head> or <base> (default: the current branch against its upstream, else origin/HEAD)"`
	RepoPath string `json:"repoPath,omitempty" jsonschema:"the repository (default: the directory the server runs in)"`
}

// prSummary is `git convo pr --format json`: the same summary, from the
// application layer.
func (d *Deps) prSummary(ctx context.Context, _ *mcp.CallToolRequest, in PRInput) (*mcp.CallToolResult, *prsummary.Summary, error) {
	repo, _, err := d.repoFor(ctx, in.RepoPath)
	if err != nil {
		return nil, nil, err
	}
	if repo.TopLevel != "" {
		if repo, err = gitx.Open(ctx, repo.TopLevel, false); err != nil {
			return nil, nil, err
		}
	}
	rd := notes.NewReader(ctx, repo.TopLevel)
	defer rd.Close()
	var args []string
	if in.Range != "" {
		args = []string{in.Range}
	}
	home, _ := os.UserHomeDir()
	if d.Getenv != nil && d.Getenv("HOME") != "" {
		home = d.Getenv("HOME")
	}
	pin := prsummary.Input{Repo: repo, Store: d.Store, Notes: rd, Args: args, Home: home}
	if d.Agents != nil && d.Getenv != nil {
		pin.Transcript = func(ctx context.Context, conv store.Conversation) (*source.Conversation, error) {
			return d.Agents.Conversation(ctx, d.Getenv, conv)
		}
	}
	s, err := prsummary.Summarize(ctx, pin)
	if err != nil {
		return nil, nil, err
	}
	return nil, s, nil
}
