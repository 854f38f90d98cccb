package ingest

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/git-convo/git-convo/pkg/attribution/position"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/store"
)

// Spooled is one hook's work kept in the spool while links.sqlite could not
// be written, with the time it arrived.
type Spooled struct {
	Event   string          `json:"event,omitempty"`
	Agent   string          `json:"agent,omitempty"`
	AtMs    int64           `json:"atMs"`
	Payload json.RawMessage `json:"payload,omitempty"`
	// Unknown: no agent recognised the payload (Activity.Unknown); doctor
	// counts these apart.
	Unknown bool `json:"unknown,omitempty"`
	// Spans are the event's edits as the capture located them on disk (the
	// payload alone cannot give them once the file has changed).
	Spans []position.Span `json:"spans,omitempty"`
	// A commit (post-commit) or rewrite (post-rewrite) the recorder could
	// not store, in the work tree at Repo.
	Repo    string      `json:"repo,omitempty"`
	Commit  string      `json:"commit,omitempty"`
	Rewrite [][2]string `json:"rewrite,omitempty"`
}

// Replay records one spooled entry: an agent's event at the time it
// arrived, or a work tree's commit or rewrite with the recorder that
// recorder gives for it. What can no longer be read or found is dropped
// (nil) rather than block the spool.
func (w Writer) Replay(ctx context.Context, e Spooled, recorder func(*gitx.Repo) *Recorder) error {
	if e.Repo != "" {
		repo, err := gitx.Open(ctx, e.Repo, false)
		if err != nil {
			return nil // the work tree is gone: nothing left to record
		}
		r := recorder(repo)
		if e.Commit != "" {
			if _, _, err := r.Record(ctx, e.Commit, store.LinkSourceHook); err != nil {
				return err
			}
		}
		return r.Rewrite(ctx, e.Rewrite)
	}
	src, err := w.Agents.For(e.Agent, w.Getenv)
	if err != nil {
		return err // no agent of that name here: set aside, with the reason in the log
	}
	src, a, err := ParseAs(w.Agents, w.Getenv, src, e.Payload, e.Event)
	if err == nil && a.Unknown != "" {
		return errors.New(a.Unknown) // still no one's: it stays set aside
	}
	if err != nil || a.Foreign || a.ConversationID == "" {
		return nil
	}
	a.Spans = e.Spans
	return w.Record(ctx, src, a, e.AtMs)
}

// ReplayAll records entries, in order, as Replay each would, with the
// agents' plain events between two other entries (a commit, a rewrite, an
// agent's own commit to link) written in one transaction: the end of a
// turn replays its edits at one commit's cost, not one each. On an error
// part of the entries may be recorded; replaying is idempotent, so the
// caller replays them one by one to find the one that failed.
func (w Writer) ReplayAll(ctx context.Context, es []Spooled, recorder func(*gitx.Repo) *Recorder) error {
	var run []store.Activity
	flush := func() error {
		err := w.Store.RecordActivities(ctx, run)
		run = run[:0]
		return err
	}
	for _, e := range es {
		if e.Repo == "" {
			src, err := w.Agents.For(e.Agent, w.Getenv)
			if err != nil {
				return err
			}
			a, err := Parse(src, e.Payload, e.Event)
			if err != nil || a.Foreign || a.ConversationID == "" {
				continue
			}
			if a.Commit == nil {
				a.Spans = e.Spans
				run = append(run, recorded(src, a, e.AtMs))
				continue
			}
		}
		if err := flush(); err != nil {
			return err
		}
		if err := w.Replay(ctx, e, recorder); err != nil {
			return err
		}
	}
	return flush()
}
