package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/util/term"
	"github.com/git-convo/git-convo/pkg/write/hookrun"
	"github.com/git-convo/git-convo/pkg/write/ingest"
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
				return interrupted(context.Canceled, "part of the work")
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

type importSummary struct {
	conversations, imported, commitsScanned, commitsRelevant, links int
	bySource                                                        map[string]int
	newLinks                                                        []string
}

func runImport(ctx context.Context, env *Env, o importOptions) error {
	repo, err := gitx.Open(ctx, ".", false)
	if err != nil {
		return err
	}
	s, cleanup, err := importStore(ctx, env, o.dryRun)
	if err != nil {
		return err
	}
	defer cleanup()
	progress := newProgress(env)
	w := env.writer(ctx, s)
	sum, found, err := importAgents(ctx, env, w, repo, o.limit, progress)
	if err != nil {
		return importError(err)
	}

	args := o.revs
	if len(args) == 0 {
		since, err := parseSince(ctx, o.since, env.Now())
		if err != nil {
			return usagef("--since=%s: %v", o.since, err)
		}
		args = []string{"HEAD"}
		if since.Unix() > 0 { // git log reads no date before 1970: every commit is after it
			args = []string{"--since=" + since.Format(time.RFC3339), "HEAD"}
		}
	}
	// Earlier runs' conversations count too (resume): found holds every
	// conversation found, imported now or not.
	past, err := w.LinkPast(ctx, repo, found, args, func(i, n int) { progress.step("commits", i, n) })
	if err != nil {
		return importError(err)
	}
	sum.commitsScanned, sum.commitsRelevant = past.Scanned, len(past.Relevant)
	for _, l := range past.New {
		sum.links++
		sum.newLinks = append(sum.newLinks, fmt.Sprintf("%s %s  ←  %s (%.0f%%: %s)", gitx.ShortHash(l.Hash)[:7], oneLine(l.Subject, 50),
			l.ConversationID, l.Score*100, l.Reason))
	}
	progress.done()
	shareAfter(ctx, env, repo.TopLevel, s, past.Relevant...)
	printImportSummary(env, o, sum)
	return nil
}

// importAgents records every agent's conversations of this repository's
// work trees (at most limit of them, when limit > 0) and returns the
// summary so far and the ids of every conversation found.
func importAgents(ctx context.Context, env *Env, w ingest.Writer, repo *gitx.Repo, limit int, progress *progress) (importSummary, []string, error) {
	// Conversations in any work tree of this repository belong to it; this
	// one comes first.
	roots := []string{repo.TopLevel}
	if trees, err := repo.Worktrees(ctx); err == nil {
		for _, t := range trees {
			if t != repo.TopLevel {
				roots = append(roots, t)
			}
		}
	}
	found, err := w.ImportAll(ctx, env.Agents.All(env.Getenv), roots, limit, ingest.ImportProgress{
		Listing: func(src source.Source) {
			where, _ := env.Agents.Where(src.Name(), env.Getenv) // "" when it cannot be located
			progress.say("finding this repository's %s conversations in %s", env.Agents.Display(src.Name()), where)
		},
		Step: func(src source.Source, i, n int) {
			if i > 0 {
				progress.step(env.Agents.Display(src.Name()), i, n)
			} else {
				progress.done()
			}
		},
	})
	if err != nil {
		return importSummary{}, nil, err
	}
	progress.done()
	return importSummary{conversations: len(found.IDs), imported: found.Imported, bySource: found.Via}, found.IDs, nil
}

// importStore is the links database, or for --dry-run a throwaway copy of it
// (VACUUM INTO), so the dry run computes exactly what the import would do.
func importStore(ctx context.Context, env *Env, dryRun bool) (*store.Store, func(), error) {
	beforeRead(ctx, env, hookrun.ReadDrainWait) // the spooled events and queued commits first
	if !dryRun {
		s, err := env.openStore(ctx, false)
		return s, func() {
			if s != nil {
				s.Close()
			}
		}, err
	}
	dir, err := os.MkdirTemp("", "git-convo-dry-run-")
	if err != nil {
		return nil, nil, err
	}
	copyPath := filepath.Join(dir, "links.sqlite")
	// A dry run creates nothing: with no database yet, it starts from an
	// empty one of its own.
	if p, perr := env.dbPath(); perr != nil || fileExists(p) {
		s, err := env.openStore(ctx, true)
		if err == nil {
			err = s.CopyTo(ctx, copyPath)
			s.Close()
		}
		if err != nil {
			os.RemoveAll(dir)
			return nil, nil, err
		}
	}
	c, err := store.Open(ctx, copyPath, store.Options{Now: env.Now})
	if err != nil {
		os.RemoveAll(dir)
		return nil, nil, err
	}
	return c, func() { c.Close(); os.RemoveAll(dir) }, nil
}

