package cli

import (
	"context"

	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/store"
)

// loadConversation reads a conversation's messages from its agent and, when
// the agent has it no more, from what the hooks recorded (prompts and final
// answers), marked as such in meta.Note: Registry.Read, as MCP reads it.
func loadConversation(ctx context.Context, env *Env, s *store.Store, id string, conv *store.Conversation) ([]source.Message, source.Meta, error) {
	return env.Agents.Read(ctx, env.Getenv, s, id, conv)
}
