package cli

import "context"

// squashesAfterFetch recognises the squash merges that plain git fetches
// brought into the current directory's repository (app.SquashesAfterFetch).
func squashesAfterFetch(ctx context.Context, env *Env) { env.app().SquashesAfterFetch(ctx, ".") }
