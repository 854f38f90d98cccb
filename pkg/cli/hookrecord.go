package cli

import (
	"context"

	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/app"
)

// loadConversation reads a conversation's messages from its agent and, when
// the agent has it no more, from what the hooks recorded (prompts and final
// answers), marked as such in meta.Note: Registry.Read, as MCP reads it.
func loadConversation(ctx context.Context, env *Env, s *app.Store, id string, conv *app.Conversation) ([]source.Message, source.Meta, error) {
	return env.Agents.Read(ctx, env.Getenv, s, id, conv)
}
