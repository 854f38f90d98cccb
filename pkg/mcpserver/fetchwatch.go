package mcpserver

import (
	"context"
	"os"

	"github.com/git-convo/git-convo/pkg/fetchwatch"
)

// afterFetch makes the drain before every tool call (gated: only when the
// spool or the queue holds something) run in full (drain) when a plain git
// fetch happened in the repository at dir since the last command (git runs
// no hook on fetch): it then recognises the squash merges the fetch
// brought, as a read command does before it answers. With no new fetch
// this costs a stat of FETCH_HEAD and a read of a small stamp.
func afterFetch(dir string, drain, gated func(context.Context)) func(context.Context) {
	return func(ctx context.Context) {
		if common, ok := fetchwatch.Locate(dir, os.Getenv); ok && fetchwatch.Due(common) {
			drain(ctx) // errors go to git-convo's log
			return
		}
		gated(ctx)
	}
}
