package source

import "time"

// What a Source says about its hooks beyond their payloads. Each is
// optional: a Source without it gets the default, which suits an agent
// whose hook runs a command and reads nothing back (Claude Code).

// HookReplier is a Source whose hooks wait for a reply on stdout (Cursor:
// {} or {"continue":true}), printed after every event, even one that could
// not be read. Without it capture prints nothing: Claude Code adds a hook's
// stdout to the model's context.
type HookReplier interface {
	HookReply(event string) string
}

// WorkspaceRoots is a Source whose Activity.Roots are the folders the user
// opened (Cursor's workspace roots): they are stored as sent, since they
// name the project and import matches the agent's own associations against
// them. Without it, roots are working directories, stored as their work
// tree's top level (a session's cwd wanders inside the repository).
type WorkspaceRoots interface {
	RootsAreWorkspaces()
}

// LateWriter is a Source that may still be writing a conversation when the
// event that ends its turn fires (Cursor flushes state.vscdb late): capture
// reads the conversation then, and again ReadAgainAfter later, in the
// background. Without it the conversation is read once.
type LateWriter interface {
	ReadAgainAfter() time.Duration
}
