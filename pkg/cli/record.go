package cli

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/app"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/util/term"
)

func recordCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "record",
		Usage:     "record commits and link them to conversations; the post-commit hook runs this",
		UsageText: "git convo record [-v] [<rev>...]\ngit convo record --hook=post-commit\ngit convo record --hook=post-rewrite --rewrite-type=<amend|rebase> < old-new-pairs",
		Description: `Reads each commit (default HEAD) with go-git: hash, branch, author, subject, time and
the files changed against its first parent. It stores it in links.sqlite and links it to
the conversations that edited those files recently (see docs/linking.md).

With --hook the command was started by a git hook: it never prints and never fails; errors
go to the log that "git convo doctor" shows. GIT_CONVO=0 turns the hooks off.
post-rewrite (after amend and rebase) carries every link to the rewritten commits.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "hook", Usage: "started by this git hook (post-commit, post-merge, post-rewrite), or drain: record the queued commits"},
			&cli.StringFlag{Name: "rewrite-type", Usage: "post-rewrite's argument: amend or rebase"},
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "explain every candidate conversation's score"},
		},
		Action: func(c *cli.Context) error {
			if env.Getenv("GIT_CONVO") == "0" {
				return nil
			}
			hook := c.String("hook")
			if hook == "" {
				beforeRead(c.Context, env, app.ReadDrainWait)
				return recordRevs(c.Context, env, c.Args().Slice(), c.Bool("verbose"))
			}
			if env.Getenv("GIT_CONVO_SYNC") != "1" {
				detach()
			}
			if hook == "drain" {
				// Started by a capture or the MCP server, in any
				// directory: the queue says which work trees to read.
				beforeRead(c.Context, env, app.BackgroundDrainWait)
				return nil
			}
			env.app().RecordHook(c.Context, hook, ".", env.Stdin)
			return nil // a hook never fails the commit
		},
	}
}

func recordRevs(ctx context.Context, env *Env, revs []string, verbose bool) error {
	if len(revs) == 0 {
		revs = []string{"HEAD"}
	}
	r, err := env.app().NewRecorder(ctx, ".", false)
	if err != nil {
		return err
	}
	defer r.Store.Close()
	for _, h := range revs {
		if h != "HEAD" && !gitx.IsFullHash(h) {
			resolved, err := r.Repo.RevParse(ctx, h)
			if err != nil {
				return err
			}
			h = resolved[0]
		}
		c, decisions, err := r.Record(ctx, h, app.LinkSourceRelink)
		if err != nil {
			return err
		}
		linked := 0
		for _, d := range decisions {
			if d.Linked {
				linked++
			}
		}
		fmt.Fprintf(env.Stdout, "recorded %s %s: %d conversation%s linked\n", gitx.ShortHash(c.Hash), term.Line(c.Subject), linked, plural(linked))
		if verbose {
			for _, d := range decisions {
				verdict := "linked"
				if !d.Linked {
					verdict = "not linked: " + d.Skipped
				}
				fmt.Fprintf(env.Stdout, "  %s score %.2f (%s) %s\n", term.Line(d.ConversationID), d.Score, term.Line(d.Reason), verdict)
			}
		}
	}
	return nil
}

// shortHash is gitx.ShortHash, kept under this name for share.go's callers
// only (another change owns that file); new code calls gitx.ShortHash.
func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
