// Command capturefloor is the second floor scripts/bench.sh measures
// `git convo capture` against: the least any capture must do once the
// program has started. It opens the links database ($GIT_CONVO_DB) as
// git-convo does (pkg/store: WAL, no checkpoint at close), commits one
// transaction of one row, and closes it; no payload, no git, no CLI.
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/git-convo/git-convo/pkg/store"
)

func main() {
	ctx := context.Background()
	s, err := store.Open(ctx, os.Getenv("GIT_CONVO_DB"), store.Options{MustExist: true, BusyTimeout: 2 * time.Second})
	if err == nil {
		err = s.RecordActivity(ctx, store.Activity{ConversationID: "capturefloor", Event: "capturefloor"})
		if cerr := s.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "capturefloor:", err)
		os.Exit(1)
	}
}
