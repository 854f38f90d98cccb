package app

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/fetchwatch"
	"github.com/git-convo/git-convo/pkg/share/notes"
	"github.com/git-convo/git-convo/pkg/store/repokey"
	"github.com/git-convo/git-convo/pkg/write/hookrun"
	"github.com/git-convo/git-convo/pkg/write/ingest"
	"github.com/git-convo/git-convo/pkg/write/queue"
	"github.com/git-convo/git-convo/pkg/write/spool"
)

// The drains: the work to do before a read answers, in whatever front end.

// Hooks is what git-convo's hooks run in: the write path with the
// application's linking settings, and git notes shared after.
func (a *App) Hooks() hookrun.Options {
	p, err := a.DBPath()
	return hookrun.Options{
		DBPath: p, PathErr: err, Now: a.cfg.Now, Getenv: a.cfg.Getenv, Stderr: a.cfg.Stderr, Log: a.Log(), Resolver: repokey.Resolver(),
		Writer: a.Writer, Agents: a.cfg.Agents, Recorder: a.Recorder, Pulled: a.SquashesAfterPull, Spawn: a.spawn,
	}
}

// How long a drain waits for another process's drain: a read waits so
// that it answers with the queued commits recorded (BeforeRead); a
// background drain has time.
const (
	ReadDrainWait       = hookrun.ReadDrainWait
	BackgroundDrainWait = hookrun.BackgroundDrainWait
)

// Capture records one agent hook's payload on stdin, for src (an agent's
// hook: capture), and replies on stdout as its hooks expect. It never
// fails the agent (hookrun.Options.Capture).
func (a *App) Capture(ctx context.Context, src source.Source, event string, stdin io.Reader, stdout io.Writer) {
	a.Hooks().Capture(ctx, src, event, stdin, stdout)
}

// RecordHook records what git's hook (post-commit, post-merge,
// post-rewrite) says of the work tree at dir. It never fails the commit
// (hookrun.Options.RecordHook).
func (a *App) RecordHook(ctx context.Context, hook, dir string, stdin io.Reader) {
	a.Hooks().RecordHook(ctx, hook, dir, stdin)
}

// spawn starts git-convo in the background (Config.Spawn).
func (a *App) spawn(args ...string) error {
	if a.cfg.Spawn == nil {
		return errors.New("this process starts no git-convo")
	}
	return a.cfg.Spawn(args...)
}

// Writer is the write path into s: the agents, the linking settings, the
// error log, and the shared note rewritten when an agent's own commit is
// linked.
func (a *App) Writer(ctx context.Context, s *Store) ingest.Writer {
	return ingest.Writer{Store: s, Now: a.cfg.Now, Getenv: a.cfg.Getenv, Agents: a.cfg.Agents, Config: NewConfigCache(ctx).Get, Log: a.Log(),
		AgentCommitLinked: a.shareSoon}
}

// Recorder records commits of repo into s, sharing their links after.
func (a *App) Recorder(ctx context.Context, repo *gitx.Repo, s *Store) *ingest.Recorder {
	r := a.Writer(ctx, s).Recorder(repo)
	r.Shared = func(ctx context.Context, hashes ...string) { a.ShareAfter(ctx, repo.TopLevel, s, hashes...) }
	r.Rewrote = func(ctx context.Context, pairs [][2]string) {
		if repo.CommonDir == "" { // a repository opened without asking git: nowhere known to keep them
			a.Log().Printf("rewrite", "keeping the rewritten commits: no git common dir")
			return
		}
		if err := notes.RecordRewrites(repo.CommonDir, pairs); err != nil {
			a.Log().Printf("rewrite", "keeping the rewritten commits: %v", err)
		}
	}
	return r
}

// NewRecorder opens the repository at dir and the store, for recording
// its commits; the caller closes r.Store.
func (a *App) NewRecorder(ctx context.Context, dir string, scrub bool) (*ingest.Recorder, error) {
	repo, err := gitx.Open(ctx, dir, scrub)
	if err != nil {
		return nil, err
	}
	s, err := a.OpenStore(ctx, false)
	if err != nil {
		return nil, err
	}
	return a.Recorder(ctx, repo, s), nil
}

// NewConfigCache reads each repository's convo.* settings once, with the
// process's environment, as the git it replaces did.
func NewConfigCache(ctx context.Context) ingest.ConfigCache {
	return ingest.NewConfigCache(ctx, os.Getenv)
}

// BeforeRead is the work to do before a read answers, in any front end:
// recording the agents' events the captures spooled, then the commits the
// git hooks queued, and recognising the squash merges a plain git fetch
// brought into the repository at dir. It is the one place for such work;
// wait bounds how long it waits for another process doing the same.
func (a *App) BeforeRead(ctx context.Context, dir string, wait time.Duration) {
	a.Hooks().DrainQueue(ctx, nil, wait)
	a.SquashesAfterFetch(ctx, dir)
}

