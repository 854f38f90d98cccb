package cli

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/app"
	"github.com/git-convo/git-convo/pkg/attribution/link"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/util/mstime"
	"github.com/git-convo/git-convo/pkg/util/term"
)

// blameTitleWidth is the width of the conversation column.
const blameTitleWidth = 24

func blameCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "blame",
		Usage:     "git blame, with the conversation behind each line's commit",
		UsageText: "git convo blame [--json] [<git blame options>] [<rev>] [--] <file>",
		Description: `Runs "git blame --porcelain" (git's own blame: exact and fast) and adds a column
naming the conversation that wrote each line (found where its edit wrote it, not by its
text), one color per conversation; "(by hand)" for a person's line in a commit linked to a
conversation, also one linked by file overlap only (--json: "human"). Lines from commits
with no conversation keep a blank column.

Every argument git blame takes reaches git as typed, in any order git accepts: -L in all its
forms (-L 2,5, -L2,+3, -L /re/,+2, -L :func, repeated), -w, -M, -C, --since, --reverse,
--root, --ignore-rev, a revision, options after the file. -s, -e, -l, -b and --abbrev change
the columns as they do in git blame, as do blame.showEmail and blame.blankBoundary; options
for another output format (-p, --porcelain, --line-porcelain, --incremental, -t, -n,
--show-number, -f, --show-name, -c, --date, --score-debug, --show-stats, --color-lines,
--color-by-age, --progress) are refused: run git blame for those. A blank line an agent's
edit wrote (inside its code, or starting or ending it) is the agent's. Hashes are as long as git blame makes them (core.abbrev, and unique).

--json prints JSON Lines, one per line of the file:
  {"line", "commit", "conversations": [{"id", "title", "confidence", "evidence"}], "text",
   ..., "attribution", "evidence"}
where "evidence" is position, text match, overlap only, agent commit or manual.`,
		SkipFlagParsing: true,
		Flags:           helpFlags(blameOptionHelp()), // listed by --help; parsed in gitargs.go
		Action: func(c *cli.Context) error {
			ra, err := splitGitArgs(c.Args().Slice(), blameSpec())
			if err != nil {
				return err
			}
			if ra.help {
				return commandHelp(c, "blame")
			}
			if !hasOperand(ra.git) {
				return usagef("usage: git convo blame [<options>] [<rev>] [--] <file>")
			}
			return runBlame(c.Context, env, ra)
		},
	}
}

// blameSpec reads git blame's arguments. The column options git convo
// honours itself are its own; those for git's other output formats are
// refused.
func blameSpec() gitArgSpec {
	r := refuse(map[string]string{}, "git convo blame prints its own columns; run git blame for this format",
		"-t", "-n", "--show-number", "-f", "--show-name", "-c", "-p", "--porcelain", "--line-porcelain",
		"--incremental", "--score-debug", "--show-stats", "--date", "--color-lines", "--color-by-age", "--progress")
	return gitArgSpec{
		own:         []string{"-s", "-e", "--show-email", "-l", "-b"},
		valued:      setOf("-L", "-S", "--contents", "--ignore-rev", "--ignore-revs-file", "--since", "--after", "--until", "--before"),
		refused:     r,
		shortFlags:  "tnfcpseblw",
		shortValued: "LSMC",
	}
}

// hasOperand reports an argument that is no option: the file, at least.
func hasOperand(args []string) bool {
	valued := blameSpec().valued
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--":
			return i+1 < len(args)
		case valued[a]:
			i++
		case !strings.HasPrefix(a, "-"):
			return true
		}
	}
	return false
}

// blameColumns are git blame's column options git-convo honours.
type blameColumns struct {
	suppress, email, long, blankBoundary bool
	abbrev                               int // --abbrev=<n>; 0: git's own choice
}

