package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/gitx"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/term"
)

// Log collects commits in batches, one links query each: the first batch is
// small so the first lines appear at once on a huge history, later ones large
// so a long log costs few queries.
const (
	logFirstBatch = 32
	logBatch      = 128
)

func logCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "log",
		Usage:     "git log, with each commit's conversations under it",
		UsageText: "git convo log [--only-linked] [--json] [<git log options>] [<revision range>] [[--] <path>...]",
		Description: `Shows the commits "git log" would show, one line each, with the conversations linked
to each commit beneath it. Every option git-convo does not know is handed to git log:
-n, --since, --author, --grep, ranges (main..topic) and pathspecs all work.

  --only-linked   only commits that have a conversation
  --json          JSON Lines: one show-shaped object per commit
  --color=<when>, --no-pager as for every read command

Output streams: on a long history the first commits appear before git log has finished.`,
		SkipFlagParsing: true,
		Action:          gitLogStyle("log", env, runLog),
	}
}

// gitLogStyle is the action of a command that takes git log's arguments
// (log, stats): git-convo's own options are taken out, the rest go to git.
func gitLogStyle(name string, env *Env, run func(context.Context, *Env, logOptions, []string) error) cli.ActionFunc {
	return func(c *cli.Context) error {
		opts, gitArgs, err := parseLogArgs(c.Args().Slice())
		if err != nil {
			return err
		}
		if opts.help {
			return cli.ShowCommandHelp(c, name)
		}
		return run(c.Context, env, opts, gitArgs)
	}
}

type logOptions struct {
	json, onlyLinked, noPager, help bool
	color                           string
}

// parseLogArgs takes git-convo's own options out of args; the rest, in order,
// go to git log.
func parseLogArgs(args []string) (logOptions, []string, error) {
	opts := logOptions{color: "auto"}
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		switch {
		case a == "--json":
			opts.json = true
		case a == "--only-linked":
			opts.onlyLinked = true
		case a == "--no-pager":
			opts.noPager = true
		case a == "-h" || a == "--help":
			opts.help = true
		case a == "--color":
			opts.color = "always"
		case strings.HasPrefix(a, "--color="):
			opts.color = strings.TrimPrefix(a, "--color=")
		case a == "--no-color":
			opts.color = "never"
		default:
			rest = append(rest, a)
		}
	}
	if opts.color != "auto" && opts.color != "always" && opts.color != "never" {
		return opts, nil, usagef("--color=%s: want auto, always or never", opts.color)
	}
	return opts, rest, nil
}

func runLog(ctx context.Context, env *Env, opts logOptions, gitArgs []string) error {
	rc, err := newReadContextWith(ctx, env, opts.color, opts.json, !opts.noPager)
	if err != nil {
		return err
	}
	defer rc.Close()
	rc.startPager()
	defer rc.stopPager()

	var batch []gitx.Commit
	var writeErr error
	flush := func() bool {
		if len(batch) == 0 {
			return true
		}
		hashes := make([]string, len(batch))
		for i, c := range batch {
			hashes[i] = c.Hash
		}
		if err := rc.ready(); err != nil {
			writeErr = err
			return false
		}
		linked, err := rc.store.ConversationsForCommits(ctx, hashes)
		if err != nil {
			writeErr = err
			return false
		}
		rc.mergeShared(ctx, hashes, linked)
		for _, gc := range batch {
			lcs := linked[gc.Hash]
			if opts.onlyLinked && len(lcs) == 0 {
				continue
			}
			if rc.json {
				writeErr = rc.io.WriteJSON(showObject(gc, nil, lcs))
			} else {
				writeErr = printLogEntry(rc, gc, lcs)
			}
			if writeErr != nil {
				return false
			}
		}
		batch = batch[:0]
		writeErr = rc.io.Flush() // stream: each batch reaches the reader now
		return writeErr == nil
	}
	limit := logFirstBatch
	err = rc.repo.StreamLog(ctx, gitArgs, gitx.LogOptions{}, func(c gitx.Commit) bool {
		batch = append(batch, c)
		if len(batch) >= limit {
			limit = logBatch
			return flush()
		}
		return true
	})
	if err == nil && writeErr == nil {
		flush()
	}
	if writeErr != nil {
		return rc.ioErr(writeErr)
	}
	return err
}

func printLogEntry(rc *readContext, gc gitx.Commit, lcs []store.LinkedConversation) error {
	p := rc.io.Palette()
	_, err := fmt.Fprintf(rc.io.Out, "%s %s %s\n", p.Hash(shortHash(gc.Hash)[:7]), gc.Subject,
		p.Dim("("+gc.AuthorName+", "+term.RelativeTime(gc.AuthorTime, rc.env.Now())+")"))
	if err != nil {
		return err
	}
	for _, lc := range lcs {
		if _, err := fmt.Fprintf(rc.io.Out, "        %s %s %s\n", p.Key(lc.ConversationID, "●"),
			displayTitle(lc.Conv, lc.ConversationID), p.Dim(fmt.Sprintf("(%.0f%% %s)", lc.Confidence*100, lc.Status))); err != nil {
			return err
		}
	}
	return nil
}
