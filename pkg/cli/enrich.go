package cli

import (
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/util/term"
)

func enrichCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "enrich",
		Usage:     "read conversations' titles, summaries and files from their agent",
		UsageText: "git convo enrich [--delay <duration>] [<conversation>...]",
		Description: `Reads each conversation from its agent (` + agentStores(env) + `)
and re-links the commits it touched. With no conversation, it enriches the conversations active
in the last day that are stale, of the agents that may write a conversation after its hook
fired. capture runs it in the background after the end of such an agent's turn, when the
agent may not have flushed the last rows yet.`,
		Flags: []cli.Flag{
			&cli.DurationFlag{Name: "delay", Usage: "wait this long first (the background retry after stop)"},
		},
		Action: func(c *cli.Context) error {
			ctx := c.Context
			if d := c.Duration("delay"); d > 0 {
				detach()
				time.Sleep(d)
			}
			failures, err := env.app().Enrich(ctx, c.Args().Slice(), c.Duration("delay") > 0)
			if err != nil {
				return err
			}
			if len(failures) == 0 || c.Duration("delay") > 0 {
				return nil // the background retry: failures went to the log
			}
			for _, f := range failures {
				fmt.Fprintf(env.Stderr, "git-convo: %s: %s\n", term.Line(f.ID), term.Line(f.Err.Error()))
			}
			return exitError{ExitError}
		},
	}
}