// importError is err as import reports it: work Ctrl-C stopped part way
// (ingest.Interrupted) says how far it got and how to finish.
func importError(err error) error {
	var ie ingest.Interrupted
	if errors.As(err, &ie) {
		return interrupted(ie.Err, ie.What)
	}
	return err
}

func interrupted(err error, what string) error {
	if err == context.Canceled {
		return fmt.Errorf("interrupted after %s; the database is consistent: run git convo import again to finish", what)
	}
	return err
}

func printImportSummary(env *Env, o importOptions, sum importSummary) {
	w := env.Stdout
	verb := "made"
	if o.dryRun {
		verb = "that would be made"
		for _, l := range sum.newLinks {
			fmt.Fprintln(w, term.Line(l))
		}
		if len(sum.newLinks) > 0 {
			fmt.Fprintln(w)
		}
	}
	var sources []string
	for v, n := range sum.bySource {
		sources = append(sources, fmt.Sprintf("%s %d", v, n))
	}
	sort.Strings(sources)
	imported := "imported now"
	if o.dryRun {
		imported = "would import"
	}
	fmt.Fprintf(w, "conversations found: %d (%s); %s: %d\n", sum.conversations, strings.Join(sources, ", "), imported, sum.imported)
	fmt.Fprintf(w, "commits scanned: %d, sharing files with them: %d\n", sum.commitsScanned, sum.commitsRelevant)
	fmt.Fprintf(w, "links %s: %d new\n", verb, sum.links)
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

// prototypePath is the prototype's links.sqlite at its default location,
// when it is there and is not git-convo's own database (a user who pointed
// CURSOR_LINKS_DB_PATH at it has it adopted in place instead).
func (env *Env) prototypePath() (string, bool) {
	p, err := store.DefaultPrototypePath(env.Getenv, runtime.GOOS)
	if err != nil {
		return "", false
	}
	if fi, err := os.Stat(p); err != nil || fi.IsDir() {
		return "", false
	}
	if ours, err := env.dbPath(); err == nil && sameFile(ours, p) {
		return "", false
	}
	return p, true
}

func sameFile(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

func runImportPrototype(ctx context.Context, env *Env, path string, dryRun bool) error {
	if path == "" {
		p, err := store.DefaultPrototypePath(env.Getenv, runtime.GOOS)
		if err != nil {
			return err
		}
		path = p
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	if _, err := os.Stat(abs); err != nil {
		return fmt.Errorf("no prototype database at %s: name it (git convo import --from-prototype <path>)", abs)
	}
	if ours, err := env.dbPath(); err == nil && sameFile(ours, abs) {
		return fmt.Errorf("%s is git-convo's own database (GIT_CONVO_DB / CURSOR_LINKS_DB_PATH): a prototype database there is adopted in place when opened, nothing to import", abs)
	}
	s, cleanup, err := importStore(ctx, env, dryRun)
	if err != nil {
		return err
	}
	defer cleanup()
	n, err := s.ImportPrototype(ctx, abs, *resolver())
	if err != nil {
		return fmt.Errorf("importing %s: %w", abs, err)
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
	p, ok := env.prototypePath()
	if !ok {
		return nil
	}
	if at := prototypeImportedAt(ctx, env, p); at != "" {
		return []check{{Name: "prototype db", OK: true, Detail: p + ": imported " + at}}
	}
	return []check{{Name: "prototype db", OK: true, Warn: true,
		Detail: p + ": the prototype's links (cursor-chat-history-mcp) are not in git-convo's database yet",
		Fix:    "git convo import --from-prototype"}}
}

// prototypeImportedAt is when the prototype's database at p was imported
// ("" if never), read without creating git-convo's database.
func prototypeImportedAt(ctx context.Context, env *Env, p string) string {
	dbPath, err := env.dbPath()
	if err != nil {
		return ""
	}
	s, err := store.Open(ctx, dbPath, store.Options{MustExist: true, Resolver: resolver()})
	if err != nil {
		return ""
	}
	defer s.Close()
	at, _ := s.Meta(ctx, store.PrototypeImportedKey(p))
	return at
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
