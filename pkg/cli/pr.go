package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/app"
	"github.com/git-convo/git-convo/pkg/app/prsummary"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/util/term"
)

func prCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "pr",
		Usage:     "the conversations behind a pull request's lines, for its reviewer",
		UsageText: "git convo pr [<base>..<head> | <base>] [--format terminal|markdown|json|html] [--full-report <where>] [--max-length <n>]",
		Description: `Summarises a range of commits as a reviewer sees it: the added lines of its diff (from
the merge base, as a pull request shows it; blank lines not counted) in three kinds: written
by an agent's edits (by agent, model and conversation); in commits recorded while capture was
active but from no recorded edit; in commits with no record at all (made before install, on a
machine without git-convo, or with notes not fetched: nothing says who wrote them). Then the
commits covered by a record and those not, the conversations of each file, and for each hunk
the conversation, the prompt behind the edit (its first meaningful line), what the agent said
just before the edit that wrote the lines (from the conversation's transcript on this machine,
when it can be matched to the edit; else the agent's recorded answer to the prompt), the link's
confidence and its evidence (position, text match, agent commit, overlap only, manual).

Other tools' records count too (docs/interop.md): git-ai's notes (refs/notes/ai), other
tools' Agent Trace records (refs/notes/agent-trace) and commit trailers. Where git-convo's own
edit evidence names a line's writer, that answer stands; elsewhere the strongest claim answers
(an agent's own edit, then an Agent Trace range, then a trailer), named with its source ("from
git-ai's notes"). A person git-ai saw typing is counted as that person's line, not as "no
record"; a commit only another tool's record covers is covered; a trailer names an agent,
never which lines. --format json carries every claim with its source.

With no range: the current branch against its upstream's merge base, else against
origin/HEAD. It reads the local database and the shared notes: notes alone are enough (CI).
Secret-looking strings are redacted as share redacts them ("[redacted: github token]").

--format markdown is GitHub-flavoured, at most 65,536 characters (past that the hunks are
left out file by file, and --full-report says where the whole report is; --max-length
changes the limit, 0 for none), with a
machine-readable block in an HTML comment (<!-- git-convo:data {...} -->). --format html is
one self-contained page (no request of any kind). --format json (or --json) is described in
docs/json.md. A range with nothing recorded exits 0 and says so. Exit codes: 0, 1 (git or the
database failed), 2 (bad usage).`,
		Flags: append(readFlags(),
			&cli.StringFlag{Name: "format", Value: "terminal", Usage: "terminal, markdown, json or html"},
			&cli.StringFlag{Name: "full-report", Usage: "where the full report is, named when markdown is shortened"},
			&cli.IntFlag{Name: "max-length", Value: prsummary.MarkdownLimit, Usage: "the most characters of markdown (0: no limit, for a job summary)"},
		),
		Action: func(c *cli.Context) error {
			ctx := c.Context
			format := c.String("format")
			if c.Bool("json") {
				format = "json"
			}
			switch format {
			case "terminal", "markdown", "json", "html":
			default:
				return usagef("--format=%s: want terminal, markdown, json or html", format)
			}
			if c.NArg() > 1 {
				return usagef("usage: git convo pr [<base>..<head> | <base>] [--format ...]")
			}
			rc, err := newReadContextWith(ctx, env, c.String("color"), format != "terminal", !c.Bool("no-pager"))
			if err != nil {
				return err
			}
			defer rc.Close()
			repo, err := gitx.Open(ctx, ".", false)
			if err != nil {
				return err
			}
			if repo.TopLevel != "" {
				if repo, err = gitx.Open(ctx, repo.TopLevel, false); err != nil {
					return err
				}
			}
			s, err := rc.Summary(ctx, app.SummaryRequest{Repo: repo, Args: c.Args().Slice(), Home: env.Getenv("HOME")})
			if err != nil {
				if err == prsummary.ErrNoBase {
					return usagef("%v", err)
				}
				return err
			}
			switch format {
			case "json":
				return rc.ioErr(rc.io.WriteJSON(s))
			case "markdown":
				_, err = io.WriteString(rc.io.Out, prsummary.Markdown(s, prsummary.MarkdownOptions{FullReport: c.String("full-report"), Limit: markdownLimit(c.Int("max-length"))}))
				return rc.ioErr(err)
			case "html":
				_, err = io.WriteString(rc.io.Out, prsummary.HTML(s))
				return rc.ioErr(err)
			}
			rc.startPager()
			defer rc.stopPager()
			return rc.ioErr(printPR(rc.io.Out, rc.io.Palette(), s))
		},
	}
}

