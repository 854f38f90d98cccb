package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/app"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/util/term"
)

func showCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "show the conversations behind commits",
		UsageText: "git convo show [--full] [--json] [<git show options>] [<object>...]",
		Description: `Prints each commit's header exactly as "git show --no-patch" does, and under it every
linked conversation: title, confidence, auto or manual, the files it matched, why it was
linked, Cursor's summary, the first prompt, the conversation id and its time span.

The commits are git show's own: revisions (default HEAD), ranges (A..B), -<n>, :/<text>
and git show's options (--date=...) all work. Options that add a diff or another format
(-p, --stat, --format, --oneline) are refused: run git show for those.

--full adds each conversation's transcript, read from Cursor's database. --json prints one
object per commit:
  {"commit": {"hash", ...}, "conversations": [{"id", "title", "confidence", "status", "matchedFiles", ...}]}`,
		SkipFlagParsing: true,
		Flags:           helpFlags(showOptionHelp()), // listed by --help; parsed in gitargs.go
		Action: func(c *cli.Context) error {
			ra, err := splitGitArgs(c.Args().Slice(), showSpec())
			if err != nil {
				return err
			}
			if ra.help {
				return commandHelp(c, "show")
			}
			return runShow(c.Context, env, ra)
		},
	}
}

// showSpec reads git show's arguments: its header is git's medium format,
// so options for another format or a diff are refused.
func showSpec() gitArgSpec {
	spec := logSpec("--full")
	refuse(spec.refused, "git convo show prints git show's header; run git show for this format",
		"--oneline", "--name-only", "--graph", "-p", "--patch", "--stat", "--format", "--pretty", "-z")
	return spec
}

// runShow asks git for the commits with one process: their headers as git
// prints them, or their fields for JSON.
func runShow(ctx context.Context, env *Env, ra readArgs) error {
	rc, err := newReadContextWith(ctx, env, ra.color, ra.json, !ra.noPager)
	if err != nil {
		return err
	}
	defer rc.Close()
	var (
		commits []gitx.Commit
		records []gitx.ShowRecord
		hashes  []string
		msgs    map[string]string // the messages read already, for their trailers
	)
	if rec, c, ok := rc.showInProcess(ra); ok {
		// The common case, one revision: no git process at all.
		hashes = []string{rec.Hash}
		msgs = map[string]string{rec.Hash: c.Message()}
		if rc.json {
			commits = []gitx.Commit{*c}
		} else {
			records = []gitx.ShowRecord{rec}
		}
	} else if rc.json {
		if commits, err = rc.repo.LogCommitsShow(ctx, ra.git); err != nil {
			return err
		}
		for _, gc := range commits {
			hashes = append(hashes, gc.Hash)
		}
	} else {
		if records, err = rc.repo.ShowHeaders(ctx, ra.git, rc.terminal, rc.gitColor); err != nil {
			for _, r := range records {
				io.WriteString(rc.io.Out, r.Text) // what git printed before it failed
			}
			return err
		}
		for _, r := range records {
			if r.Hash != "" {
				hashes = append(hashes, r.Hash)
			}
		}
	}
	linked, err := rc.CommitLinks(ctx, hashes)
	if err != nil {
		return err
	}
	oc := rc.OtherClaims(ctx, hashes, nil, msgs)
	rc.startPager()
	defer rc.stopPager()
	for _, gc := range commits {
		var recorded *app.Commit
		if !rc.Store().Blank() {
			recorded, _ = rc.Store().GetCommit(ctx, gc.Hash)
		}
		obj := showObject(gc, recorded, linked[gc.Hash])
		obj.OtherTools = oc.OfCommit(gc.Hash)
		if err := rc.io.WriteJSON(obj); err != nil {
			return rc.ioErr(err)
		}
	}
	p := rc.gitPalette()
	unfetched := sync.OnceValue(func() []string { return app.Unfetched(ctx, ".") })
	for i, r := range records {
		if i > 0 {
			fmt.Fprintln(rc.io.Out)
		}
		if r.Hash == "" {
			fmt.Fprint(rc.io.Out, r.Text) // a tag's header, a blob: as git shows it
			continue
		}
		_, rest, _ := strings.Cut(r.Text, "\n")
		fmt.Fprintln(rc.io.Out, commitLine(p, r))
		fmt.Fprint(rc.io.Out, rest)
		rc.printConversations(ctx, linked[r.Hash], ra.flags["--full"], unfetched)
		rc.printOtherTools(oc.OfCommit(r.Hash))
	}
	return nil
}

