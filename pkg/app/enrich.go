package app

import (
	"context"
	"errors"
	"time"

	"github.com/git-convo/git-convo/pkg/agents/source"
)

// Enrichment: a conversation's title, summary and files read from its
// agent, and the commits it touched re-linked (git convo enrich).

// staleEnrichment bounds the conversations one enrich with no id re-reads:
// those active in the last staleWindow, at most staleLimit of them.
const (
	staleWindow = 24 * time.Hour
	staleLimit  = 50
)

// EnrichFailure is a conversation enrich could not read, and why.
type EnrichFailure struct {
	ID  string
	Err error
}

// Enrich reads each conversation of ids from its agent and re-links the
// commits it touched; with no id, the stale conversations of the agents
// that may write one after its hook fired. background is the hooks' late
// re-read, where an agent with no store is no fault. Each failure is
// logged and returned; err is what stopped it all.
func (a *App) Enrich(ctx context.Context, ids []string, background bool) ([]EnrichFailure, error) {
	s, err := a.OpenStore(ctx, false)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	if len(ids) == 0 {
		if ids, err = s.StaleEnrichment(ctx, a.cfg.Agents.LateWriters(a.cfg.Getenv), a.cfg.Now().Add(-staleWindow).UnixMilli(), staleLimit); err != nil {
			return nil, err
		}
	}
	w := a.Writer(ctx, s)
	var failed []EnrichFailure
	for _, id := range ids {
		agent := ""
		if conv, _ := s.GetConversation(ctx, id); conv != nil {
			agent = conv.Agent
		}
		src, err := a.cfg.Agents.For(agent, a.cfg.Getenv)
		if err == nil {
			err = w.EnrichAndRelink(ctx, src, id, source.Hint{})
		}
		if errors.Is(err, source.ErrNoStore) && background {
			continue // the hooks' read again: no store is no fault (doctor says so)
		}
		if err != nil {
			failed = append(failed, EnrichFailure{ID: id, Err: err})
			a.Log().Printf("enrich", "%s: %v", id, err)
		}
	}
	return failed, nil
}
