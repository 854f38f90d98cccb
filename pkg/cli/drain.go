package cli

import (
	"context"
	"time"

	"github.com/git-convo/git-convo/pkg/write/hookrun"
)

// hooks is what git-convo's hooks run in, for this environment (app.Hooks).
func (env *Env) hooks() hookrun.Options { return env.app().Hooks() }

// beforeRead is the work to do before a read command answers (app.BeforeRead,
// for the current directory's repository); wait bounds how long it waits for
// another process doing the same.
func beforeRead(ctx context.Context, env *Env, wait time.Duration) {
	env.app().BeforeRead(ctx, ".", wait)
}
