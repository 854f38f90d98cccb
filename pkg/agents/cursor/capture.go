package cursor

import (
	"time"

	"github.com/git-convo/git-convo/pkg/agents/source"
)

// What Cursor's hooks need from capture beyond their payloads (pkg/agents/source).
var (
	_ source.HookReplier    = Source{}
	_ source.WorkspaceRoots = Source{}
	_ source.LateWriter     = Source{}
)

// HookReply implements source.HookReplier: Cursor waits for a reply.
func (Source) HookReply(event string) string { return HookReply(event) }

// RootsAreWorkspaces implements source.WorkspaceRoots: workspace_roots are
// the folders opened in Cursor, which its own associations name.
func (Source) RootsAreWorkspaces() {}

// ReadAgainAfter implements source.LateWriter: Cursor may not have flushed
// a conversation's last rows to state.vscdb when stop fires.
func (Source) ReadAgainAfter() time.Duration { return 10 * time.Second }
