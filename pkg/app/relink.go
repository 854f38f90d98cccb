package app

import (
	"context"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/write/autolink"
)

// Relinked is what Relink did.
type Relinked struct {
	Commits int // re-scored
	Links   int // auto-links they have now
}

// Relink re-runs auto-linking for the commits git log selects with args in
// the repository of dir (after a change of convo.window or convo.threshold,
// say); manual links are kept, commits not recorded yet are recorded
// first, and the notes of them all are rewritten when sharing is on.
func (a *App) Relink(ctx context.Context, dir string, args []string) (Relinked, error) {
	var out Relinked
	r, err := a.NewRecorder(ctx, dir, false)
	if err != nil {
		return out, err
	}
	defer r.Store.Close()
	var hashes []string
	err = r.Repo.StreamLog(ctx, args, gitx.LogOptions{}, func(gc gitx.Commit) bool {
		hashes = append(hashes, gc.Hash)
		return true
	})
	if err != nil {
		return out, err
	}
	recorded, err := r.Store.RecordedCommits(ctx, hashes)
	if err != nil {
		return out, err
	}
	linker := &autolink.Linker{Store: r.Store, Config: NewConfigCache(ctx).Get}
	for _, h := range hashes {
		var decisions []autolink.Decision
		if recorded[h] {
			decisions, err = linker.LinkCommit(ctx, h, store.LinkSourceRelink)
		} else {
			_, decisions, err = r.Record(ctx, h, store.LinkSourceRelink)
		}
		if err != nil {
			return out, err
		}
		for _, d := range decisions {
			if d.Linked {
				out.Links++
			}
		}
	}
	out.Commits = len(hashes)
	a.ShareAfter(ctx, r.Repo.TopLevel, r.Store, hashes...)
	return out, nil
}
