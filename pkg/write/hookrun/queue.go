package hookrun

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/write/ingest"
	"github.com/git-convo/git-convo/pkg/write/queue"
)

// How long a drain waits for another process's drain: a read command waits
// so that it answers with the queued commits recorded; a background drain
// has time.
const (
	ReadDrainWait       = 10 * time.Second
	BackgroundDrainWait = time.Minute
)

// queueDir is the queue beside links.sqlite ("" when it has no path).
func (o Options) queueDir() string {
	if o.DBPath == "" {
		return ""
	}
	return queue.Dir(o.DBPath)
}

// DrainQueue records into s (nil: open the store when there is work) the
// agents' events waiting in the spool, then the commits the git hooks
// queued, so that the commits are linked with those events as if they had
// been recorded when they came. It waits at most wait for another drain of
// either. When nothing waits it costs two stats and a directory read.
// Errors go to the log: nothing fails for the queue or the spool, which keep
// their work for the next drain.
func (o Options) DrainQueue(ctx context.Context, s *store.Store, wait time.Duration) {
	l := &lazyStore{o: o, s: s}
	defer l.close()
	o.drainSpool(ctx, l, wait)
	dir := o.queueDir()
	if dir == "" {
		return
	}
	if !queue.Pending(dir) {
		// The hooks append with the shell alone and cannot create the
		// directory: keep it there wherever git-convo keeps its database.
		if _, err := os.Stat(filepath.Dir(dir)); err == nil {
			_ = os.MkdirAll(dir, 0o700)
		}
		return
	}
	n, err := queue.Drain(dir, wait, func(recs []queue.Record) error {
		s, err := l.get(ctx)
		if err != nil {
			return err
		}
		var pulled func(*gitx.Repo, int)
		if o.Pulled != nil {
			pulled = func(repo *gitx.Repo, merges int) { o.Pulled(ctx, repo, merges) }
		}
		return o.Writer(ctx, s).RecordQueued(ctx, recs,
			func(repo *gitx.Repo) *ingest.Recorder { return o.Recorder(ctx, repo, s) }, pulled)
	})
	switch {
	case errors.Is(err, queue.ErrRefused):
		o.Log.Printf("record", "recorded %d queued commits; %v (in %s)", n, err, dir)
	case err != nil:
		o.Log.Printf("record", "recording %d queued commits: %v (they stay queued)", n, err)
	}
}

// drainAfterReply records the commits the git hooks queued once the agent
// has its reply: in a detached `git convo record --hook=drain`, so the
// agent never waits for it (GIT_CONVO_SYNC=1: here and now).
func (o Options) drainAfterReply(ctx context.Context) {
	dir := o.queueDir()
	if dir == "" || !queue.Pending(dir) {
		return
	}
	if o.sync() {
		o.DrainQueue(ctx, nil, BackgroundDrainWait)
		return
	}
	o.spawn("the queued commits' recorder", "record", "--hook=drain")
}
