package mcpserver

import (
	"context"

	"github.com/git-convo/git-convo/pkg/notes"
	"github.com/git-convo/git-convo/pkg/store"
)

// mergeShared adds what teammates shared in notes to the local links of
// hashes (best effort: unreadable notes leave the local answer as it is).
func mergeShared(ctx context.Context, dir string, hashes []string, linked map[string][]store.LinkedConversation) {
	if dir == "" {
		return
	}
	rd := notes.NewReader(ctx, dir)
	defer rd.Close()
	_ = rd.MergeLinked(ctx, hashes, linked)
}
