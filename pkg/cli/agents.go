package cli

// Agents on the source seam: their sources, the write path into the store
// (pkg/write/ingest), and the agent of a conversation as the read commands show it.

import (
	"context"

	"github.com/git-convo/git-convo/pkg/app"
	"github.com/git-convo/git-convo/pkg/util/term"
)

// agentOrDefault is a conversation's agent: the stored name, else the
// default agent's (a conversation stored before there were two).
func (env *Env) agentOrDefault(agent string) string { return env.app().AgentOf(agent) }

// agentSuffix names a conversation's agent after its confidence in show,
// log and conversations; the default agent is not named, so output for it
// alone stays as it was. It is the one place an agent's name is printed for
// people, and the name can come from a teammate's note: escaped.
func (env *Env) agentSuffix(agent string) string {
	if env.agentOrDefault(agent) == env.Agents.Default() {
		return ""
	}
	return ", " + term.Line(env.Agents.Display(agent))
}

// agentOf is the agent of the conversation that wrote a line: from the
// commit's linked conversations, else from the store.
func (rc *readContext) agentOf(ctx context.Context, id string, linked []app.LinkedConversation) *string {
	for _, lc := range linked {
		if lc.ConversationID == id {
			a := rc.env.agentOrDefault(lc.Conv.Agent)
			return &a
		}
	}
	if c, err := rc.Store().GetConversation(ctx, id); err == nil && c != nil {
		a := rc.env.agentOrDefault(c.Agent)
		return &a
	}
	return nil
}
