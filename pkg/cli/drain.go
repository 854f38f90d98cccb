package cli

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/git-convo/git-convo/pkg/gitx"
	"github.com/git-convo/git-convo/pkg/ingest"
	"github.com/git-convo/git-convo/pkg/queue"
	"github.com/git-convo/git-convo/pkg/store"
)

// How long a drain waits for another process's drain: a read command waits
// so that it answers with the queued commits recorded; a background drain
// has time.
const (
	readDrainWait       = 10 * time.Second
	backgroundDrainWait = time.Minute
)

// queueDir is the queue beside this environment's links database.
func (env *Env) queueDir() (string, error) {
	p, err := env.dbPath()
	if err != nil {
		return "", err
	}
	return queue.Dir(p), nil
}

// queuePending reports, with one stat, whether commits wait to be recorded.
func (env *Env) queuePending() bool {
	dir, err := env.queueDir()
	return err == nil && queue.Pending(dir)
}

// drainQueue records the commits the hooks queued, with s (nil: open the
// store when there is work). Errors go to the log: a command never fails
// for the queue, which keeps the records for the next drain.
func drainQueue(ctx context.Context, env *Env, s *store.Store, wait time.Duration) {
	dir, err := env.queueDir()
	if err != nil {
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
		if s == nil {
			opened, err := env.openStore(ctx, false)
			if err != nil {
				return err
			}
			defer opened.Close()
			s = opened
			defer func() { s = nil }()
		}
		return env.writer(ctx, s).RecordQueued(ctx, recs,
			func(repo *gitx.Repo) *ingest.Recorder { return recorderFor(ctx, env, repo, s) },
			func(repo *gitx.Repo, merges int) { squashesAfterPull(ctx, env, repo, merges) })
	})
	if err != nil {
		env.log().Printf("record", "recording %d queued commits: %v (they stay queued)", n, err)
	}
}
