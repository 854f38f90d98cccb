package cli

import "github.com/urfave/cli/v2"

func captureCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "capture",
		Usage:     "record one agent hook event (JSON on stdin); the agents' hooks run this",
		UsageText: "git convo capture [--event <name>] [--agent claude] < payload.json",
		Description: `Reads one Cursor hook payload from standard input and records the conversation:
its workspace roots and model, the user's prompts, the files it edited, the
agent's final responses and a git commit the agent ran in its terminal
(afterShellExecution). On "stop" it also reads the conversation's title and
summary from Cursor's state.vscdb (read-only) and re-links recent commits.

An event inside the agent's turn (an edit, a prompt, a tool step) is kept in the spool
beside links.sqlite and recorded, before anything else, when the turn ends, when a commit
is recorded or when any command reads (GIT_CONVO_SYNC=1: at once); the hook opens no
database.

It always exits 0 and prints Cursor's reply ({} or {"continue":true}), so a
problem in git-convo can never block the agent. Problems go to stderr as one
line and to the log that "git convo doctor" shows; an event kept in the spool only
because the database was busy goes to the log alone.

With --agent claude it reads Claude Code's hook payloads instead (prompts, the lines
Edit, Write, MultiEdit and NotebookEdit added, a git commit run through Bash, and the
session's transcript at Stop and SessionEnd). It prints nothing on stdout, which Claude
Code would add to the model's context, and always exits 0.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "event", Usage: "the hook event, overriding the payload's hook_event_name"},
			&cli.StringFlag{Name: "agent", Value: "cursor", Usage: "which agent's hooks called this: cursor, or claude (Claude Code's settings.json: silent on stdout)"},
		},
		Action: func(c *cli.Context) error {
			// Any other name is Cursor's, as it always was.
			env.hooks().Capture(c.Context, sourceFor(env, c.String("agent")), c.String("event"), env.Stdin, env.Stdout)
			return nil
		},
	}
}
