package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/gitx"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/term"
)

func showCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "show the conversations behind commits",
		UsageText: "git convo show [--full] [--json] [<rev>...]",
		Description: `Prints each commit's header, like "git show --no-patch", and under it every linked
conversation: title, confidence, auto or manual, the files it matched, why it was linked,
Cursor's summary, the first prompt, the conversation id and its time span.

<rev> is anything "git rev-parse" accepts (default HEAD). --full adds each conversation's
transcript, read from Cursor's database. --json prints one object per commit:
  {"commit": {"hash", ...}, "conversations": [{"id", "title", "confidence", "status", "matchedFiles", ...}]}`,
		Flags: append(readFlags(),
			&cli.BoolFlag{Name: "full", Usage: "add each conversation's transcript"},
		),
		Action: func(c *cli.Context) error {
			ctx := c.Context
			revs := c.Args().Slice()
			if len(revs) == 0 {
				revs = []string{"HEAD"}
			}
			rc, err := newReadContext(ctx, env, c)
			if err != nil {
				return err
			}
			defer rc.Close()
			hashes, err := rc.repo.RevParse(ctx, revs...)
			if err != nil {
				return err
			}
			commits, err := rc.repo.LogCommits(ctx, append([]string{"--no-walk=unsorted"}, hashes...), gitx.LogOptions{Body: true})
			if err != nil {
				return err
			}
			if err := rc.ready(); err != nil {
				return err
			}
			linked, err := rc.store.ConversationsForCommits(ctx, hashes)
			if err != nil {
				return err
			}
			rc.mergeShared(ctx, hashes, linked)
			rc.startPager()
			defer rc.stopPager()
			for i, gc := range commits {
				recorded, _ := rc.store.GetCommit(ctx, gc.Hash)
				if rc.json {
					if err := rc.io.WriteJSON(showObject(gc, recorded, linked[gc.Hash])); err != nil {
						return rc.ioErr(err)
					}
					continue
				}
				if i > 0 {
					fmt.Fprintln(rc.io.Out)
				}
				rc.printCommitHeader(gc)
				rc.printConversations(ctx, linked[gc.Hash], c.Bool("full"))
			}
			return nil
		},
	}
}

func showObject(gc gitx.Commit, recorded *store.Commit, lcs []store.LinkedConversation) showJSON {
	cj := commitJSON{
		Hash:        gc.Hash,
		ShortHash:   shortHash(gc.Hash),
		Author:      gc.Author,
		AuthorName:  gc.AuthorName,
		AuthorEmail: gc.AuthorEmail,
		Date:        gc.AuthorTime.Format(time.RFC3339),
		Subject:     gc.Subject,
		Parents:     gc.Parents,
	}
	if cj.Parents == nil {
		cj.Parents = []string{}
	}
	if recorded != nil {
		cj.Recorded = true
		cj.Branch = recorded.Branch
		cj.Files = recorded.Files
		cj.RewrittenTo = recorded.RewrittenTo
	}
	return showJSON{Commit: cj, Conversations: toConversationsJSON(lcs)}
}

// printCommitHeader prints a commit the way `git show --no-patch` does.
func (rc *readContext) printCommitHeader(gc gitx.Commit) {
	p := rc.io.Palette()
	w := rc.io.Out
	fmt.Fprintln(w, p.Hash("commit "+gc.Hash))
	if len(gc.Parents) > 1 {
		short := make([]string, len(gc.Parents))
		for i, h := range gc.Parents {
			short[i] = shortHash(h)[:7]
		}
		fmt.Fprintf(w, "Merge: %s\n", strings.Join(short, " "))
	}
	fmt.Fprintf(w, "Author: %s\n", gc.Author)
	fmt.Fprintf(w, "Date:   %s\n\n", gc.AuthorTime.Format("Mon Jan 2 15:04:05 2006 -0700"))
	body := gc.Subject
	if gc.Body != "" {
		body += "\n\n" + gc.Body
	}
	for _, line := range strings.Split(strings.TrimRight(body, "\n"), "\n") {
		fmt.Fprintf(w, "    %s\n", line)
	}
}

// printConversations prints the conversations under a commit header.
func (rc *readContext) printConversations(ctx context.Context, lcs []store.LinkedConversation, full bool) {
	p := rc.io.Palette()
	w := rc.io.Out
	fmt.Fprintln(w)
	if len(lcs) == 0 {
		fmt.Fprintln(w, p.Dim("    No linked conversation. (git convo link <conversation> <rev> links one by hand.)"))
		return
	}
	for _, lc := range lcs {
		printConversationBlock(w, p, rc.env.Now(), lc)
		if full {
			rc.printTranscript(ctx, w, lc.ConversationID)
		}
	}
}

func printConversationBlock(w io.Writer, p *term.Palette, now time.Time, lc store.LinkedConversation) {
	title := displayTitle(lc.Conv, lc.ConversationID)
	fmt.Fprintf(w, "    %s %s  %s\n", p.Key(lc.ConversationID, "●"), p.Bold(title),
		p.Dim(fmt.Sprintf("(%.0f%% %s)", lc.Confidence*100, lc.Status)))
	span := ""
	if lc.Conv.FirstSeenMs > 0 {
		start, end := time.UnixMilli(lc.Conv.FirstSeenMs), time.UnixMilli(lc.Conv.ActivityMs)
		span = fmt.Sprintf("  %s – %s (%s)", start.Local().Format("Jan 2 15:04"), end.Local().Format("Jan 2 15:04"),
			term.RelativeTime(end, now))
	}
	fmt.Fprintf(w, "      %s %s%s\n", p.Dim("id"), lc.ConversationID, p.Dim(span))
	if len(lc.MatchedFiles) > 0 {
		fmt.Fprintf(w, "      %s %s\n", p.Dim("files"), strings.Join(lc.MatchedFiles, ", "))
	}
	if lc.AddedLines > 0 && lc.WrittenLines == 0 {
		// With lines written, the reason already says how many.
		fmt.Fprintf(w, "      %s none of the %d added lines was written in this conversation (only its files match)\n", p.Dim("lines"), lc.AddedLines)
	}
	if lc.Reason != "" {
		fmt.Fprintf(w, "      %s %s\n", p.Dim("why"), lc.Reason)
	}
	if lc.Conv.Summary != "" {
		fmt.Fprintf(w, "      %s %s\n", p.Dim("summary"), oneLine(lc.Conv.Summary, 200))
	}
	if lc.Conv.FirstPrompt != "" && lc.Conv.FirstPrompt != lc.Conv.Title {
		fmt.Fprintf(w, "      %s %q\n", p.Dim("prompt"), oneLine(lc.Conv.FirstPrompt, 200))
	}
}

// oneLine folds whitespace and truncates to n runes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