// printPR is the terminal report; outside text goes through term.Line.
func printPR(w io.Writer, p *term.Palette, s *prsummary.Summary) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\n", p.Bold("Conversations behind"), term.Line(s.Range))
	if s.NothingRecorded {
		fmt.Fprintln(&b, term.Line(s.Message))
		_, err := io.WriteString(w, b.String())
		return err
	}
	h := s.Headline
	fmt.Fprintf(&b, "%s added lines (non-blank):\n", p.Bold(fmt.Sprint(h.Added)))
	fmt.Fprintf(&b, "  %6d  written by agents' edits\n", h.Agent)
	fmt.Fprintf(&b, "  %6d  in recorded commits, from no recorded edit\n", h.NoEdit)
	fmt.Fprintf(&b, "  %6d  in commits with no record %s\n", h.NoRecord, p.Dim("(nothing says who wrote them)"))
	if h.Person > 0 {
		fmt.Fprintf(&b, "  %6d  a person's, as another tool's record attests\n", h.Person)
	}
	printPROthers(&b, p, s, h.OtherTools, "  other tools' records:", "    ")
	fmt.Fprintf(&b, "%d of %d commits covered by a record\n", s.Commits.Covered, s.Commits.Total)
	for _, u := range s.Commits.Uncovered {
		fmt.Fprintf(&b, "  %s %s %s\n", p.Hash(u.Short), term.Line(u.Subject), p.Dim("("+term.Line(u.Reason)+")"))
	}
	names := map[string]string{}
	if len(s.Conversations) > 0 {
		fmt.Fprintf(&b, "\n%s\n", p.Bold("Conversations"))
		for _, c := range s.Conversations {
			title := c.Title
			if title == "" {
				title = "conversation " + shortID(c.ID)
			}
			names[c.ID] = p.Key(c.ID, term.Line(oneLine(title, 60)))
			fmt.Fprintf(&b, "  %5d  %s %s\n", c.Lines, names[c.ID],
				p.Dim(fmt.Sprintf("(%s, %s; confidence %.2f, %s)", orDash(term.Line(c.Agent)), orDash(term.Line(c.Model)), c.Confidence, c.EvidenceSaid())))
		}
	}
	for _, f := range s.Files {
		person := ""
		if f.Person > 0 {
			person = fmt.Sprintf(", %d a person's (another tool's record)", f.Person)
		}
		fmt.Fprintf(&b, "\n%s  %s\n", p.Bold(term.Line(f.Path)),
			p.Dim(fmt.Sprintf("%d added: %d by agents, %d from no recorded edit, %d with no record%s", f.Added, f.Agent, f.NoEdit, f.NoRecord, person)))
		for _, hk := range s.Hunks {
			if hk.Path != f.Path || hk.Added == 0 {
				continue
			}
			fmt.Fprintf(&b, "  @@ +%d,%d  %d added\n", hk.NewStart, hk.NewLines, hk.Added)
			for _, wr := range hk.Writers {
				what := fmt.Sprintf("%d line%s", wr.Lines, plural(wr.Lines))
				if wr.Lines == 0 {
					what = "linked, wrote none of these lines"
				}
				fmt.Fprintf(&b, "      %s: %s %s\n", what, names[wr.Conversation],
					p.Dim(fmt.Sprintf("(confidence %.2f, %s)", wr.Confidence, wr.Evidence)))
				if wr.Prompt != "" {
					more := ""
					if wr.PromptFolded > 0 {
						more = p.Dim(fmt.Sprintf(" (+%d lines)", wr.PromptFolded))
					}
					fmt.Fprintf(&b, "        prompt: %s%s\n", term.Line(oneLine(wr.Prompt, 100)), more)
				}
				if said, _, what := wr.Said(); said != "" {
					fmt.Fprintf(&b, "        %s: %s\n", what, p.Dim(term.Line(oneLine(said, 100))))
				}
			}
			printPROthers(&b, p, s, hk.OtherTools, "", "      ")
			if said := prsummary.SourcesSaid(hk); said != "" {
				fmt.Fprintf(&b, "      %s\n", p.Dim(said+" (--format json lists every claim)"))
			}
		}
	}
	if note := s.WordsNote(); note != "" {
		fmt.Fprintf(&b, "\n%s\n", p.Dim(note))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// printPROthers prints the writers other tools' records name (under
// head, when any), each with its lines and its source.
func printPROthers(b *strings.Builder, p *term.Palette, s *prsummary.Summary, ws []prsummary.OtherWriter, head, indent string) {
	if len(ws) > 0 && head != "" {
		fmt.Fprintln(b, head)
	}
	for _, w := range ws {
		fmt.Fprintf(b, "%s%s: %s %s\n", indent, prsummary.OtherWhat(w), term.Line(oneLine(s.OtherName(w), 80)),
			p.Dim("("+term.Line(prsummary.OtherSource(w))+")"))
	}
}

// markdownLimit is --max-length for prsummary: 0 is no limit.
func markdownLimit(n int) int {
	if n <= 0 {
		return 1 << 40
	}
	return n
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
