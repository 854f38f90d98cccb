package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/hooks/templates"
	"github.com/git-convo/git-convo/pkg/cursor"
	"github.com/git-convo/git-convo/pkg/githooks"
	"github.com/git-convo/git-convo/pkg/gitx"
	"github.com/git-convo/git-convo/pkg/queue"
)

// gitHooks are the git hooks git-convo installs.
func gitHooks() []string { return templates.Hooks() }

func installCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "install",
		Usage:     "install the git hooks in this repository and Cursor's agent hooks",
		UsageText: "git convo install [--cursor=user|project|none] [--claude=user|project|none] [--mcp] [--force] [--shared]",
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

Cursor: by default the user-level ~/.cursor/hooks.json gets git-convo's capture command
with this binary's absolute path, so one install serves every repository. --cursor=project
writes <repo>/.cursor/hooks.json with a portable command instead, for teams that commit it;
--cursor=none leaves Cursor alone. Other tools' entries are kept. The choice is remembered
in the repository's git config (convo.cursor) for doctor and the next install.

Claude Code: when ~/.claude (or CLAUDE_CONFIG_DIR) exists, ~/.claude/settings.json gets
"git-convo capture --agent claude" for SessionStart, UserPromptSubmit, PostToolUse (edit
tools and Bash), Stop, SubagentStop and SessionEnd, with timeouts, async where Claude need
not wait. --claude=project writes <repo>/.claude/settings.json instead; --claude=none skips
it. Every other key and hook is kept; uninstall restores the file byte for byte when
nothing else changed it.

--mcp also registers git-convo's MCP server ("git convo mcp") in Cursor's mcp.json, at the
same level (user or project), so the agent can ask why code exists.

--force writes into a hooks directory that a hook manager owns (husky), or one inside the
work tree (core.hooksPath=.githooks): its files are usually committed, and the block names
this machine's paths.

--shared writes into a hooks directory that core.hooksPath in your global or system git
config makes every repository use; without it install refuses and says so.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "cursor", Usage: "where to install Cursor's hooks: user, project or none (default: the last choice, git config " + keyCursor + ", else user)"},
			&cli.BoolFlag{Name: "mcp", Usage: "also register the MCP server in Cursor's mcp.json"},
			&cli.BoolFlag{Name: "force", Usage: "write into a hooks directory a hook manager owns, or one inside the work tree"},
			&cli.BoolFlag{Name: "shared", Usage: "write into hooks that a global core.hooksPath makes every repository use"},
			claudeInstallFlag(),
		},
		Action: func(c *cli.Context) error {
			ctx := c.Context
			repo, err := gitx.Open(ctx, ".", false)
			if err != nil {
				return err
			}
			mode, err := cursorMode(ctx, repo, c)
			if err != nil {
				return err
			}
			if err := installGitHooks(ctx, env, repo, c.Bool("force"), c.Bool("shared")); err != nil {
				return err
			}
			if err := setupSharing(ctx, env, repo); err != nil {
				return err
			}
			if c.IsSet("cursor") { // remembered for doctor and the next install
				if err := repo.SetConfig(ctx, keyCursor, mode); err != nil {
					return err
				}
			} else if mode == "none" {
				fmt.Fprintf(env.Stdout, "Cursor hooks: not installed, as chosen before (git config %s = none; --cursor=user installs them)\n", keyCursor)
			}
			if mode != "none" {
				path, command, err := cursorHooksTarget(env, repo, mode)
				if err != nil {
					return err
				}
				res, err := cursor.InstallHooksJSON(path, command, cursor.DefaultHookSpecs(), configBackupDir(env))
				if err != nil {
					return err
				}
				fmt.Fprintf(env.Stdout, "%s: Cursor hooks %s\n", path, res)
				if c.Bool("mcp") {
					mcpPath := filepath.Join(filepath.Dir(path), "mcp.json")
					res, err := cursor.InstallMCPJSON(mcpPath, command, configBackupDir(env))
					if err != nil {
						return err
					}
					fmt.Fprintf(env.Stdout, "%s: MCP server %s\n", mcpPath, res)
				}
			} else if c.Bool("mcp") {
				return usagef("--mcp needs Cursor: use --cursor=user or --cursor=project")
			}
			claudeHooks, err := installClaude(env, repo, c.String("claude"))
			if err != nil {
				return err
			}
			printInstallSummary(env.Stdout, mode != "none", claudeHooks)
			if p, ok := env.prototypePath(); ok && prototypeImportedAt(ctx, env, p) == "" {
				fmt.Fprintf(env.Stdout, "\nThe prototype's links database is at %s:\n  git convo import --from-prototype   # copy its conversations and links into git-convo\n", p)
			}
			return nil
		},
	}
}

