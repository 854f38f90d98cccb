package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/gitx"
	"github.com/git-convo/git-convo/pkg/store"
)

// blameTitleWidth is the width of the conversation column.
const blameTitleWidth = 24

func blameCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "blame",
		Usage:     "git blame, with the conversation behind each line's commit",
		UsageText: "git convo blame [-L <n,m>]... [--json] [<rev>] [--] <file>",
		Description: `Runs "git blame --porcelain" (git's own blame: exact and fast) and adds a column
naming the conversation behind each line's commit, one color per conversation. Lines from
commits with no conversation keep a blank column.

--json prints JSON Lines, one per line of the file:
  {"line", "commit", "conversations": [{"id", "title", "confidence"}], "text", ...}`,
		Flags: append(readFlags(),
			&cli.StringSliceFlag{Name: "L", Usage: "only the lines n,m (as git blame -L; may repeat)"},
		),
		Action: func(c *cli.Context) error {
			args := c.Args().Slice()
			var rev, file string
			switch {
			case len(args) == 1:
				file = args[0]
			case len(args) == 2 && args[0] == "--":
				file = args[1]
			case len(args) == 2:
				rev, file = args[0], args[1]
			case len(args) == 3 && args[1] == "--":
				rev, file = args[0], args[2]
			default:
				return usagef("usage: git convo blame [-L <n,m>] [<rev>] [--] <file>")
			}
			return runBlame(c.Context, env, c, rev, file, c.StringSlice("L"))
		},
	}
}

type blameConvJSON struct {
	ID         string  `json:"id"`
	Title      string  `json:"title"`
	Confidence float64 `json:"confidence"`
	Status     string  `json:"status"`
}

type blameLineJSON struct {
	Line          int             `json:"line"`
	Commit        string          `json:"commit"`
	Conversations []blameConvJSON `json:"conversations"`
	Text          string          `json:"text"`
	Author        string          `json:"author"`
	Date          string          `json:"date"`
	OrigLine      int             `json:"origLine"`
	Path          string          `json:"path"`
}

func runBlame(ctx context.Context, env *Env, c *cli.Context, rev, file string, ranges []string) error {
	rc, err := newReadContext(ctx, env, c)
	if err != nil {
		return err
	}
	defer rc.Close()
	lines, err := rc.repo.Blame(ctx, gitx.BlameOptions{Rev: rev, Path: file, Ranges: ranges})
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	var hashes []string
	for _, l := range lines {
		if !seen[l.Commit] {
			seen[l.Commit] = true
			hashes = append(hashes, l.Commit)
		}
	}
	if err := rc.ready(); err != nil {
		return err
	}
	linked, err := rc.store.ConversationsForCommits(ctx, hashes)
	if err != nil {
		return err
	}
	rc.startPager()
	defer rc.stopPager()
	if rc.json {
		for _, l := range lines {
			obj := blameLineJSON{Line: l.Line, Commit: l.Commit, Conversations: []blameConvJSON{}, Text: l.Text,
				Author: l.Author, Date: isoMs(l.AuthorTime.UnixMilli()), OrigLine: l.OrigLine, Path: l.Filename}
			for _, lc := range linked[l.Commit] {
				obj.Conversations = append(obj.Conversations, blameConvJSON{ID: lc.ConversationID,
					Title: lc.Conv.Title, Confidence: lc.Confidence, Status: lc.Status})
			}
			if err := rc.io.WriteJSON(obj); err != nil {
				return rc.ioErr(err)
			}
		}
		return nil
	}
	return rc.ioErr(printBlame(rc, lines, linked))
}

func printBlame(rc *readContext, lines []gitx.BlameLine, linked map[string][]store.LinkedConversation) error {
	p := rc.io.Palette()
	authorWidth, numWidth := 0, len(fmt.Sprint(len(lines)))
	for _, l := range lines {
		authorWidth = max(authorWidth, len([]rune(l.Author)))
		numWidth = max(numWidth, len(fmt.Sprint(l.Line)))
	}
	authorWidth = min(authorWidth, 20)
	var b strings.Builder
	for _, l := range lines {
		b.Reset()
		hash := l.Commit
		if len(hash) > 8 {
			hash = hash[:8]
		}
		if l.Boundary {
			hash = "^" + hash[:7]
		}
		b.WriteString(p.Hash(hash))
		b.WriteByte(' ')
		col := strings.Repeat(" ", blameTitleWidth)
		if lcs := linked[l.Commit]; len(lcs) > 0 {
			title := padRight(oneLine(displayTitle(lcs[0].Conv, lcs[0].ConversationID), blameTitleWidth), blameTitleWidth)
			col = p.Key(lcs[0].ConversationID, title)
		}
		b.WriteString(col)
		fmt.Fprintf(&b, " (%s %s %*d) %s\n", padRight(oneLine(l.Author, authorWidth), authorWidth),
			l.AuthorTime.Format("2006-01-02"), numWidth, l.Line, l.Text)
		if _, err := rc.io.Out.Write([]byte(b.String())); err != nil {
			return err
		}
	}
	return nil
}

func padRight(s string, n int) string {
	if w := len([]rune(s)); w < n {
		return s + strings.Repeat(" ", n-w)
	}
	return s
}
