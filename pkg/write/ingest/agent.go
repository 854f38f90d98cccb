package ingest

import (
	"context"
	"errors"
	"fmt"

	"github.com/git-convo/git-convo/pkg/agents"

	"github.com/git-convo/git-convo/pkg/agents/source"
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

// ParseAs parses a payload that reached src's hook, as the agent that sent
// it: when src says the payload is another agent's (Activity.Sender: VS Code
// agent mode runs Claude Code's hooks), that agent's source parses it and is
// returned. A sender this registry does not know makes the payload Unknown.
func ParseAs(reg *agents.Registry, getenv func(string) string, src source.Source, data []byte, event string) (source.Source, source.Activity, error) {
	a, err := Parse(src, data, event)
	if err != nil || a.Sender == "" || a.Sender == src.Name() {
		return src, a, err
	}
	var sender source.Source
	ferr := errors.New("no registry")
	if reg != nil {
		sender, ferr = reg.For(a.Sender, getenv)
	}
	if ferr != nil {
		a.Unknown = fmt.Sprintf("a payload of %s, an agent this git-convo does not know, sent to %s's hooks", a.Sender, src.Name())
		return src, a, nil
	}
	a, err = Parse(sender, data, event)
	return sender, a, err
}