// keyCursor remembers install's --cursor choice in the repository's config.
const keyCursor = "convo.cursor"

// cursorMode is --cursor, else the choice remembered in convo.cursor, else
// user.
func cursorMode(ctx context.Context, repo *gitx.Repo, c *cli.Context) (string, error) {
	mode, from := c.String("cursor"), "--cursor="
	if !c.IsSet("cursor") {
		mode, from = "user", "git config "+keyCursor+" = "
		if v, ok, err := repo.Config(ctx, keyCursor); err == nil && ok {
			mode = v
		}
	}
	if mode != "user" && mode != "project" && mode != "none" {
		return "", usagef("%s%s: want user, project or none", from, mode)
	}
	return mode, nil
}

func installGitHooks(ctx context.Context, env *Env, repo *gitx.Repo, force, shared bool) error {
	loc, err := githooks.Locate(ctx, repo.TopLevel)
	if err != nil {
		return err
	}
	if loc.Manager != "" && !force {
		return fmt.Errorf("%s", loc.Advice())
	}
	if err := sharedHooksCheck(loc, shared, "install"); err != nil {
		return err
	}
	if loc.InWorkTree && loc.Manager == "" && !force {
		return fmt.Errorf("the hooks directory %s (core.hooksPath) is inside the work tree, so its files are usually committed "+
			"and shared with your team; git-convo's block names this machine's binary and queue, which do not belong there. "+
			"Run `git convo install --force` to write it anyway, and do not commit it", loc.Dir)
	}
	// The commit hooks append to the queue with the shell alone: its
	// directory must exist, and its path goes into the block.
	qdir, err := env.queueDir()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(qdir, 0o700); err != nil {
		return fmt.Errorf("creating the commit queue: %w", err)
	}
	sharing := sharingOn(ctx, repo)
	for _, name := range gitHooks() {
		path := filepath.Join(loc.Dir, name)
		if loc.ManagerFile(name) != "" {
			path = loc.ManagerFile(name)
		}
		if name == "pre-push" && !sharing {
			// A push in a repository that does not share starts nothing:
			// the block comes with `share on` (an older install's goes).
			if res, err := githooks.UninstallFile(path); err == nil && !strings.HasPrefix(res, "not present") {
				fmt.Fprintf(env.Stdout, "%s: %s (sharing is off)\n", path, res)
			}
			continue
		}
		block, err := templates.Render(name, env.Executable, filepath.Join(qdir, queue.FileName))
		if err != nil {
			return err
		}
		res, err := githooks.InstallFile(path, block)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		fmt.Fprintf(env.Stdout, "%s: %s\n", path, res)
	}
	return nil
}

// sharingOn reports convo.share for this repository (a config read error is
// "off": the pre-push block then waits for `share on`).
func sharingOn(ctx context.Context, repo *gitx.Repo) bool {
	s, err := notesGit(repo).Settings(ctx)
	return err == nil && s.On
}

// sharedHooksCheck refuses to touch hooks every repository shares (a
// core.hooksPath in the global or system config) unless asked to.
func sharedHooksCheck(loc githooks.Location, shared bool, verb string) error {
	if !loc.Shared() || shared {
		return nil
	}
	what := "adds git-convo to"
	if verb == "uninstall" {
		what = "removes git-convo from"
	}
	return fmt.Errorf("the hooks directory %s is shared: core.hooksPath is set in your %s git config, so every repository "+
		"uses it and %s %s every one of them. Run `git convo %s --shared` if that is what you want", loc.Dir, loc.Scope, verb, what, verb)
}

