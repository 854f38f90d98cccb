package ingest

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/git-convo/git-convo/pkg/attribution/link"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/store/repokey"
	"github.com/git-convo/git-convo/pkg/write/autolink"
)

// catchUp bounds how many unrecorded ancestors a post-commit run records: the
// worker resolves HEAD a moment after the commit, so a script committing twice
// in quick succession must not leave the first commit out.
const (
	catchUpCommits = 8
	catchUpWindow  = 10 * time.Minute
)

// extraCommits bounds how many unrecorded commits before the queued ones a
// drain also records when no recorded commit comes before them: a hook
// appends its record a moment after git wrote the reflog, so a drain can
// see a commit before its record.
const extraCommits = 8

// catchUpMax bounds how far back in the reflog a drain looks for the last
// recorded commit: every unrecorded commit after it is recorded too (its
// queue record was lost: a full disk, a FIFO at the queue).
const catchUpMax = 500

// Recorder records commits of one repository: stores each, attributes its
// added lines to the agents' edits, and links it to conversations.
type Recorder struct {
	Writer
	Repo   *gitx.Repo
	Linker *autolink.Linker
	// Shared is called with the commits just recorded or rewritten (the
	// caller shares their links in git notes); nil: nothing.
	Shared func(ctx context.Context, hashes ...string)
	// Rewrote is called with an amend's or a rebase's (old, new) pairs
	// before they are recorded (the caller keeps them, so that records
	// git copied from old to new are read for new); nil: nothing.
	Rewrote func(ctx context.Context, pairs [][2]string)

	refreshed bool // refreshStale ran: once per Recorder, not per commit
	claimed   bool // claimUnplaced ran: once per Recorder
	// read holds commits read ahead with their added lines (RecordNew:
	// one git diff for the whole run), taken by recordOn.
	read     map[string]readAhead
	oneByOne bool // no read ahead: each commit's diff by its own git (tests)

	plainOnce sync.Once // objectTimes, asked once
	plain     bool
}

// objectTimes says whether the commits this recorder reads carry their
// objects' own committer times: not where replace refs or grafts change
// what git shows (gitx.PlainObjects). Only such a time lets log find the
// commit's links by it (store.Commit.ObjectTime).
func (r *Recorder) objectTimes() bool {
	r.plainOnce.Do(func() {
		getenv := r.Getenv
		if getenv == nil {
			getenv = os.Getenv
		}
		r.plain = r.Repo.PlainObjects(getenv)
	})
	return r.plain
}

type readAhead struct {
	c     *gitx.Commit
	lines map[string][]gitx.AddedLine
}

// readAheadMax bounds the commits whose diffs are held at once.
const readAheadMax = 64

// readAhead reads the commits of hashes and their added lines, the lines
// with one git for all of them, for recordOn to take. What it cannot read
// is left to recordOn, which reads it alone as before (and fails as before).
func (r *Recorder) readAhead(ctx context.Context, hashes []string) {
	var commits []*gitx.Commit
	for _, h := range hashes {
		if c, err := r.Repo.ReadCommit(ctx, h); err == nil {
			commits = append(commits, c)
		}
	}
	lines, err := r.Repo.AddedLinesOf(ctx, commits)
	if err != nil {
		r.Log.Printf("record", "reading %d commits' diffs in one git: %v (read one by one)", len(commits), err)
		return
	}
	r.read = make(map[string]readAhead, len(commits))
	for _, c := range commits {
		r.read[c.Hash] = readAhead{c, lines[c.Hash]}
	}
}

// Recorder is a recorder of repo into w's store, linking with w's settings.
func (w Writer) Recorder(repo *gitx.Repo) *Recorder {
	return &Recorder{Writer: w, Repo: repo, Linker: &autolink.Linker{Store: w.Store, Config: w.Config}}
}

func (r *Recorder) shared(ctx context.Context, hashes ...string) {
	if r.Shared != nil {
		r.Shared(ctx, hashes...)
	}
}