// showInProcess answers show for one revision (or none: HEAD) and no git
// option from the repository's files, as git would print it (see
// gitx.ShowInProcess). ok is false wherever git's answer could differ, and
// with GIT_CONVO_READ_WITH_GIT set (which holds the two paths against each
// other): git answers then.
func (rc *readContext) showInProcess(ra readArgs) (gitx.ShowRecord, *gitx.Commit, bool) {
	getenv := rc.env.Getenv
	if getenv("GIT_CONVO_READ_WITH_GIT") != "" {
		return gitx.ShowRecord{}, nil, false
	}
	rev := ""
	switch args := ra.git; {
	case len(args) == 1 && args[0] != "" && !strings.HasPrefix(args[0], "-"):
		rev = args[0]
	case len(args) == 2 && args[0] == "--end-of-options" && args[1] != "":
		rev = args[1]
	case len(args) != 0:
		return gitx.ShowRecord{}, nil, false
	}
	repo, ok := gitx.Discover(".", getenv)
	if !ok {
		return gitx.ShowRecord{}, nil, false
	}
	rc.Found(repo)
	s, ok := rc.settingsInProcess()
	if !ok {
		return gitx.ShowRecord{}, nil, false
	}
	return repo.ShowInProcess(rev, s, rc.io.StdoutTTY() && !rc.json, getenv)
}

func showObject(gc gitx.Commit, recorded *app.Commit, lcs []app.LinkedConversation) showJSON {
	cj := commitJSON{
		Hash:        gc.Hash,
		ShortHash:   gitx.ShortHash(gc.Hash),
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
	if gc.Files != nil {
		cj.Files = gc.Files // log --name-only
	}
	if recorded != nil {
		cj.Recorded = true
		cj.Branch = recorded.Branch
		if gc.Files == nil { // log --name-only: the paths git lists win
			cj.Files = recorded.Files
		}
		cj.RewrittenTo = recorded.RewrittenTo
	}
	return showJSON{Commit: cj, Conversations: toConversationsJSON(lcs)}
}

// printConversations prints the conversations under a commit header.
// With no link, it names the remotes whose shared notes install could not
// fetch (unfetched: asked once per command, no network).
func (rc *readContext) printConversations(ctx context.Context, lcs []app.LinkedConversation, full bool, unfetched func() []string) {
	p := rc.io.Palette()
	w := rc.io.Out
	fmt.Fprintln(w)
	if len(lcs) == 0 {
		fmt.Fprintln(w, p.Dim("    No linked conversation. (git convo link <conversation> <rev> links one by hand.)"))
		for _, r := range unfetched() {
			fmt.Fprintln(w, p.Dim("    "+term.Line(r)+" has shared notes: git fetch"))
		}
		return
	}
	for _, lc := range lcs {
		printConversationBlock(w, p, rc.env, lc)
		if full {
			rc.printTranscript(ctx, w, lc.ConversationID)
		}
	}
}

func printConversationBlock(w io.Writer, p *term.Palette, env *Env, lc app.LinkedConversation) {
	now := env.Now()
	title := displayTitle(lc.Conv, lc.ConversationID)
	fmt.Fprintf(w, "    %s %s  %s\n", p.Key(lc.ConversationID, "●"), p.Bold(title),
		p.Dim(fmt.Sprintf("(%.0f%% %s%s%s)", lc.Confidence*100, lc.Status, env.agentSuffix(lc.Conv.Agent), sharedBy(lc, ", "))))
	span := ""
	if lc.Conv.FirstSeenMs > 0 {
		start, end := time.UnixMilli(lc.Conv.FirstSeenMs), time.UnixMilli(lc.Conv.ActivityMs)
		span = fmt.Sprintf("  %s – %s (%s)", start.Local().Format("Jan 2 15:04"), end.Local().Format("Jan 2 15:04"),
			term.RelativeTime(end, now))
	}
	fmt.Fprintf(w, "      %s %s%s\n", p.Dim("id"), term.Line(lc.ConversationID), p.Dim(span))
	if len(lc.MatchedFiles) > 0 {
		fmt.Fprintf(w, "      %s %s\n", p.Dim("files"), term.Line(strings.Join(lc.MatchedFiles, ", ")))
	}
	if lc.AddedLines > 0 && lc.WrittenLines == 0 {
		// With lines written, the reason already says how many.
		fmt.Fprintf(w, "      %s none of the %d added lines was written in this conversation (edited the same files; wrote none of these lines)\n", p.Dim("lines"), lc.AddedLines)
	}
	if lc.Reason != "" {
		fmt.Fprintf(w, "      %s %s\n", p.Dim("why"), term.Line(lc.Reason))
	}
	if lc.Conv.Summary != "" {
		fmt.Fprintf(w, "      %s %s\n", p.Dim("summary"), term.Line(oneLine(lc.Conv.Summary, 200)))
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

// commitLine is a shown commit's first line, "commit <hash> (<decorations>)",
// colored as git colors it: the hash and parentheses in color.diff.commit,
// each decoration in its color.decorate slot.
func commitLine(p *term.Palette, r gitx.ShowRecord) string {
	first, _, _ := strings.Cut(r.Text, "\n")
	if r.Colored || len(r.Decorations) == 0 {
		if r.Colored {
			return first // git's own colors
		}
		return p.Hash(first)
	}
	head, _, _ := strings.Cut(first, " (")
	var b strings.Builder
	b.WriteString(p.Hash(head) + p.Hash(" ("))
	for i, d := range r.Decorations {
		if i > 0 && !strings.HasSuffix(r.Decorations[i-1].Text, "-> ") {
			b.WriteString(p.Hash(", "))
		}
		b.WriteString(p.Decoration(d.Slot, d.Text))
	}
	b.WriteString(p.Hash(")"))
	return b.String()
}