// Drain is the read drain of a front end that lives long and answers
// often (the MCP server), for the repository at dir: in full when a plain
// git fetch happened there since the last read, else only when the spool
// or the queue holds something (two stats otherwise).
func (a *App) Drain(dir string) func(context.Context) {
	dbPath, err := a.DBPath()
	return func(ctx context.Context) {
		if common, ok := fetchwatch.Locate(dir, a.cfg.Getenv); ok && fetchwatch.Due(common) {
			a.BeforeRead(ctx, dir, hookrun.BackgroundDrainWait)
			return
		}
		if err != nil || !spool.Waiting(spool.Dir(dbPath)) && !queue.Pending(queue.Dir(dbPath)) {
			return
		}
		a.BeforeRead(ctx, dir, hookrun.BackgroundDrainWait) // a failed drain keeps the queue; the answer goes on
	}
}

// QueueDir is the queue beside the links database.
func (a *App) QueueDir() (string, error) {
	p, err := a.DBPath()
	if err != nil {
		return "", err
	}
	return queue.Dir(p), nil
}

// fetchScanLimit is how many commits a plain git fetch brought one read
// examines for squash merges; the rest wait for the next read.
const fetchScanLimit = 100

// watchedNotes are the notes refs whose move by a fetch has the next read
// look again at the remote's last 100 commits: a squash merge fetched
// before the notes it matches had nothing to match then.
func watchedNotes() fetchwatch.Notes {
	return fetchwatch.Notes{Tracking: notes.TrackingPrefix, Suffix: notes.TrackingSuffix, Ref: notes.Ref, Recheck: 100}
}

// SquashesAfterFetch recognises the squash merges that plain git fetches
// brought into the repository at dir (git runs no hook on fetch), before
// a read answers: the next batch of the commits they brought, attributed
// as git convo fetch does (with sharing on, written to refs/notes/convo
// for the next push). When a fetch moved teammates' notes it also looks
// again at the recent commits this clone has no links for. With no fetch
// since the last read it costs a stat of FETCH_HEAD and a read of a small
// stamp. Errors go to the log.
func (a *App) SquashesAfterFetch(ctx context.Context, dir string) {
	common, ok := fetchwatch.Locate(dir, a.cfg.Getenv)
	if !ok || !fetchwatch.Due(common) {
		return
	}
	b, err := fetchwatch.Take(ctx, dir, common, fetchScanLimit, watchedNotes())
	g := notes.Git{Dir: dir}
	if err == nil && len(b.Recheck) > 0 {
		var again []string
		again, err = a.unlinked(ctx, b.Recheck)
		b.Commits = append(b.Commits, again...)
	}
	if err == nil && len(b.Commits) > 0 && hasNotes(ctx, g) {
		var s notes.Settings
		if s, err = g.Settings(ctx); err == nil {
			_, err = a.attributeSquashesIn(ctx, g, s, append([]string{"--no-walk"}, b.Commits...)...)
		}
	}
	if err != nil && !errors.Is(err, fs.ErrPermission) { // a read-only repository is no fault
		a.Log().Printf("share", "recognising squash merges after a fetch: %v", err)
	}
}

// unlinked keeps the commits of hashes that have no link in the local
// database: a commit this clone linked is its own work, not a squash merge;
// so is one whose every link was unlinked by hand (a derived link must not
// bring one back).
func (a *App) unlinked(ctx context.Context, hashes []string) ([]string, error) {
	s, err := a.openExisting(ctx)
	if err != nil || s == nil {
		return hashes, err // no database yet: nothing is linked
	}
	defer s.Close()
	linked, err := s.ConversationsForCommits(ctx, hashes)
	if err != nil {
		return nil, err
	}
	withdrawn, err := s.HaveUnlinks(ctx, hashes)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, h := range hashes {
		if len(linked[h]) == 0 && !withdrawn[h] {
			out = append(out, h)
		}
	}
	return out, nil
}

// hasNotes reports whether any notes ref exists (read from the ref files
// when it can be): without notes there is nothing to match.
func hasNotes(ctx context.Context, g notes.Git) bool {
	refs, err := g.SharedRefs(ctx)
	return err != nil || len(refs) > 0
}

// SquashesAfterPull recognises squash merges among the commits the last n
// merges or pulls of repo brought (their post-merge hooks queued n
// records): a plain git pull is enough, in any clone that has the notes.
// It runs in the drain, never in the hook; a repository without notes pays
// one git for-each-ref. Errors go to the log.
func (a *App) SquashesAfterPull(ctx context.Context, repo *gitx.Repo, n int) {
	merges, err := repo.Merges(n)
	if err != nil || len(merges) == 0 {
		return
	}
	// Everything the merges brought: their new tips, less what HEAD had
	// before the first of them.
	var revs []string
	if strings.Trim(merges[0].Old, "0") != "" {
		revs = append(revs, "^"+merges[0].Old)
	}
	for _, m := range merges {
		revs = append(revs, m.New)
	}
	g := NotesGit(repo)
	s, err := g.Settings(ctx)
	if err == nil {
		_, err = a.attributeSquashesIn(ctx, g, s, revs...)
	}
	if err != nil {
		a.Log().Printf("share", "recognising squash merges after a pull: %v", err)
	}
}

// readWait bounds how long a read waits for another process draining.
const readWait = hookrun.ReadDrainWait
