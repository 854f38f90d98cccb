package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/util/platform"
)

func mcpCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "mcp",
		UsageText: "git convo mcp [--all-repositories]",
		Usage:     "serve git-convo's links to AI agents (Model Context Protocol over stdio)",
		Description: `Runs an MCP server on standard input and output, for Cursor or any MCP client. Its tools
let an agent ask why code exists before changing it: get_file_context, get_commit_conversations,
list_conversation_commits, get_conversation and link_conversation_commit. The server answers
for the repository it is started in and its work trees only (started outside any, for the
client's workspace roots): a conversation, file, commit or repository path of another
repository is refused. --all-repositories answers for every repository git-convo knows.
"git convo install --mcp" registers it in Cursor's mcp.json. See docs/mcp.md.

The server is the git-convo-mcp binary installed beside git-convo.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "all-repositories", Usage: "answer for every repository, not only this one and its work trees"},
		},
		Action: func(c *cli.Context) error {
			bin, err := mcpBinary(env)
			if err != nil {
				return err
			}
			args := []string{bin}
			if c.Bool("all-repositories") {
				args = append(args, "--all-repositories")
			}
			return execReplace(bin, append(args, c.Args().Slice()...), os.Environ())
		},
	}
}

// mcpBinary finds git-convo-mcp beside this binary, else on PATH.
func mcpBinary(env *Env) (string, error) {
	if env.Executable != "" {
		p := filepath.Join(filepath.Dir(env.Executable), platform.ExeName(runtime.GOOS, "git-convo-mcp"))
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	if p, err := exec.LookPath("git-convo-mcp"); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("git-convo-mcp is not installed beside %s or on PATH: run scripts/install.sh again", env.Executable)
}
