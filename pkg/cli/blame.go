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
	Conversations []blameConvJSON `json:"conversations"` // the commit's, the writer first
	Text          string          `json:"text"`
	Author        string          `json:"author"`
	Date          string          `json:"date"`
	OrigLine      int             `json:"origLine"`
	Path          string          `json:"path"`
	WrittenBy     *string         `json:"writtenBy"`   // the conversation that wrote the line, or null
	Prompt        *string         `json:"prompt"`      // the prompt that produced it, or null
	Attribution   string          `json:"attribution"` // agent | human | unknown
}

// Attributions of a line.
const (
	attrAgent   = "agent"   // an agent's edit wrote this exact line
	attrHuman   = "human"   // a person wrote it, in a commit an agent contributed to
	attrUnknown = "unknown" // no evidence either way
)

// lineAttribution says who wrote one blamed line: the conversation whose edit
// introduced it in its commit, or a person (the commit had an agent's
// conversation but not this line), or nobody we know of.
func lineAttribution(l gitx.BlameLine, writers map[string]map[string]map[int]store.LineWriter, linked []store.LinkedConversation) (store.LineWriter, string) {
	if w, ok := writers[l.Commit][l.Filename][l.OrigLine]; ok {
		return w, attrAgent
	}
	if len(linked) > 0 {
		return store.LineWriter{}, attrHuman
	}
	return store.LineWriter{}, attrUnknown
}

// writerFirst orders a commit's conversations with the line's writer first.
func writerFirst(lcs []store.LinkedConversation, writer string) []store.LinkedConversation {
	if writer == "" || len(lcs) < 2 || lcs[0].ConversationID == writer {
		return lcs
	}
	out := make([]store.LinkedConversation, 0, len(lcs))
	for _, lc := range lcs {
		if lc.ConversationID == writer {
			out = append(out, lc)
		}
	}
	for _, lc := range lcs {
		if lc.ConversationID != writer {
			out = append(out, lc)
		}
	}
	return out
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
	writers, recorded, err := rc.store.CommitLineWriters(ctx, hashes)
	if err != nil {
		return err
	}
	rc.mergeShared(ctx, hashes, linked)
	rc.mergeSharedLines(ctx, hashes, writers, recorded)
	rc.startPager()
	defer rc.stopPager()
	if rc.json {
		prompts := map[store.LineWriter]*string{}
		for _, l := range lines {
			w, attr := lineAttribution(l, writers, linked[l.Commit])
			obj := blameLineJSON{Line: l.Line, Commit: l.Commit, Conversations: []blameConvJSON{}, Text: l.Text,
				Author: l.Author, Date: isoMs(l.AuthorTime.UnixMilli()), OrigLine: l.OrigLine, Path: l.Filename, Attribution: attr}
			if attr == attrAgent {
				id := w.ConversationID
				obj.WrittenBy = &id
				p, ok := prompts[w]
				if !ok {
					if text, _ := rc.store.PromptText(ctx, w.ConversationID, w.GenerationID); text != "" {
						p = &text
					}
					prompts[w] = p
				}
				obj.Prompt = p
			}
			for _, lc := range writerFirst(linked[l.Commit], w.ConversationID) {
				obj.Conversations = append(obj.Conversations, blameConvJSON{ID: lc.ConversationID,
					Title: lc.Conv.Title, Confidence: lc.Confidence, Status: lc.Status})
			}
			if err := rc.io.WriteJSON(obj); err != nil {
				return rc.ioErr(err)
			}
		}
		return nil
	}
	return rc.ioErr(printBlame(rc, lines, linked, writers))
}

func printBlame(rc *readContext, lines []gitx.BlameLine, linked map[string][]store.LinkedConversation, writers map[string]map[string]map[int]store.LineWriter) error {
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
		// The column names the conversation that wrote the line; "(by hand)"
		// marks a person's line in a commit an agent contributed to; lines
		// with no evidence stay blank. Commits recorded before line evidence
		// existed fall back to their strongest conversation.
		col := strings.Repeat(" ", blameTitleWidth)
		lcs := linked[l.Commit]
		w, attr := lineAttribution(l, writers, lcs)
		switch {
		case attr == attrAgent:
			title := w.ConversationID
			for _, lc := range lcs {
				if lc.ConversationID == w.ConversationID {
					title = displayTitle(lc.Conv, lc.ConversationID)
				}
			}
			col = p.Key(w.ConversationID, padRight(oneLine(title, blameTitleWidth), blameTitleWidth))
		case attr == attrHuman && len(writers[l.Commit]) > 0:
			col = p.Dim(padRight("(by hand)", blameTitleWidth))
		case len(lcs) > 0:
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
