package app

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/fetchwatch"
	"github.com/git-convo/git-convo/pkg/write/queue"
)

// What uninstall leaves tidy in a repository once the hooks are out.

// DrainForUninstall records what the hooks of the repository of dir
// queued, for good: no hook will start a drain again. A claimed queue file
// kept for a hook's late append is waited for (its grace ends in at most
// two seconds), then drained too.
func (a *App) DrainForUninstall(ctx context.Context, dir string) {
	a.BeforeRead(ctx, dir, readWait)
	if qdir, err := a.QueueDir(); err == nil {
		if wait := queue.KeptFor(qdir); wait > 0 {
			time.Sleep(wait)
			a.BeforeRead(ctx, dir, readWait)
		}
	}
}

// TidyRepository removes what git-convo made in repo's git data that holds nothing
// of the user's: the sharing settings (so a later install never shares
// unasked), the sharing state and the fetch watch's stamp. removed names
// what went; err says what could not be removed of the settings.
func (a *App) TidyRepository(ctx context.Context, repo *gitx.Repo) (removed []string, err error) {
	removed, err = NotesGit(repo).Teardown(ctx)
	stamp := filepath.Join(repo.CommonDir, fetchwatch.StampName)
	if os.Remove(stamp) == nil {
		removed = append(removed, stamp)
	}
	return removed, err
}
