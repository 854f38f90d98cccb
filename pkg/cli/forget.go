package cli

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/util/term"
)

func forgetCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "forget",
		Usage:     "delete what git-convo recorded about a conversation or a repository",
		UsageText: "git convo forget <conversation>...\ngit convo forget --repo",
		Description: `Deletes a conversation from links.sqlite: its metadata, prompts, responses, files,
the lines its edits wrote, its links (manual ones too) and unlinks. With --repo, deletes
the current repository's commits, links and unlinks, what conversations recorded in it, and
the conversations that belong to it alone. The text goes from every file git-convo keeps:
the database (overwritten, and its write-ahead log emptied), the MCP context file, the
spool and the error log. Cursor's own database is never touched. See docs/privacy.md.

Forgetting is local: shared notes already written (git convo share) still name the
conversation, git-convo's later rewrites of this clone's notes keep it (its text as the
current share settings share it: no prompt unless --prompts), and read commands show it as
a note gives it; doctor lists them. To withdraw it from this clone's note on a commit:
git convo unlink <conversation> <commit> (before forgetting or after; it takes it out of
the note at once, sharing on or off), or git notes --ref=convo remove <commit>, then
git convo push. A teammate's note is theirs to withdraw (docs/sharing.md).`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "repo", Usage: "forget the current repository"},
		},
		Action: func(c *cli.Context) error {
			ctx := c.Context
			if c.Bool("repo") == (c.NArg() > 0) {
				return usagef("usage: git convo forget <conversation>... | git convo forget --repo")
			}
			s, err := env.openStore(ctx, true)
			if err != nil {
				return err
			}
			defer s.Close()
			if c.Bool("repo") {
				repo, err := gitx.Open(ctx, ".", false)
				if err != nil {
					return err
				}
				f, err := env.app().ForgetRepository(ctx, s, repo)
				if err != nil {
					return err
				}
				fmt.Fprintf(env.Stdout, "forgot %s: %d commits, %d links, %d conversations\n", term.Line(repo.TopLevel), f.Commits, f.Links, f.Conversations)
				return env.app().WipeElsewhere(f.IDs)
			}
			for _, arg := range c.Args().Slice() {
				id, err := resolveConversation(ctx, s, arg, false)
				if err != nil {
					return err
				}
				f, err := env.app().ForgetConversation(ctx, s, id)
				if err != nil {
					return err
				}
				fmt.Fprintf(env.Stdout, "forgot conversation %s (%d links)\n", term.Line(id), f.Links)
			}
			return nil
		},
	}
}
