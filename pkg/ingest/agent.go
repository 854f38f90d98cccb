package ingest

import (
	"context"

	"github.com/git-convo/git-convo/pkg/source"
)

// EnrichAgent reads a conversation into the store through its agent, as
// the store names it (the registry's default agent when the store does not
// know the conversation): Enrich, for `link` and the commit hook's refresh.
func (w Writer) EnrichAgent(ctx context.Context, convID string) error {
	agent := ""
	if conv, _ := w.Store.GetConversation(ctx, convID); conv != nil {
		agent = conv.Agent
	}
	src, err := w.Agents.For(agent, w.Getenv)
	if err != nil {
		return err
	}
	return w.Enrich(ctx, src, convID, source.Hint{}, nil)
}
