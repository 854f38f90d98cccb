package cli

import (
	"context"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/app"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/util/term"
)

// Log collects commits in batches, one links query each: the first batch is
// small so the first lines appear at once on a huge history, later ones large
// so a long log costs few queries.
const (
	logFirstBatch = 32
	logBatch      = 128
	// logGCPercent: GOGC while log shows at most logGCCommits commits.
	logGCPercent, logGCCommits = 400, 5000
)

// logAbbrevMinCommits is the least -n for which reading the pack indexes
// beats git's own look-ups (about 2.5 µs a commit against 0.5–1 ms for
// the indexes of a 4,000-commit history).
const logAbbrevMinCommits = 256

func logCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "log",
		Usage:     "git log, with each commit's conversations under it",
		UsageText: "git convo log [--only-linked] [--json] [<git log options>] [<revision range>] [[--] <path>...]",
		Description: `Shows the commits "git log" would show, one line each (git's abbreviated hash), with
the conversations linked to each commit beneath it, then a line per writer other tools
name: git-ai's or Agent Trace notes (their lines), commit trailers (the agent, not which
lines: evidence "commit trailer"). Every argument git-convo does not know
reaches git log as typed: -n5, --since=2.weeks, -S<text>, --author=..., --grep, ranges
(main..topic) and paths, with or without "--".

  --only-linked   only commits that have a conversation
  --oneline       git log --oneline's own line for each commit
  --name-only     the paths each commit changed, under its line
  --json          JSON Lines: one show-shaped object per commit
  --color=<when>, --no-pager as for every read command

Options for another output (--graph, -p, --stat, --format) are refused: run git log for
those. Output streams: on a long history the first commits appear before git log has
finished.`,
		SkipFlagParsing: true,
		Flags:           helpFlags(logOptionHelp()), // listed by --help; parsed in gitargs.go
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
			return commandHelp(c, name)
		}
		return run(c.Context, env, opts, gitArgs)
	}
}

type logOptions struct {
	json, onlyLinked, noPager, help bool
	oneline, nameOnly               bool // git's --oneline and --name-only, honoured
	color                           string
	// What git's --oneline line holds besides the hash, as git prints it
	// (log-tree.c: show_log): the full hash (--no-abbrev-commit after
	// --oneline), a mark (--left-right, --boundary, --cherry-mark), the
	// ref of --source.
	fullHash, leftRight, cherryMark, marks, source bool
}

// parseLogArgs takes git-convo's own options out of args; the rest, in order,
// go to git log.
func parseLogArgs(args []string) (logOptions, []string, error) {
	ra, err := splitGitArgs(args, logSpec("--only-linked", "--oneline", "--name-only"))
	if err != nil {
		return logOptions{}, nil, err
	}
	o := logOptions{json: ra.json, onlyLinked: ra.flags["--only-linked"], noPager: ra.noPager, help: ra.help,
		oneline: ra.flags["--oneline"], nameOnly: ra.flags["--name-only"], color: ra.color}
	for _, a := range args {
		if a == "--" || a == "--end-of-options" {
			break
		}
		switch a {
		case "--oneline", "--abbrev-commit": // --oneline abbreviates, as the last word
			o.fullHash = false
		case "--no-abbrev-commit":
			o.fullHash = true
		case "--left-right":
			o.leftRight = true
		case "--cherry-mark", "--cherry":
			o.cherryMark = true
		case "--boundary":
			o.marks = true
		case "--source":
			o.source = true
		}
	}
	o.marks = o.marks || o.leftRight || o.cherryMark
	return o, ra.git, nil
}

// revisionMark is git's mark before a --oneline line (revision.c:
// get_revision_mark) from %m, which always tells left from right.
func revisionMark(opts logOptions, m string) string {
	switch {
	case m != "<" && m != ">":
		return m // "-" boundary, "^" uninteresting, "=" patch-same, or none
	case opts.leftRight:
		return m
	case opts.cherryMark:
		return "+"
	}
	return ""
}