// cursorHooksTarget is the hooks.json to write and the command to put in it:
// the absolute binary path at user level (GUI-launched Cursor may lack the
// user's PATH), a portable command at project level (the file is shared).
func cursorHooksTarget(env *Env, repo *gitx.Repo, mode string) (path, command string, err error) {
	if mode == "project" {
		return filepath.Join(repo.TopLevel, ".cursor", "hooks.json"), "git-convo", nil
	}
	dir, err := env.userCursorDir()
	return filepath.Join(dir, "hooks.json"), env.Executable, err
}

func uninstallCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "uninstall",
		Usage:     "remove git-convo's hooks from this repository",
		UsageText: "git convo uninstall [--cursor] [--claude] [--shared]",
		Description: `Removes git-convo's block from the post-commit, post-merge, post-rewrite and pre-push hooks, leaving your
own hook content exactly as it was (a hook file with nothing else left is deleted), and
git-convo's entries from this repository's .cursor/hooks.json and .claude/settings.json.
--cursor also removes them from the user-level ~/.cursor/hooks.json, which serves every
repository; --claude from the user-level ~/.claude/settings.json (restored byte for byte
when nothing else changed it since the install; so is Cursor's mcp.json).

It also takes out the sharing settings (convo.share, convo.sharePrompts,
convo.shareRemote, convo.shareWriter: a later install never shares unasked), the notes
fetch refspecs and notes.rewriteRef, and the files git-convo keeps in .git
(git-convo-share.json, git-convo-fetched.json, git-convo-derived.jsonl); it records the
commits the hooks queued first. It ends by naming what stays and how to remove it: the
user-level agent hooks and MCP server (without --cursor or --claude), the links recorded in
links.sqlite (see "git convo forget") and the notes, which are your team's too.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "cursor", Usage: "also remove the user-level Cursor hooks (~/.cursor/hooks.json)"},
			claudeUninstallFlag(),
			&cli.BoolFlag{Name: "shared", Usage: "remove the block from hooks a global core.hooksPath makes every repository use"},
		},
		Action: func(c *cli.Context) error {
			ctx := c.Context
			repo, err := gitx.Open(ctx, ".", false)
			if err != nil {
				return err
			}
			loc, err := githooks.Locate(ctx, repo.TopLevel)
			if err != nil {
				return err
			}
			if err := sharedHooksCheck(loc, c.Bool("shared"), "uninstall"); err != nil {
				return err
			}
			for _, name := range gitHooks() {
				path := filepath.Join(loc.Dir, name)
				if loc.ManagerFile(name) != "" {
					path = loc.ManagerFile(name)
				}
				res, err := githooks.UninstallFile(path)
				if err != nil {
					return fmt.Errorf("%s: %w", path, err)
				}
				fmt.Fprintf(env.Stdout, "%s: %s\n", path, res)
			}
			teardownSharing(ctx, env, repo)
			if err := uninstallClaude(env, repo, c.Bool("claude")); err != nil {
				return err
			}
			targets := []string{filepath.Join(repo.TopLevel, ".cursor", "hooks.json")}
			if c.Bool("cursor") {
				dir, err := env.userCursorDir()
				if err != nil {
					return err
				}
				targets = append(targets, filepath.Join(dir, "hooks.json"))
			}
			for _, path := range targets {
				res, err := cursor.UninstallHooksJSON(path, configBackupDir(env))
				if err != nil {
					return err
				}
				fmt.Fprintf(env.Stdout, "%s: Cursor hooks %s\n", path, res)
				mcpPath := filepath.Join(filepath.Dir(path), "mcp.json")
				if res, err := cursor.UninstallMCPJSON(mcpPath, configBackupDir(env)); err != nil {
					return err
				} else if res != "not present" {
					fmt.Fprintf(env.Stdout, "%s: MCP server %s\n", mcpPath, res)
				}
			}
			tidyAfterUninstall(ctx, env, repo, c.Bool("cursor"), c.Bool("claude"))
			return nil
		},
	}
}
