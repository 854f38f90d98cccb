package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sort"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/app"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/util/term"
)

func importCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "import",
		Usage:     "bring existing " + agentDisplays(env, " and ") + " history in and link it to past commits",
		UsageText: "git convo import [--since <date>] [--dry-run] [--limit <n>] [<revision range>]\n   git convo import --from-prototype [--dry-run] [<path>]",
		Description: `Finds the conversations of this repository (any of its work trees) in each agent's store, in
this order:

` + agentParagraphs(env, func(w source.Words) string { return w.Import }) + `

It records each with its edited files and their times, then links them to the commits of a range (default: the last
90 days of HEAD) with the usual scorer; these links have source "import".

An import never duplicates, lowers or removes a link, so running it again changes nothing.
Ctrl-C leaves the database consistent; run it again to finish. --dry-run prints what would
be linked and writes nothing.

--from-prototype copies the conversations, commits and links of a links.sqlite written by
the Node prototype (cursor-chat-history-mcp) into git-convo's database, keeping each link's
confidence and status; the prototype's file is only read. <path> defaults to the prototype's
own location (~/.local/share/CursorChatHistory/links.sqlite on Linux,
~/Library/Application Support/CursorChatHistory/ on macOS, %APPDATA%\CursorChatHistory\ on
Windows). Running it again adds nothing.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "since", Value: "90 days ago", Usage: "commits since this date, as git log --since reads it (with no revision range)"},
			&cli.BoolFlag{Name: "dry-run", Usage: "print what would be linked; write nothing"},
			&cli.IntFlag{Name: "limit", Usage: "import at most this many conversations in this run, over all the agents (0: all)"},
			&cli.BoolFlag{Name: "from-prototype", Usage: "copy a links.sqlite of the Node prototype (cursor-chat-history-mcp) into ours"},
		},
		Action: func(c *cli.Context) error {
			ctx, stop := signal.NotifyContext(c.Context, os.Interrupt)
			defer stop()
			if c.Bool("from-prototype") {
				if c.NArg() > 1 {
					return usagef("import --from-prototype takes one path")
				}
				return runImportPrototype(ctx, env, c.Args().First(), c.Bool("dry-run"))
			}
			err := runImport(ctx, env, importOptions{since: c.String("since"), dryRun: c.Bool("dry-run"),
				limit: c.Int("limit"), revs: c.Args().Slice()})
			if err != nil && ctx.Err() != nil {
				// Ctrl-C between the steps that report their progress.
				return app.ImportInterrupted(context.Canceled, "part of the work")
			}
			return err
		},
	}
}

type importOptions struct {
	since  string
	dryRun bool
	limit  int
	revs   []string
}

func runImport(ctx context.Context, env *Env, o importOptions) error {
	progress := newProgress(env)
	sum, err := env.app().Import(ctx, ".", app.ImportRequest{DryRun: o.dryRun, Limit: o.limit,
		Range: func() ([]string, error) {
			if len(o.revs) > 0 {
				return o.revs, nil
			}
			since, err := parseSince(ctx, o.since, env.Now())
			if err != nil {
				return nil, usagef("--since=%s: %v", o.since, err)
			}
			if since.Unix() > 0 { // git log reads no date before 1970: every commit is after it
				return []string{"--since=" + since.Format(time.RFC3339), "HEAD"}, nil
			}
			return []string{"HEAD"}, nil
		},
		Progress: app.ImportProgress{
			Listing: func(agent, where string) {
				progress.say("finding this repository's %s conversations in %s", agent, where)
			},
			Step: func(agent string, i, n int) {
				if i > 0 {
					progress.step(agent, i, n)
				} else {
					progress.done()
				}
			},
			Listed:  progress.done,
			Commits: func(i, n int) { progress.step("commits", i, n) },
		}})
	if err != nil {
		return err
	}
	progress.done()
	printImportSummary(env, o, sum)
	return nil
}

func printImportSummary(env *Env, o importOptions, sum app.Imported) {
	w := env.Stdout
	verb := "made"
	if o.dryRun {
		verb = "that would be made"
		for _, l := range sum.New {
			fmt.Fprintln(w, term.Line(fmt.Sprintf("%s %s  ←  %s (%.0f%%: %s)", gitx.ShortHash(l.Hash)[:7], oneLine(l.Subject, 50),
				l.ConversationID, l.Score*100, l.Reason)))
		}
		if len(sum.New) > 0 {
			fmt.Fprintln(w)
		}
	}
	var sources []string
	for v, n := range sum.Via {
		sources = append(sources, fmt.Sprintf("%s %d", v, n))
	}
	sort.Strings(sources)
	imported := "imported now"
	if o.dryRun {
		imported = "would import"
	}
	fmt.Fprintf(w, "conversations found: %d (%s); %s: %d\n", sum.Conversations, strings.Join(sources, ", "), imported, sum.Imported)
	fmt.Fprintf(w, "commits scanned: %d, sharing files with them: %d\n", sum.Scanned, sum.Relevant)
	fmt.Fprintf(w, "links %s: %d new\n", verb, len(sum.New))
	if o.dryRun {
		fmt.Fprintln(w, "(dry run: nothing was written)")
	}
}

// progress draws a progress line on stderr when it is a terminal; quiet otherwise.
type progress struct {
	env  *Env
	last time.Time
	line bool
}

func newProgress(env *Env) *progress { return &progress{env: env} }

func (p *progress) say(format string, args ...any) {
	if p.env.StderrTTY {
		fmt.Fprintf(p.env.Stderr, format+"\n", args...)
	}
}

func (p *progress) step(what string, i, n int) {
	if !p.env.StderrTTY || (time.Since(p.last) < 100*time.Millisecond && i != n) {
		return
	}
	p.last = time.Now()
	width := 30
	filled := width * i / max(n, 1)
	fmt.Fprintf(p.env.Stderr, "\r%-13s [%s%s] %d/%d", what, strings.Repeat("#", filled), strings.Repeat(".", width-filled), i, n)
	p.line = true
}

func (p *progress) done() {
	if p.line {
		fmt.Fprintln(p.env.Stderr)
		p.line = false
	}
}

func runImportPrototype(ctx context.Context, env *Env, path string, dryRun bool) error {
	n, abs, err := env.app().ImportPrototype(ctx, ".", path, dryRun)
	if err != nil {
		return err
	}
	verb := "imported"
	if dryRun {
		verb = "would import"
	}
	fmt.Fprintf(env.Stdout, "%s from %s: %d conversations (%d new), %d commits (%d new), %d links (%d new or made manual)\n",
		verb, abs, n.Conversations, n.NewConversations, n.Commits, n.NewCommits, n.Links, n.NewLinks)
	if dryRun {
		fmt.Fprintln(env.Stdout, "(dry run: nothing was written)")
	}
	return nil
}

// prototypeChecks is doctor's line about the prototype's database: there,
// and imported or not yet.
func prototypeChecks(ctx context.Context, env *Env) []check {
	p, ok := env.app().PrototypePath()
	if !ok {
		return nil
	}
	if at := env.app().PrototypeImportedAt(ctx, p); at != "" {
		return []check{{Name: "prototype db", OK: true, Detail: p + ": imported " + at}}
	}
	return []check{{Name: "prototype db", OK: true, Warn: true,
		Detail: p + ": the prototype's links (cursor-chat-history-mcp) are not in git-convo's database yet",
		Fix:    "git convo import --from-prototype"}}
}
