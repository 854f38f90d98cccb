package ingest

import (
	"context"

	"github.com/git-convo/git-convo/pkg/attribution/link"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/write/queue"
)

// RecordQueued records, per work tree that the git hooks queued commits
// of, as many commits as it has records, read from its reflog with their
// branches, oldest first, each with the recorder that recorder gives.
// pulled, when given, is then called with a work tree's number of queued
// merges (post-merge records).
func (w Writer) RecordQueued(ctx context.Context, recs []queue.Record, recorder func(*gitx.Repo) *Recorder, pulled func(repo *gitx.Repo, merges int)) error {
	count, merges := map[string]int{}, map[string]int{}
	var order []queue.Record
	for _, r := range recs {
		if count[r.Key()] == 0 {
			order = append(order, r)
		}
		count[r.Key()]++
		if r.Hook == "post-merge" {
			merges[r.Key()]++
		}
	}
	for _, rec := range order {
		repo, err := gitx.OpenQueued(ctx, rec.Dir, rec.GitDir, rec.WorkTree)
		if err != nil {
			w.Log.Printf("record", "queued commit in %s: %v (skipped)", rec.Dir, err)
			continue // the work tree is gone: nothing left to record
		}
		if err := recorder(repo).RecordNew(ctx, count[rec.Key()]); err != nil {
			return err
		}
		if merges[rec.Key()] > 0 && pulled != nil {
			pulled(repo, merges[rec.Key()])
		}
	}
	return nil
}

// ConfigCache loads each repository's convo.* settings once; Get is a
// Writer's Config. Not safe for concurrent use.
type ConfigCache struct {
	ctx    context.Context
	getenv func(string) string
	byID   map[string]link.Config
}

// NewConfigCache reads settings with getenv (GIT_CONFIG_* and the like).
func NewConfigCache(ctx context.Context, getenv func(string) string) ConfigCache {
	return ConfigCache{ctx: ctx, getenv: getenv, byID: map[string]link.Config{}}
}

// Get is the linking settings of the repository at repoPath.
func (c ConfigCache) Get(repoPath string) link.Config {
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