// Record reads one commit, stores it and links it.
func (r *Recorder) Record(ctx context.Context, rev, source string) (*gitx.Commit, []autolink.Decision, error) {
	return r.recordOn(ctx, rev, "", source)
}

// recordOn is Record with the branch the commit was made on, when the
// reflog told it ("": HEAD's branch if the commit is its tip).
func (r *Recorder) recordOn(ctx context.Context, rev, branch, source string) (*gitx.Commit, []autolink.Decision, error) {
	ahead, isAhead := r.read[rev]
	delete(r.read, rev)
	c := ahead.c
	if !isAhead {
		var err error
		if c, err = r.Repo.ReadCommit(ctx, rev); err != nil {
			return nil, nil, err
		}
	}
	r.claimUnplaced(ctx)
	if branch != "" {
		c.Branch = branch
	}
	sc := store.Commit{
		Hash:        c.Hash,
		RepoPath:    r.Repo.TopLevel,
		RepoKey:     repokey.Of(r.Repo.CommonDir),
		Branch:      c.Branch,
		Author:      c.Author,
		Message:     c.Subject,
		CommittedAt: c.CommitTime,
		ObjectTime:  r.objectTimes(),
		ParentCount: len(c.Parents),
		MadeMs:      r.Repo.MadeMs(c.Hash, c.CommitTime),
	}
	for _, f := range c.Files {
		sc.Files = append(sc.Files, link.NormPath(f))
		sc.FileKeys = append(sc.FileKeys, repokey.PathKey(f))
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
		if isAhead {
			diff <- diffResult{ahead.lines, nil}
			return
		}
		lines, err := r.Repo.AddedLines(ctx, c)
		diff <- diffResult{lines, err}
	}()
	if err := r.Store.UpsertCommit(ctx, sc); err != nil {
		<-diff
		return nil, nil, err
	}
	r.refreshStale(ctx)
	d, err := r.Linker.LinkCommitWhen(ctx, c.Hash, source, func() error {
		res := <-diff
		if res.err == nil {
			res.err = r.AttributeLines(ctx, res.lines, sc)
		}
		if res.err != nil {
			return fmt.Errorf("line attribution of %s: %w", gitx.ShortHash(c.Hash), res.err)
		}
		return nil
	})
	r.shared(ctx, c.Hash)
	return c, d, err
}

// claimUnplaced gives this repository what agents touched and wrote under
// its work tree while no repository could be found for it (its git dir is
// elsewhere, named by GIT_DIR and GIT_WORK_TREE, which the agent's hook did
// not see): before this commit is linked. Once per Recorder.
func (r *Recorder) claimUnplaced(ctx context.Context) {
	if r.claimed || r.Repo.TopLevel == "" {
		return
	}
	r.claimed = true
	if _, err := r.Store.ClaimUnplaced(ctx, repokey.Of(r.Repo.CommonDir), r.Repo.TopLevel, repokey.PathKey); err != nil {
		r.Log.Printf("record", "claiming edits made outside any repository found: %v", err)
	}
}

// refreshStale re-reads from their agents the few recently active
// conversations of late writers (source.LateWriter) whose last rows may not
// have been flushed at stop, before linking (bounded: this
// runs in the background after a commit: once per Recorder, however many
// commits a drain, rebase or relink records).
func (r *Recorder) refreshStale(ctx context.Context) {
	if r.refreshed {
		return
	}
	r.refreshed = true
	ids, err := r.Store.StaleEnrichment(ctx, r.Agents.LateWriters(r.Getenv), r.Now().Add(-2*time.Hour).UnixMilli(), 3)
	if err != nil {
		return
	}
	for _, id := range ids {
		if err := r.EnrichAgent(ctx, id); err != nil {
			_ = r.Store.MarkEnrichError(ctx, id, err.Error())
		}
	}
}

