package cli

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/util/term"
)

func captureCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "capture",
		Usage:     "record one agent hook event (JSON on stdin); the agents' hooks run this",
		UsageText: "git convo capture [--event <name>] [--agent <agent>] < payload.json",
		Description: `Reads one hook payload of an agent from standard input and records the conversation.
The agents:

` + agentParagraphs(env, func(w source.Words) string { return w.Capture }) + `

An event inside the agent's turn (an edit, a prompt, a tool step) is kept in the spool
beside links.sqlite and recorded, before anything else, when the turn ends, when a commit
is recorded or when any command reads (GIT_CONVO_SYNC=1: at once); the hook opens no
database.

It always exits 0 and prints only the reply the agent waits for, so a problem in git-convo
can never block the agent. Problems go to stderr as one line and to the log that "git convo
doctor" shows; an event kept in the spool only because the database was busy goes to the
log alone. An --agent no agent answers to is such a problem: the payload is not read.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "event", Usage: "the hook event, overriding the payload's hook_event_name"},
			&cli.StringFlag{Name: "agent", Value: env.Agents.Default(), Usage: "which agent's hooks called this: " + agentList(env)},
		},
		Action: func(c *cli.Context) error {
			src, err := env.Agents.For(c.String("agent"), env.Getenv)
			if err != nil {
				// A hook never fails its agent: the misconfigured hook is
				// in the log doctor shows, and the exit is 0.
				env.log().Printf("capture", "%v", err)
				fmt.Fprintf(env.Stderr, "git-convo: %s\n", term.Line(err.Error()))
				return nil
			}
			env.app().Capture(c.Context, src, c.String("event"), env.Stdin, env.Stdout)
			return nil
		},
	}
}