func runLog(ctx context.Context, env *Env, opts logOptions, gitArgs []string) error {
	// With a count, what log holds is a few batches and at most that many
	// commits seen: Go's first collection, at 4 MB of heap, cost log -n
	// 1000 with 100,000 conversations 5-9 % of its CPU for 2 MB live, so
	// collect at 5 times the live heap, not twice. Not for a whole history (20,000 commits: 35
	// MB at its peak, not 25). Set back on return (a process that runs
	// more than one command). A GOGC the user set is theirs.
	if n, limited := maxCount(gitArgs); limited && n <= logGCCommits && env.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(logGCPercent))
	}
	rc, err := newReadContextNotes(ctx, env, opts.color, opts.json, !opts.noPager, app.ReaderOptions{InlineNotes: true})
	if err != nil {
		return err
	}
	defer rc.Close()
	// The pager starts with the first commits, as git's own log starts it
	// after its arguments are read: a revision git refuses pages nothing.
	paged := false
	startPager := func() {
		if !paged {
			paged = true
			rc.startPager()
		}
	}
	defer rc.stopPager()

	// A user's own notes option would change what git's %N prints: then
	// the notes reader asks for shared notes itself.
	inlineNotes := !gitx.HasNotesOption(gitArgs)
	// Bodies for the trailers other tools write (logOthers): git has
	// each message in hand already, so no process more.
	lo := gitx.LogOptions{Abbrev: !rc.json, Body: true, Mark: opts.oneline && opts.marks, Source: opts.oneline && opts.source}
	if opts.oneline && decorates(gitArgs, rc.terminal, rc.logDecorate) {
		// git colors the decorations (color.decorate.* slots) when ours is on.
		lo.Decorate, lo.ColorDecorate = !rc.gitColor, rc.gitColor
	}
	// Hashes are abbreviated in process, from the pack indexes read while
	// git runs, unless the user's own --abbrev must reach git's %h.
	var abbrev *gitx.Abbreviator
	if n, limited := maxCount(gitArgs); lo.Abbrev && !abbrevOption(gitArgs) && (!limited || n >= logAbbrevMinCommits) {
		abbrev = rc.repo.StartAbbrev(gitx.MaxIndexBytes, rc.coreAbbrev) // the walk's own bound
		lo.Abbrev = abbrev == nil
		if abbrev != nil {
			defer abbrev.Close()
		}
	}
	// What log reads beside git's commits (app.LogSession): asked while git
	// runs, whether anything is linked, which notes refs exist.
	n, limited := maxCount(gitArgs)
	ls := rc.Log(ctx, app.LogSessionOptions{InlineNotes: inlineNotes, Many: !limited || n > logFirstBatch})
	defer ls.Close()
	// Shared notes come with the commits, from git log itself (%N).
	lo.Notes, lo.MaxNotes = ls.Notes()
	// Where the walk is in process, each batch's links are read while it
	// reads on (app.LogSession.Ahead).
	lo.Ahead = ls.Ahead(ctx, rc.json)
	batch := make([]gitx.Commit, 0, logBatch)
	var writeErr error
	flush := func() bool {
		if len(batch) == 0 {
			return true
		}
		hashes := make([]string, len(batch))
		for i, c := range batch {
			hashes[i] = c.Hash
		}
		if abbrev != nil {
			short, err := abbrev.Abbrevs(ctx, hashes)
			if err != nil {
				writeErr = err
				return false
			}
			for i := range batch {
				batch[i].Abbrev = short[batch[i].Hash]
			}
		}
		linked, err := ls.Links(ctx, batch, hashes, rc.json)
		if err != nil {
			writeErr = err
			return false
		}
		var recorded map[string]*app.Commit
		if rc.json { // show-shaped objects: recorded, branch, files as show --json has them
			if recorded, err = rc.Store().GetCommits(ctx, hashes); err != nil {
				writeErr = err
				return false
			}
		}
		oc := ls.Others(ctx, batch, hashes)
		startPager()
		for _, gc := range batch {
			lcs := linked[gc.Hash]
			if opts.onlyLinked && len(lcs) == 0 {
				continue
			}
			if rc.json {
				obj := showObject(gc, recorded[gc.Hash], lcs)
				obj.OtherTools = oc[gc.Hash]
				writeErr = rc.io.WriteJSON(obj)
			} else if writeErr = printLogEntry(rc, opts, gc, lcs); writeErr == nil {
				rc.printLogOthers(oc[gc.Hash])
			}
			if writeErr != nil {
				return false
			}
		}
		batch = batch[:0]
		writeErr = rc.io.Flush() // stream: each batch reaches the reader now
		return writeErr == nil
	}
	if env.Getenv("GIT_CONVO_READ_WITH_GIT") == "" { // else git walks, to hold the two walks to one answer
		lo.Local = gitx.NewLocal(".", env.Getenv, rc.settingsInProcess)
	}
	limit := logFirstBatch
	if opts.nameOnly {
		gitArgs = append([]string{"--name-only"}, gitArgs...)
	}
	err = rc.repo.StreamLog(ctx, gitArgs, lo, func(c gitx.Commit) bool {
		batch = append(batch, c)
		if len(batch) >= limit {
			limit = logBatch
			return flush()
		}
		return true
	})
	if err == nil && writeErr == nil {
		flush()
		startPager() // no commit: git's pager runs all the same
	}
	if writeErr != nil {
		return rc.ioErr(writeErr)
	}
	return err
}