// catchUp records first-parent ancestors of c that were committed moments
// before it and are not recorded yet.
func (r *Recorder) catchUp(ctx context.Context, c *gitx.Commit) error {
	for range catchUpCommits {
		if len(c.Parents) == 0 {
			return nil
		}
		parent := c.Parents[0]
		done, err := r.Store.RecordedCommits(ctx, []string{parent})
		if err != nil || done[parent] {
			return err
		}
		p, _, err := r.Record(ctx, parent, store.LinkSourceHook)
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

// Rewrite records each new commit of an amend or rebase and carries every
// link of the old one over.
func (r *Recorder) Rewrite(ctx context.Context, pairs [][2]string) error {
	if r.Rewrote != nil {
		r.Rewrote(ctx, pairs)
	}
	for _, p := range pairs {
		if _, _, err := r.Record(ctx, p[1], store.LinkSourceHook); err != nil {
			return err
		}
		if err := r.Store.MarkRewritten(ctx, p[0], p[1]); err != nil {
			return err
		}
		r.shared(ctx, p[1])
	}
	return nil
}

// RecordNew records the last n commits this work tree made, and the
// unrecorded ones before them: all of them back to the last recorded
// commit (within catchUpMax), else a few made moments before (see
// extraCommits). Without a reflog it records HEAD and the commits just
// before it.
func (r *Recorder) RecordNew(ctx context.Context, n int) error {
	entries, err := r.Repo.NewCommits(n + catchUpMax)
	if err != nil {
		return r.RecordHead(ctx)
	}
	hashes := make([]string, len(entries))
	for i, e := range entries {
		hashes[i] = e.New
	}
	done, err := r.Store.RecordedCommits(ctx, hashes)
	if err != nil {
		return err
	}
	// The last n are the queued ones. Before them, the unrecorded commits
	// back to a recorded one: git-convo was recording then, so their
	// records were lost (the queue's append failed on a full disk), and
	// they are recorded now, however long ago. With no recorded commit in
	// reach (git-convo just installed), only a contiguous run of commits
	// made moments apart, at most extraCommits.
	first := max(len(entries)-n, 0)
	k := first
	for k > 0 && !done[entries[k-1].New] {
		k--
	}
	if k > 0 {
		first = k
	} else {
		for stop := max(first-extraCommits, 0); first > stop && !done[entries[first-1].New] && entries[first].Time().Sub(entries[first-1].Time()) <= catchUpWindow; {
			first--
		}
	}
	var todo []gitx.ReflogEntry
	for _, e := range entries[first:] {
		if !done[e.New] {
			done[e.New] = true // a commit the reflog shows twice (reset and redo)
			todo = append(todo, e)
		}
	}
	for len(todo) > 0 {
		batch := todo[:min(len(todo), readAheadMax)]
		todo = todo[len(batch):]
		if len(batch) > 1 && !r.oneByOne {
			hashes := make([]string, len(batch))
			for i, e := range batch {
				hashes[i] = e.New
			}
			r.readAhead(ctx, hashes)
		}
		for _, e := range batch {
			if _, _, err := r.recordOn(ctx, e.New, e.Branch, store.LinkSourceHook); err != nil {
				r.read = nil
				return err
			}
		}
		r.read = nil
	}
	return r.prune(ctx)
}

// RecordHead records HEAD and the commits made moments before it.
func (r *Recorder) RecordHead(ctx context.Context) error {
	c, _, err := r.Record(ctx, "HEAD", store.LinkSourceHook)
	if err != nil {
		return err
	}
	if err := r.prune(ctx); err != nil {
		return err
	}
	return r.catchUp(ctx, c)
}

// prune keeps stored edit lines bounded (docs/data-model.md).
func (r *Recorder) prune(ctx context.Context) error {
	cutoff := r.Now().Add(-store.EditLineRetentionDays * 24 * time.Hour).UnixMilli()
	if _, err := r.Store.PruneEditLines(ctx, cutoff); err != nil {
		r.Log.Printf("record", "pruning edit lines: %v", err)
	}
	return nil
}