// blameColumnsOf takes -s, -e, -l, -b (given alone or bundled with git's
// flags) and --abbrev out of the arguments for git.
func blameColumnsOf(ra *readArgs) (blameColumns, error) {
	bc := blameColumns{suppress: ra.flags["-s"], email: ra.flags["-e"] || ra.flags["--show-email"], long: ra.flags["-l"],
		blankBoundary: ra.flags["-b"]}
	var rest []string
	for i := 0; i < len(ra.git); i++ {
		a := ra.git[i]
		if a == "--" || a == "--end-of-options" {
			rest = append(rest, ra.git[i:]...)
			break
		}
		switch {
		case a == "-s":
			bc.suppress = true
		case a == "-e":
			bc.email = true
		case a == "-l":
			bc.long = true
		case a == "-b":
			bc.blankBoundary = true
		case a == "--abbrev":
		case strings.HasPrefix(a, "--abbrev="):
			n, err := strconv.Atoi(strings.TrimPrefix(a, "--abbrev="))
			if err != nil || n < 0 {
				return bc, usagef("%s: want a number of hex digits", a)
			}
			// git shows at least 4 digits, and all of them for 0.
			bc.abbrev, bc.long = max(n, 4), n == 0
		default:
			rest = append(rest, a)
			if blameSpec().valued[a] && i+1 < len(ra.git) {
				rest = append(rest, ra.git[i+1])
				i++
			}
		}
	}
	ra.git = rest
	return bc, nil
}

type blameConvJSON struct {
	ID         string  `json:"id"`
	Title      string  `json:"title"`
	Confidence float64 `json:"confidence"`
	Status     string  `json:"status"`
	Agent      string  `json:"agent,omitempty"`
	Evidence   string  `json:"evidence"` // what the link rests on (app.Link.Evidence)
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
	Agent         *string         `json:"agent"`       // the agent of writtenBy (cursor, claude), or null
	Evidence      *string         `json:"evidence"`    // how writtenBy is known: "position" or "text match"; null
	// Other tools' claims on the line (docs/interop.md), git-convo's among
	// them, strongest first; absent when git-convo alone speaks.
	Claims  []app.Claim `json:"claims,omitempty"`
	Sources string      `json:"sources,omitempty"` // "2 sources agree", "sources disagree"
	From    string      `json:"from,omitempty"`    // the answer's source when another tool's: "git-ai's notes"
}

// Attributions of a line.
const (
	attrAgent   = app.ClaimAgent   // an agent's edit wrote this exact line
	attrHuman   = app.ClaimHuman   // a person wrote it, in a commit an agent contributed to
	attrUnknown = app.ClaimUnknown // no evidence either way
)

// lineAttribution says who wrote one blamed line: the conversation whose edit
// introduced it in its commit, or a person (the commit had an agent's
// conversation and its lines were examined, but not this line), or nobody
// we know of (no conversation, or a commit recorded before line evidence:
// linked by its files only). Text and JSON blame both print this answer.
func lineAttribution(l gitx.BlameLine, writers map[string]map[string]map[int]app.LineWriter, linked []app.LinkedConversation, recorded map[string]bool) (app.LineWriter, string) {
	// Line evidence is stored under the normalised path record wrote.
	if w, ok := writers[l.Commit][link.NormPath(l.Filename)][l.OrigLine]; ok {
		return w, attrAgent
	}
	if len(linked) > 0 && recorded[l.Commit] { // lines left of a commit whose lines were not examined (forget) say nothing of the others
		return app.LineWriter{}, attrHuman
	}
	return app.LineWriter{}, attrUnknown
}