// abbrevOption says whether the user gave git log an option that changes
// its abbreviations (--abbrev=<n>, --no-abbrev; --abbrev-commit counted
// too, to be safe).
func abbrevOption(gitArgs []string) bool {
	for _, a := range gitArgs {
		if a == "--" || a == "--end-of-options" {
			return false
		}
		if strings.HasPrefix(a, "--abbrev") || strings.HasPrefix(a, "--no-abbrev") {
			return true
		}
	}
	return false
}

// maxCount is the commit limit the user gave git log (-n <n>, -n<n>, -<n>,
// --max-count[=]<n>; the last one counts), ok false without one. It only
// chooses how hashes are abbreviated, never what is shown, so an
// argument it misreads costs time, not correctness.
func maxCount(gitArgs []string) (n int, ok bool) {
	for i := 0; i < len(gitArgs); i++ {
		a := gitArgs[i]
		if a == "--" || a == "--end-of-options" {
			break
		}
		v := ""
		switch {
		case a == "-n" || a == "--max-count":
			if i+1 < len(gitArgs) {
				i++
				v = gitArgs[i]
			}
		case strings.HasPrefix(a, "--max-count="):
			v = strings.TrimPrefix(a, "--max-count=")
		case strings.HasPrefix(a, "-n"):
			v = a[2:]
		case len(a) > 1 && a[0] == '-' && a[1] >= '0' && a[1] <= '9':
			v = a[1:]
		default:
			continue
		}
		if c, err := strconv.Atoi(v); err == nil {
			n, ok = max(c, 0), c >= 0 // a negative count is no limit
		}
	}
	return n, ok
}

// coreAbbrev is core.abbrev as the in-process settings have it (value,
// whether set), known false when they could not be read.
func (rc *readContext) coreAbbrev() (value string, set, known bool) {
	s := rc.settings()
	if s == nil {
		return "", false, false
	}
	value, set = s.Get("core.abbrev")
	return value, set, true
}

// logDecorate is log.decorate as the in-process settings have it, a
// boolean (even a bare key) as "true" or "false".
func (rc *readContext) logDecorate() (value string, set bool) {
	s := rc.settings()
	if s == nil {
		return "", false
	}
	if on, ok := s.Bool("log.decorate"); ok {
		return strconv.FormatBool(on), true
	}
	return s.Get("log.decorate")
}

