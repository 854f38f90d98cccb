package cli

import (
	"errors"
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/agents/source"
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
			s, err := env.openStore(ctx, false)
			if err != nil {
				return err
			}
			defer s.Close()
			ids := c.Args().Slice()
			if len(ids) == 0 {
				if ids, err = s.StaleEnrichment(ctx, env.Agents.LateWriters(env.Getenv), env.Now().Add(-24*time.Hour).UnixMilli(), 50); err != nil {
					return err
				}
			}
			w := env.writer(ctx, s)
			var failed int
			for _, id := range ids {
				agent := ""
				if conv, _ := s.GetConversation(ctx, id); conv != nil {
					agent = conv.Agent
				}
				src, err := env.Agents.For(agent, env.Getenv)
				if err == nil {
					err = w.EnrichAndRelink(ctx, src, id, source.Hint{})
				}
				if errors.Is(err, source.ErrNoStore) && c.Duration("delay") > 0 {
					continue // the hooks' read again: no store is no fault (doctor says so)
				}
				if err != nil {
					failed++
					env.log().Printf("enrich", "%s: %v", id, err)
					if c.Duration("delay") == 0 {
						fmt.Fprintf(env.Stderr, "git-convo: %s: %s\n", term.Line(id), term.Line(err.Error()))
					}
				}
			}
			if failed > 0 && c.Duration("delay") == 0 {
				return exitError{ExitError}
			}
			return nil
		},
	}
}
