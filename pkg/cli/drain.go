package cli

import (
	"context"
	"time"
)

// beforeRead is the work to do before a read command answers (app.BeforeRead,
// for the current directory's repository); wait bounds how long it waits for
// another process doing the same.
func beforeRead(ctx context.Context, env *Env, wait time.Duration) {
	env.app().BeforeRead(ctx, ".", wait)
}
