package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/autolink"
	"github.com/git-convo/git-convo/pkg/gitx"
	"github.com/git-convo/git-convo/pkg/link"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/term"
)

// catchUp bounds how many unrecorded ancestors a post-commit run records: the
// worker resolves HEAD a moment after the commit, so a script committing twice
// in quick succession must not leave the first commit out.
const (
	catchUpCommits = 8
	catchUpWindow  = 10 * time.Minute
)

func recordCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "record",
		Usage:     "record commits and link them to conversations; the post-commit hook runs this",
		UsageText: "git convo record [-v] [<rev>...]\ngit convo record --hook=post-commit\ngit convo record --hook=post-rewrite --rewrite-type=<amend|rebase> < old-new-pairs",
		Description: `Reads each commit (default HEAD) with go-git: hash, branch, author, subject, time and
the files changed against its first parent. It stores it in links.sqlite and links it to
the conversations that edited those files recently (see docs/linking.md).

With --hook the command was started by a git hook: it never prints and never fails; errors
go to the log that "git convo doctor" shows. GIT_CONVO=0 turns the hooks off.
post-rewrite (after amend and rebase) carries every link to the rewritten commits.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "hook", Usage: "started by this git hook (post-commit, post-merge, post-rewrite), or drain: record the queued commits"},
			&cli.StringFlag{Name: "rewrite-type", Usage: "post-rewrite's argument: amend or rebase"},
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "explain every candidate conversation's score"},
		},
		Action: func(c *cli.Context) error {
			if env.Getenv("GIT_CONVO") == "0" {
				return nil
			}
			hook := c.String("hook")
			if hook == "" {
				drainQueue(c.Context, env, nil, readDrainWait)
				return recordRevs(c.Context, env, c.Args().Slice(), c.Bool("verbose"))
			}
			if env.Getenv("GIT_CONVO_SYNC") != "1" {
				detach()
			}
			if err := recordHook(c.Context, env, hook); err != nil {
				env.log().Printf("record", "%s: %v", hook, err)
			}
			return nil // a hook never fails the commit
		},
	}
}

// recorder records commits of one repository.
type recorder struct {
	env    *Env
	repo   *gitx.Repo
	store  *store.Store
	linker *autolink.Linker
}

func newRecorder(ctx context.Context, env *Env, dir string, scrub bool) (*recorder, error) {
	repo, err := gitx.Open(ctx, dir, scrub)
	if err != nil {
		return nil, err
	}
	s, err := env.openStore(ctx, false)
	if err != nil {
		return nil, err
	}
	return recorderFor(ctx, env, repo, s), nil
}

func recorderFor(ctx context.Context, env *Env, repo *gitx.Repo, s *store.Store) *recorder {
	cfg := newConfigCache(ctx)
	return &recorder{env: env, repo: repo, store: s, linker: &autolink.Linker{Store: s, Config: cfg.get}}
}

func (r *recorder) Close() { r.store.Close() }

// record reads one commit, stores it and links it.
func (r *recorder) record(ctx context.Context, rev, source string) (*gitx.Commit, []autolink.Decision, error) {
	return r.recordOn(ctx, rev, "", source)
}

// recordOn is record with the branch the commit was made on, when the
// reflog told it ("": HEAD's branch if the commit is its tip).
func (r *recorder) recordOn(ctx context.Context, rev, branch, source string) (*gitx.Commit, []autolink.Decision, error) {
	c, err := r.repo.ReadCommit(ctx, rev)
	if err != nil {
		return nil, nil, err
	}
	if branch != "" {
		c.Branch = branch
	}
	sc := store.Commit{
		Hash:        c.Hash,
		RepoPath:    r.repo.TopLevel,
		RepoKey:     repoKey(r.repo.CommonDir),
		Branch:      c.Branch,
		Author:      c.Author,
		Message:     c.Subject,
		CommittedAt: c.CommitTime,
		ParentCount: len(c.Parents),
	}
	for _, f := range c.Files {
		sc.Files = append(sc.Files, link.NormPath(f))
		sc.FileKeys = append(sc.FileKeys, pathKey(f))
	}
	// git's diff of the commit (the slow part of a large commit) runs while
	// the commit is stored and its candidate conversations are looked up.
	type diffResult struct {
		lines map[string][]gitx.AddedLine
		err   error
	}
	diff := make(chan diffResult, 1)
	go func() {
		if c.IsMerge() {
			// A merge brings no lines of its own: what its diff against the
			// first parent adds, the merged commits wrote. It links to
			// nothing by itself (file overlap alone never links a merge).
			diff <- diffResult{}
			return
		}
		lines, err := r.repo.AddedLines(ctx, c)
		diff <- diffResult{lines, err}
	}()
	if err := r.store.UpsertCommit(ctx, sc); err != nil {
		<-diff
		return nil, nil, err
	}
	r.refreshStale(ctx)
	d, err := r.linker.LinkCommitWhen(ctx, c.Hash, source, func() error {
		res := <-diff
		if res.err == nil {
			res.err = r.attributeLines(ctx, res.lines, sc)
		}
		if res.err != nil {
			return fmt.Errorf("line attribution of %s: %w", shortHash(c.Hash), res.err)
		}
		return nil
	})
	shareAfter(ctx, r.env, r.repo.TopLevel, r.store, c.Hash)
	return c, d, err
}

// attributeLines matches the commit's added lines against the lines the
// agents' edits wrote (captured from the hooks) and stores, per line, the
// conversation and prompt that wrote it. The most recent edit that wrote a
// line in the same file wins; a line moved to another file still matches.
func (r *recorder) attributeLines(ctx context.Context, added map[string][]gitx.AddedLine, sc store.Commit) error {
	type ref struct {
		path string
		line int
		hash int64
	}
	var refs []ref
	counts := map[string]*store.FileLines{}
	seen := map[int64]bool{}
	var hashes []int64
	for path, lines := range added {
		fl := &store.FileLines{Path: link.NormPath(path), PathKey: pathKey(path)}
		counts[path] = fl
		for _, l := range lines {
			if !link.Countable(l.Text) {
				continue
			}
			h := link.LineHash(l.Text)
			refs = append(refs, ref{path, l.Line, h})
			fl.Added++
			if !seen[h] {
				seen[h] = true
				hashes = append(hashes, h)
			}
		}
	}
	cfg := r.linker.Config
	window := link.DefaultConfig()
	if cfg != nil {
		window = cfg(sc.RepoPath)
	}
	commitMs := sc.CommittedAt.UnixMilli()
	evidence, err := r.store.LineEvidence(ctx, sc.RepoKey, hashes, commitMs-window.Window.Milliseconds(), commitMs+window.Skew.Milliseconds())
	if err != nil {
		return err
	}
	var lines []store.CommitLine
	for _, rf := range refs {
		key := pathKey(rf.path)
		var best *store.Evidence
		for i, e := range evidence[rf.hash] {
			samePath, bestSame := e.PathKey == key, best != nil && best.PathKey == key
			if best == nil || (samePath && !bestSame) || (samePath == bestSame && e.AtMs > best.AtMs) {
				best = &evidence[rf.hash][i]
			}
		}
		if best == nil {
			continue
		}
		lines = append(lines, store.CommitLine{Path: link.NormPath(rf.path), Line: rf.line, ConversationID: best.ConversationID, GenerationID: best.GenerationID})
		counts[rf.path].Agent++
	}
	files := make([]store.FileLines, 0, len(counts))
	for _, fl := range counts {
		files = append(files, *fl)
	}
	return r.store.SetCommitLines(ctx, sc.Hash, files, lines)
}

// refreshStale re-reads from Cursor the few recently active conversations whose
// last rows may not have been flushed at stop, before linking (bounded: this
// runs in the background after every commit).
func (r *recorder) refreshStale(ctx context.Context) {
	ids, err := r.store.StaleEnrichment(ctx, r.env.Now().Add(-2*time.Hour).UnixMilli(), 3)
	if err != nil {
		return
	}
	for _, id := range ids {
		if err := r.env.writer(ctx, r.store).EnrichCursor(ctx, id); err != nil {
			_ = r.store.MarkEnrichError(ctx, id, err.Error())
		}
	}
}

func recordHook(ctx context.Context, env *Env, hook string) error {
	if hook == "drain" {
		// Started by a capture (or anything else) in any directory: the
		// queue says which work trees to read.
		drainQueue(ctx, env, nil, backgroundDrainWait)
		return nil
	}
	repo, err := gitx.Open(ctx, ".", true)
	if err != nil {
		return err
	}
	// Read what the hook is about before the database, so that if the
	// database cannot be written the work is spooled, not lost.
	var head *gitx.Commit
	var pairs [][2]string
	switch hook {
	case "post-commit":
		if head, err = repo.ReadCommit(ctx, "HEAD"); err != nil {
			return err
		}
	case "post-merge":
		// The queue and the reflog say whether the merge made a commit: a
		// fast-forward (a pull) makes none, and HEAD is then someone
		// else's commit, not this work tree's to record.
	case "post-rewrite":
		pairs = rewritePairs(env.Stdin)
	default:
		return fmt.Errorf("unknown hook %q", hook)
	}
	s, err := env.openStore(ctx, false)
	if err != nil {
		e := spooled{Repo: repo.TopLevel, Rewrite: pairs, AtMs: env.Now().UnixMilli()}
		if head != nil {
			e.Commit = head.Hash
		}
		return spoolEntry(env, e, err)
	}
	r := recorderFor(ctx, env, repo, s)
	defer r.Close()
	drainSpool(ctx, env, r.store) // Cursor events kept while the database was unavailable
	// The commits the hooks queued, this one among them.
	drainQueue(ctx, env, r.store, backgroundDrainWait)
	switch hook {
	case "post-merge":
		return nil
	case "post-commit":
		// A block of an older version queues nothing: record HEAD (a
		// no-op when the queue had it).
		done, err := r.store.RecordedCommits(ctx, []string{head.Hash})
		if err != nil || done[head.Hash] {
			return err
		}
		return r.recordHead(ctx)
	default: // post-rewrite
		return r.rewrite(ctx, pairs)
	}
}

// catchUp records first-parent ancestors of c that were committed moments
// before it and are not recorded yet.
func (r *recorder) catchUp(ctx context.Context, c *gitx.Commit) error {
	for range catchUpCommits {
		if len(c.Parents) == 0 {
			return nil
		}
		parent := c.Parents[0]
		done, err := r.store.RecordedCommits(ctx, []string{parent})
		if err != nil || done[parent] {
			return err
		}
		p, _, err := r.record(ctx, parent, store.LinkSourceHook)
		if err != nil {
			return err
		}
		if c.CommitTime.Sub(p.CommitTime) > catchUpWindow {
			return nil
		}
		c = p
	}
	return nil
}

// rewritePairs reads post-rewrite's "<old> <new> [extra]" lines.
func rewritePairs(in io.Reader) [][2]string {
	var out [][2]string
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) >= 2 {
			out = append(out, [2]string{f[0], f[1]})
		}
	}
	return out
}

// rewrite records each new commit of an amend or rebase and carries every
// link of the old one over.
func (r *recorder) rewrite(ctx context.Context, pairs [][2]string) error {
	for _, p := range pairs {
		if _, _, err := r.record(ctx, p[1], store.LinkSourceHook); err != nil {
			return err
		}
		if err := r.store.MarkRewritten(ctx, p[0], p[1]); err != nil {
			return err
		}
		shareAfter(ctx, r.env, r.repo.TopLevel, r.store, p[1])
	}
	return nil
}

func recordRevs(ctx context.Context, env *Env, revs []string, verbose bool) error {
	if len(revs) == 0 {
		revs = []string{"HEAD"}
	}
	r, err := newRecorder(ctx, env, ".", false)
	if err != nil {
		return err
	}
	defer r.Close()
	for _, h := range revs {
		if h != "HEAD" && !gitx.IsFullHash(h) {
			resolved, err := r.repo.RevParse(ctx, h)
			if err != nil {
				return err
			}
			h = resolved[0]
		}
		c, decisions, err := r.record(ctx, h, store.LinkSourceRelink)
		if err != nil {
			return err
		}
		linked := 0
		for _, d := range decisions {
			if d.Linked {
				linked++
			}
		}
		fmt.Fprintf(env.Stdout, "recorded %s %s: %d conversation%s linked\n", shortHash(c.Hash), c.Subject, linked, plural(linked))
		if verbose {
			for _, d := range decisions {
				verdict := "linked"
				if !d.Linked {
					verdict = "not linked: " + d.Skipped
				}
				fmt.Fprintf(env.Stdout, "  %s score %.2f (%s) %s\n", term.Line(d.ConversationID), d.Score, term.Line(d.Reason), verdict)
			}
		}
	}
	return nil
}

func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// configCache loads each repository's convo.* settings once per process.
type configCache struct {
	ctx    context.Context
	getenv func(string) string
	byID   map[string]link.Config
}

// newConfigCache reads with the process's environment, as the git it
// replaces did.
func newConfigCache(ctx context.Context) *configCache {
	return &configCache{ctx: ctx, getenv: os.Getenv, byID: map[string]link.Config{}}
}

func (c *configCache) get(repoPath string) link.Config {
	if cfg, ok := c.byID[repoPath]; ok {
		return cfg
	}
	cfg := link.DefaultConfig()
	if repoPath != "" {
		if s, err := gitx.LoadSettings(c.ctx, repoPath, c.getenv); err == nil {
			if parsed, err := link.ParseConfig(s.Prefixed("convo.")); err == nil {
				cfg = parsed
			}
		}
	}
	c.byID[repoPath] = cfg
	return cfg
}
