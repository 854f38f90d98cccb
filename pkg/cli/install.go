package cli

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/app"
	"github.com/git-convo/git-convo/pkg/git/gitx"
)

func installCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "install",
		Usage:     "install the git hooks in this repository and the agents' hooks",
		UsageText: "git convo install " + agentFlagsUsage(env, "=user|project|none") + " [--mcp] [--force] [--shared]",
		Description: `Adds a block between "# >>> git-convo >>>" and "# <<< git-convo <<<" right after the
shebang of the post-commit, post-merge and post-rewrite hooks, and of pre-push while this
repository shares (in the hooks
directory git uses: core.hooksPath and linked worktrees are honoured). Your own hook content
is kept byte for byte; a second install changes nothing; "git convo uninstall" takes the
block out again. It also makes a plain "git fetch" bring teammates' shared notes into
refs/notes/remotes/<remote>/convo and amend and rebase carry notes (notes.rewriteRef); in a
fresh clone, where git clone fetched no notes, it fetches the sharing remote's once
(bounded, never failing the install; when it cannot, show says so). The
pre-push block comes with "git convo share on" and goes with "share off", so a push in a
repository that does not share starts nothing (docs/sharing.md).

Each agent's hooks go where --<agent> says: user (its user-level configuration, with this
binary's absolute path: one install serves every repository), project (the repository's
configuration, with a portable command, for teams that commit it) or none. A choice given
is remembered in the repository's git config (convo.<agent>) for doctor and the next
install. Other tools' entries are kept.

` + agentParagraphs(env, func(w source.Words) string { return w.Install }) + `

--force writes into a hooks directory that a hook manager owns (husky), or one inside the
work tree (core.hooksPath=.githooks): its files are usually committed, and the block names
this machine's paths.

--shared writes into a hooks directory that core.hooksPath in your global or system git
config makes every repository use; without it install refuses and says so.`,
		Flags: append(agentInstallFlags(env),
			&cli.BoolFlag{Name: "mcp", Usage: "also register the MCP server with the agents that take one"},
			&cli.BoolFlag{Name: "force", Usage: "write into a hooks directory a hook manager owns, or one inside the work tree"},
			&cli.BoolFlag{Name: "shared", Usage: "write into hooks that a global core.hooksPath makes every repository use"},
		),
		Action: func(c *cli.Context) error {
			ctx := c.Context
			repo, err := gitx.Open(ctx, ".", false)
			if err != nil {
				return err
			}
			scopes, err := agentScopes(ctx, env, repo, c)
			if err != nil {
				return err
			}
			if err := installGitHooks(ctx, env, repo, c.Bool("force"), c.Bool("shared")); err != nil {
				return err
			}
			if err := setupSharing(ctx, env, repo); err != nil {
				return err
			}
			installed, err := installAgentHooks(ctx, env, repo, scopes, c.Bool("mcp"))
			if err != nil {
				return err
			}
			printInstallSummary(env.Stdout, installed, env.Agents.Agents())
			if p, ok := env.app().PrototypePath(); ok && env.app().PrototypeImportedAt(ctx, p) == "" {
				fmt.Fprintf(env.Stdout, "\nThe prototype's links database is at %s:\n  git convo import --from-prototype   # copy its conversations and links into git-convo\n", p)
			}
			return nil
		},
	}
}

func installGitHooks(ctx context.Context, env *Env, repo *gitx.Repo, force, shared bool) error {
	done, err := env.app().InstallGitHooks(ctx, repo, env.Executable, force, shared)
	printHooksWritten(env, done)
	return err
}

// printHooksWritten says what install or uninstall did to each hook file.
func printHooksWritten(env *Env, done []app.HookWritten) {
	for _, h := range done {
		if h.SharingOff {
			fmt.Fprintf(env.Stdout, "%s: %s (sharing is off)\n", h.Path, h.Result)
		} else {
			fmt.Fprintf(env.Stdout, "%s: %s\n", h.Path, h.Result)
		}
	}
}

func uninstallCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "uninstall",
		Usage:     "remove git-convo's hooks from this repository",
		UsageText: "git convo uninstall " + agentFlagsUsage(env, "") + " [--shared]",
		Description: `Removes git-convo's block from the post-commit, post-merge, post-rewrite and pre-push hooks, leaving your
own hook content exactly as it was (a hook file with nothing else left is deleted), and
git-convo's entries from every agent's configuration in this repository; --<agent> also
from that agent's user-level configuration, which serves every repository.
` + agentParagraphs(env, func(w source.Words) string { return w.Uninstall }) + `
It also takes out the sharing settings (convo.share, convo.sharePrompts,
convo.shareRemote, convo.shareWriter: a later install never shares unasked), the notes
fetch refspecs (the fetch of git-ai's refs/notes/ai too, where install added it; never one
you wrote) and notes.rewriteRef, and the files git-convo keeps in .git
(git-convo-share.json, git-convo-fetched.json, git-convo-derived.jsonl,
git-convo-rewrites, git-convo-note-hashes, git-convo-notes-links); it records the
commits the hooks queued first. It ends by naming what stays and how to remove it: the
user-level agent hooks and MCP server (without --<agent>), the links recorded in
links.sqlite (see "git convo forget") and the notes, which are your team's too.`,
		Flags: append(agentUninstallFlags(env),
			&cli.BoolFlag{Name: "shared", Usage: "remove the block from hooks a global core.hooksPath makes every repository use"},
		),
		Action: func(c *cli.Context) error {
			ctx := c.Context
			repo, err := gitx.Open(ctx, ".", false)
			if err != nil {
				return err
			}
			done, err := env.app().UninstallGitHooks(ctx, repo, c.Bool("shared"))
			printHooksWritten(env, done)
			if err != nil {
				return err
			}
			teardownSharing(ctx, env, repo)
			if err := uninstallAgentHooks(env, repo, c); err != nil {
				return err
			}
			tidyAfterUninstall(ctx, env, repo, func(agent string) bool { return c.Bool(agent) })
			return nil
		},
	}
}
