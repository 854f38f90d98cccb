package mcpserver

import (
	"context"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-convo/git-convo/pkg/app"
	"github.com/git-convo/git-convo/pkg/app/prsummary"
	"github.com/git-convo/git-convo/pkg/git/gitx"
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
	var args []string
	if in.Range != "" {
		args = []string{in.Range}
	}
	home, _ := os.UserHomeDir()
	if d.Getenv != nil && d.Getenv("HOME") != "" {
		home = d.Getenv("HOME")
	}
	s, err := d.App.Summary(ctx, d.Store, app.SummaryRequest{Repo: repo, Args: args, Home: home})
	if err != nil {
		return nil, nil, err
	}
	return nil, s, nil
}
