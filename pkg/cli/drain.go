package cli

import (
	"context"
	"time"

	"github.com/git-convo/git-convo/pkg/gitx"
	"github.com/git-convo/git-convo/pkg/hookrun"
	"github.com/git-convo/git-convo/pkg/ingest"
	"github.com/git-convo/git-convo/pkg/queue"
	"github.com/git-convo/git-convo/pkg/store"
)

// hooks is what git-convo's hooks run in, for this environment: the write
// path with this package's linking settings, and git notes shared after.
func (env *Env) hooks() hookrun.Options {
	p, err := env.dbPath()
	return hookrun.Options{
		DBPath: p, PathErr: err, Now: env.Now, Getenv: env.Getenv, Stderr: env.Stderr, Log: env.log(), Resolver: resolver(),
		Writer: env.writer, Agents: env.Agents,
		Recorder: func(ctx context.Context, repo *gitx.Repo, s *store.Store) *ingest.Recorder {
			return recorderFor(ctx, env, repo, s)
		},
		Pulled: func(ctx context.Context, repo *gitx.Repo, merges int) { squashesAfterPull(ctx, env, repo, merges) },
		Spawn:  func(args ...string) error { return spawnDetached(env.Executable, args) },
	}
}

// beforeRead is the work to do before a read command answers, and before
// an MCP tool does (the server calls ReadDrain in its own process, which
// comes here): recording the agents' events the captures spooled, then the
// commits the git hooks queued, and recognising the squash merges a plain
// git fetch brought. It is the one place for such work; wait bounds how
// long it waits for another process doing the same.
func beforeRead(ctx context.Context, env *Env, wait time.Duration) {
	env.hooks().DrainQueue(ctx, nil, wait)
	squashesAfterFetch(ctx, env)
}

// queueDir is the queue beside this environment's links database.
func (env *Env) queueDir() (string, error) {
	p, err := env.dbPath()
	if err != nil {
		return "", err
	}
	return queue.Dir(p), nil
}