// decorates says whether git log --oneline would show decorations: as
// log.decorate says (auto, the default: on a terminal or in git's pager),
// then as the last --decorate[=<style>] or --no-decorate says
// (builtin/log.c: parse_decoration_style). A value git refuses is off:
// git log then fails or, for the setting, decorates nothing.
func decorates(gitArgs []string, terminal bool, config func() (string, bool)) bool {
	d := terminal
	if v, set := config(); set {
		d = decorationStyle(v, terminal)
	}
	for _, a := range gitArgs {
		switch {
		case a == "--" || a == "--end-of-options":
			return d
		case a == "--decorate":
			d = true
		case strings.HasPrefix(a, "--decorate="):
			d = decorationStyle(strings.TrimPrefix(a, "--decorate="), terminal)
		case a == "--no-decorate":
			d = false
		}
	}
	return d
}

// decorationStyle is whether a log.decorate or --decorate value decorates:
// a boolean (any case), else "short", "full" or "auto", compared
// case-sensitively as git does (builtin/log.c: parse_decoration_style).
func decorationStyle(v string, terminal bool) bool {
	switch v {
	case "short", "full":
		return true
	case "auto":
		return terminal
	}
	switch strings.ToLower(v) {
	case "true", "yes", "on", "1":
		return true
	}
	return false // false, no, off, 0, or a value git refuses
}

// printLogEntry prints a commit's line (git's own with --oneline), its paths
// with --name-only, and its conversations, straight into the buffered
// output (no fmt: a thousand lines are a tenth of log's own CPU with it).
func printLogEntry(rc *readContext, opts logOptions, gc gitx.Commit, lcs []app.LinkedConversation) error {
	p := rc.io.Palette()
	w := rc.io.Out
	indent := "    "
	if opts.oneline {
		// git's line: the mark and hash in the commit color, the ref of
		// --source, the decorations, the subject; paths unindented.
		hash := gc.Abbrev
		if opts.fullHash {
			hash = gc.Hash
		}
		if m := revisionMark(opts, gc.Mark); m != "" {
			hash = m + " " + hash
		}
		w.WriteString(rc.gitPalette().Hash(hash))
		if opts.source && gc.Source != "" {
			w.WriteString("\t" + gc.Source)
		}
		w.WriteString(gc.Decoration) // git's own, colored
		if len(gc.Refs) > 0 {
			w.WriteString(" (" + strings.Join(gc.Refs, ", ") + ")")
		}
		w.WriteString(" " + gc.Subject + "\n")
		indent = ""
	} else {
		w.WriteString(p.Hash(gc.Abbrev))
		// git-convo's own line: the subject and name are outside text, shown
		// escaped (an escape in a commit message must not drive the terminal).
		// Written a piece at a time: the buffer is the one copy.
		w.WriteByte(' ')
		w.WriteString(term.Line(gc.Subject))
		w.WriteByte(' ')
		p.DimTo(w, "(", term.Line(gc.AuthorName), ", ", term.RelativeTime(gc.AuthorTime, rc.env.Now()), ")")
		w.WriteByte('\n')
	}
	for _, f := range gc.Files {
		w.WriteString(indent + f + "\n")
	}
	for _, lc := range lcs {
		pct := strconv.FormatFloat(lc.Confidence*100, 'f', 0, 64)
		w.WriteString("        ")
		w.WriteString(p.Key(lc.ConversationID, "●"))
		w.WriteByte(' ')
		w.WriteString(displayTitle(lc.Conv, lc.ConversationID))
		w.WriteByte(' ')
		p.DimTo(w, "(", pct, "% ", lc.Status, rc.env.agentSuffix(lc.Conv.Agent), sharedBy(lc, ", "), evidenceNote(lc.Link), ")")
		w.WriteByte('\n')
	}
	// A bufio.Writer keeps its first write error: Flush returns it.
	_, err := w.Write(nil)
	return err
}

// evidenceNote is what log adds to a link that rests on weaker evidence
// than lines found where the agent wrote them: the same words as show's.
func evidenceNote(l app.Link) string {
	switch l.Evidence() {
	case app.LinkEvidenceOverlap:
		if l.AddedLines > 0 {
			return "; edited the same files, wrote none of these lines"
		}
	case app.LinkEvidenceText:
		return "; lines matched by text only"
	case app.LinkEvidenceRewrite:
		return "; copied by rewrite"
	}
	return ""
}