// writerFirst orders a commit's conversations with the line's writer first.
func writerFirst(lcs []app.LinkedConversation, writer string) []app.LinkedConversation {
	if writer == "" || len(lcs) < 2 || lcs[0].ConversationID == writer {
		return lcs
	}
	out := make([]app.LinkedConversation, 0, len(lcs))
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

func runBlame(ctx context.Context, env *Env, ra readArgs) error {
	cols, err := blameColumnsOf(&ra)
	if err != nil {
		return err
	}
	rc, err := newReadContextWith(ctx, env, ra.color, ra.json, !ra.noPager)
	if err != nil {
		return err
	}
	defer rc.Close()
	// git blame's columns follow blame.showEmail and blame.blankBoundary;
	// they are read (in process) while git blames.
	config := make(chan *gitx.Settings, 1)
	if !rc.json {
		go func() { config <- rc.settings() }()
	}
	lines, err := rc.repo.Blame(ctx, gitx.BlameOptions{Args: ra.git})
	if err != nil {
		return err
	}
	seen, seenPath, seenName := map[string]bool{}, map[string]bool{}, map[string]bool{}
	var hashes, paths, names []string
	for _, l := range lines {
		if !seen[l.Commit] {
			seen[l.Commit] = true
			hashes = append(hashes, l.Commit)
		}
		// The blamed file's names in its history (renames, -C), as line
		// evidence is recorded, and as git names them (shared notes' lines
		// are clipped to those files' diffs).
		if p := link.NormPath(l.Filename); !seenPath[p] {
			seenPath[p] = true
			paths = append(paths, p)
		}
		if !seenName[l.Filename] {
			seenName[l.Filename] = true
			names = append(names, l.Filename)
		}
	}
	// Other tools' records (docs/interop.md) are read while the database
	// answers: the commits' messages (trailers), and notes where the refs exist.
	others := make(chan app.OtherClaims, 1)
	go func() { others <- rc.OtherClaims(ctx, hashes, seenPath, nil) }()
	// Evidence for the blamed file only, local and shared.
	ev, err := rc.BlameEvidence(ctx, hashes, paths, names)
	if err != nil {
		return err
	}
	linked, writers, recorded := ev.Linked, ev.Writers, ev.Recorded
	blankWriters(lines, writers)
	oc := <-others
	rc.startPager()
	defer rc.stopPager()
	if rc.json {
		prompts := map[app.LineWriter]*string{}
		for _, l := range lines {
			w, attr := lineAttribution(l, writers, linked[l.Commit], recorded)
			obj := blameLineJSON{Line: l.Line, Commit: l.Commit, Conversations: []blameConvJSON{}, Text: l.Text,
				Author: l.Author, Date: mstime.ISO(l.AuthorTime.UnixMilli()), OrigLine: l.OrigLine, Path: l.Filename, Attribution: attr}
			if attr == attrAgent {
				id := w.ConversationID
				obj.WrittenBy = &id
				obj.Agent = rc.agentOf(ctx, id, linked[l.Commit])
				p, ok := prompts[w]
				if !ok {
					if text, _ := rc.Store().PromptText(ctx, w.ConversationID, w.GenerationID); text != "" {
						p = &text
					}
					prompts[w] = p
				}
				obj.Prompt = p
				ev := app.LineEvidence(w)
				obj.Evidence = &ev
			}
			if oc.Any() {
				if v, ok := oc.LineVerdict(l, w, attr, linked[l.Commit], rc.agentIn(w.ConversationID, linked[l.Commit])); ok {
					obj.applyVerdict(v)
				}
			}
			for _, lc := range writerFirst(linked[l.Commit], w.ConversationID) {
				obj.Conversations = append(obj.Conversations, blameConvJSON{ID: lc.ConversationID,
					Title: titleOf(lc.Conv), Confidence: lc.Confidence, Status: lc.Status, Agent: lc.Conv.Agent, Evidence: lc.Evidence()})
			}
			if err := rc.io.WriteJSON(obj); err != nil {
				return rc.ioErr(err)
			}
		}
		return nil
	}
	settings := <-config
	if settings != nil {
		email, _ := settings.Bool("blame.showEmail")
		blank, _ := settings.Bool("blame.blankBoundary")
		cols.email, cols.blankBoundary = cols.email || email, cols.blankBoundary || blank
	}
	width, err := blameHashWidth(ctx, rc.repo, cols, hashes, settings)
	if err != nil {
		return err
	}
	return rc.ioErr(printBlame(rc, cols, width, lines, linked, writers, recorded, oc))
}

// blameHashWidth is how many hex digits git blame shows: one more than the
// longest unique abbreviation among the commits (room for a boundary's
// "^"), --abbrev's count plus one, or all of them with -l.
// settings hold core.abbrev; nil when they could not be read.
func blameHashWidth(ctx context.Context, repo *gitx.Repo, cols blameColumns, hashes []string, settings *gitx.Settings) (int, error) {
	full := 40
	if len(hashes) > 0 {
		full = len(hashes[0])
	}
	switch {
	case cols.long:
		return full, nil
	case cols.abbrev > 0:
		return min(cols.abbrev+1, full), nil
	}
	var committed []string
	for _, h := range hashes {
		if strings.Trim(h, "0") != "" {
			committed = append(committed, h)
		}
	}
	var short map[string]string
	var err error
	if settings == nil {
		short, err = repo.Abbrevs(ctx, committed)
	} else {
		v, set := settings.Get("core.abbrev")
		short, err = repo.AbbrevsKnowingConfig(ctx, committed, v, set)
	}
	if err != nil {
		return 0, err
	}
	// git's least is core.abbrev's (4 at the least), 7 by default.
	width := 0
	for _, s := range short {
		width = max(width, len(s))
	}
	if width == 0 {
		width = 7
	}
	if width >= full {
		// core.abbrev=no (or the full length): git gives no digit to the
		// boundary's "^", which makes that line one wider.
		return full + 1, nil
	}
	return min(width+1, full), nil
}

func printBlame(rc *readContext, cols blameColumns, width int, lines []gitx.BlameLine, linked map[string][]app.LinkedConversation, writers map[string]map[string]map[int]app.LineWriter, recorded map[string]bool, oc app.OtherClaims) error {
	var summary claimsSummary
	p := rc.io.Palette()
	who := func(l gitx.BlameLine) string {
		if cols.email {
			return "<" + l.AuthorMail + ">"
		}
		return l.Author
	}
	authorWidth, numWidth := 0, len(fmt.Sprint(len(lines)))
	for _, l := range lines {
		authorWidth = max(authorWidth, len([]rune(who(l))))
		numWidth = max(numWidth, len(fmt.Sprint(l.Line)))
	}
	authorWidth = min(authorWidth, 20)
	var b strings.Builder
	for _, l := range lines {
		b.Reset()
		hash := l.Commit[:min(width, len(l.Commit))]
		switch {
		case l.Boundary && cols.blankBoundary:
			hash = strings.Repeat(" ", len(hash))
		case l.Boundary && width > len(l.Commit):
			hash = "^" + hash
		case l.Boundary:
			hash = "^" + hash[:len(hash)-1]
		}
		b.WriteString(p.Hash(hash))
		b.WriteByte(' ')
		// The column names the conversation that wrote the line; "(by hand)"
		// marks a person's line in a commit linked to a conversation (also
		// one linked by its files only: it wrote none of these lines), as
		// --json's "human"; lines with no evidence stay blank. Commits
		// recorded before line evidence existed fall back to their
		// strongest conversation (--json: "unknown"); an unknown line of a
		// commit whose record names other lines of the file (a squash read
		// by text) stays blank: its title there would claim the line.
		col := strings.Repeat(" ", blameTitleWidth)
		lcs := linked[l.Commit]
		w, attr := lineAttribution(l, writers, lcs, recorded)
		switch {
		case attr == attrAgent:
			title := term.Line(w.ConversationID)
			for _, lc := range lcs {
				if lc.ConversationID == w.ConversationID {
					title = displayTitle(lc.Conv, lc.ConversationID)
				}
			}
			col = p.Key(w.ConversationID, padRight(oneLine(title, blameTitleWidth), blameTitleWidth))
		case attr == attrHuman:
			col = p.Dim(padRight("(by hand)", blameTitleWidth))
		case len(lcs) > 0 && len(writers[l.Commit]) == 0:
			title := padRight(oneLine(displayTitle(lcs[0].Conv, lcs[0].ConversationID), blameTitleWidth), blameTitleWidth)
			col = p.Key(lcs[0].ConversationID, title)
		}
		if oc.Any() {
			col = rc.otherColumn(oc, l, w, attr, lcs, col, &summary)
		}
		b.WriteString(col)
		if cols.suppress {
			fmt.Fprintf(&b, " %*d) %s\n", numWidth, l.Line, l.Text)
		} else {
			fmt.Fprintf(&b, " (%s %s %*d) %s\n", padRight(oneLine(who(l), authorWidth), authorWidth),
				l.AuthorTime.Format("2006-01-02"), numWidth, l.Line, l.Text)
		}
		if _, err := rc.io.Out.Write([]byte(b.String())); err != nil {
			return err
		}
	}
	_, err := rc.io.Out.Write([]byte(summary.String()))
	return err
}

func padRight(s string, n int) string {
	if w := len([]rune(s)); w < n {
		return s + strings.Repeat(" ", n-w)
	}
	return s
}
