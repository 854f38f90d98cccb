package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/util/term"
)

func traceCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "trace",
		Usage:     "print commits' Agent Trace records, for other tools",
		UsageText: "git convo trace [--format agent-trace|git-ai] [--output <dir>] [--prompts] [<rev>...]",
		Description: `Prints each commit's Agent Trace record (agent-trace.dev), one JSON object per line:
what this clone knows, merged with what teammates shared in notes, whether or not sharing
is on. A range (A..B) or several revisions give several records; commits with no linked
conversation give none. --output writes one <commit>.json file per commit into a directory.
Free text is redacted as in shared notes (docs/sharing.md).

--format git-ai prints the same attribution as a git-ai authorship log (schema
authorship/3.0.0, docs/interop.md): one revision, or one <commit>.txt per commit with
--output. Only the lines an agent's edits wrote are written; nothing is written to
refs/notes/ai.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write one file per commit into this directory"},
			&cli.BoolFlag{Name: "prompts", Usage: "include first prompts (redacted), as sharing with --prompts does"},
			&cli.StringFlag{Name: "format", Value: "agent-trace", Usage: "agent-trace (one JSON record a line) or git-ai (an authorship log)"},
		},
		Action: func(c *cli.Context) error {
			ctx := c.Context
			format := c.String("format")
			if format != "agent-trace" && format != "git-ai" {
				return usagef("--format %s: want agent-trace or git-ai", term.Line(format))
			}
			t, err := env.app().Trace(ctx, ".", c.Args().Slice(), c.Bool("prompts"))
			if err != nil {
				return err
			}
			dir := c.String("output")
			if dir != "" {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					return err
				}
			}
			if format == "git-ai" && dir == "" && t.Commits > 1 {
				return usagef("--format git-ai prints one commit's authorship log: give one revision, or --output <dir>")
			}
			enc := jsonEncoder(env.Stdout)
			n := 0
			for _, tr := range t.Records {
				h, r := tr.Hash, tr.Record
				n++
				if format == "git-ai" {
					b, err := tr.GitAI()
					if err != nil {
						return err
					}
					if dir == "" {
						_, err = env.Stdout.Write(b)
					} else {
						err = os.WriteFile(filepath.Join(dir, h+".txt"), b, 0o644)
					}
					if err != nil {
						return err
					}
					continue
				}
				if dir == "" {
					if err := enc.Encode(r); err != nil {
						return err
					}
					continue
				}
				b, err := json.MarshalIndent(r, "", "  ")
				if err != nil {
					return err
				}
				if err := os.WriteFile(filepath.Join(dir, h+".json"), append(term.JSON(b), '\n'), 0o644); err != nil {
					return err
				}
			}
			if dir != "" {
				fmt.Fprintf(env.Stdout, "%d record%s written to %s\n", n, plural(n), dir)
			}
			return nil
		},
	}
}
