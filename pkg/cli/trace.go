package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/interop"
	"github.com/git-convo/git-convo/pkg/share/notes"
	"github.com/git-convo/git-convo/pkg/share/trace"
	"github.com/git-convo/git-convo/pkg/util/term"
	"github.com/git-convo/git-convo/pkg/write/hookrun"
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
			g, repo, err := shareRepo(ctx)
			if err != nil {
				return err
			}
			args := c.Args().Slice()
			if len(args) == 0 {
				args = []string{"HEAD"}
			}
			walk := false
			for _, a := range args {
				walk = walk || strings.Contains(a, "..") || strings.HasPrefix(a, "^")
			}
			if !walk {
				if args, err = repo.RevParse(ctx, args...); err != nil {
					return err
				}
				args = append([]string{"--no-walk=unsorted"}, args...)
			}
			var hashes []string
			if err := repo.StreamLog(ctx, args, gitx.LogOptions{}, func(gc gitx.Commit) bool {
				hashes = append(hashes, gc.Hash)
				return true
			}); err != nil {
				return err
			}
			settings, err := g.Settings(ctx)
			if err != nil {
				return err
			}
			settings.Prompts = settings.Prompts || c.Bool("prompts")
			recs := map[string]trace.Record{}
			beforeRead(ctx, env, hookrun.ReadDrainWait) // the spooled events and queued commits first
			if s, err := env.openStore(ctx, true); err == nil {
				o, err := g.Options(ctx, settings, Version)
				if err == nil {
					recs, err = g.Build(ctx, s, hashes, o)
				}
				s.Close()
				if err != nil {
					return err
				}
			}
			rd := notes.NewReader(ctx, g.Dir)
			defer rd.Close()
			shared, err := rd.ClippedRecords(ctx, hashes) // a note's ranges, cut to the lines each commit added
			if err != nil {
				return err
			}
			dir := c.String("output")
			if dir != "" {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					return err
				}
			}
			if format == "git-ai" && dir == "" && len(hashes) > 1 {
				return usagef("--format git-ai prints one commit's authorship log: give one revision, or --output <dir>")
			}
			enc := jsonEncoder(env.Stdout)
			n := 0
			for _, h := range hashes {
				r, ok := recs[h]
				if sr, has := shared[h]; has {
					r, ok = mergeOr(r, ok, sr), true
				}
				if !ok {
					continue
				}
				n++
				if format == "git-ai" {
					b, err := interop.ToGitAI(h, r)
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

// mergeOr merges a shared record into the local one, if there is one.
func mergeOr(local trace.Record, ok bool, shared trace.Record) trace.Record {
	if !ok {
		return shared
	}
	r := trace.Merge(local, shared)
	r.VCS = local.VCS
	return r
}
