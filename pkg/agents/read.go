package agents

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/util/mstime"
)

// Read reads a whole conversation for `conversation`, `show --full` and
// MCP's get_conversation: its messages from its agent (Cursor's database,
// else the transcript its hooks named; Claude Code's transcript) and the
// header, from what links.sqlite knows of it (conv; nil when nothing) and
// what the agent says. A conversation the store does not know is asked of
// every agent. When its agent no longer has it, the prompts and answers the
// hooks recorded (s) stand in, marked with source.HookRecordNote.
func (r *Registry) Read(ctx context.Context, getenv func(string) string, s *store.Store, id string, conv *store.Conversation) ([]source.Message, source.Meta, error) {
	msgs, meta, err := r.read(ctx, getenv, s, id, conv)
	meta.DefaultAgent = meta.Agent == "" || meta.Agent == r.Default()
	return msgs, meta, err
}

func (r *Registry) read(ctx context.Context, getenv func(string) string, s *store.Store, id string, conv *store.Conversation) ([]source.Message, source.Meta, error) {
	meta := source.Meta{ID: id}
	names := readOrder(r.Names())
	var hint source.Hint
	if conv != nil {
		names = []string{conv.Agent}
		hint.TranscriptPath = conv.TranscriptPath
		meta.Agent, meta.Title, meta.Project, meta.Files = conv.Agent, conv.Title, conv.ProjectName, conv.CapturedFiles
		meta.Created, meta.Updated = mstime.Time(conv.FirstSeenMs), mstime.Time(conv.ActivityMs)
	}
	var errs []error
	for _, name := range names {
		src, err := r.For(name, getenv)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		c, err := src.ReadConversation(ctx, id, hint)
		if err != nil {
			if len(names) > 1 {
				err = fmt.Errorf("%s: %w", r.Display(src.Name()), err)
			}
			errs = append(errs, err)
			continue
		}
		meta.Agent, meta.Model, meta.Summary = src.Name(), c.Model, c.Summary
		if meta.Title == "" {
			meta.Title = c.Title
		}
		if !c.Created.IsZero() {
			meta.Created = c.Created
		}
		if !c.Updated.IsZero() {
			meta.Updated = c.Updated
		}
		if meta.Project == "" && c.Cwd != "" {
			meta.Project = filepath.Base(c.Cwd)
		}
		if c.Messages == nil {
			c.Messages = []source.Message{}
		}
		return c.Messages, meta, nil
	}
	err := errors.Join(errs...)
	if conv == nil {
		return nil, meta, fmt.Errorf("no conversation %s in links.sqlite or any agent's store (%v)", id, err)
	}
	if msgs := hookMessages(ctx, s, id); msgs != nil {
		meta.Note = source.HookRecordNote
		return msgs, meta, nil
	}
	return nil, meta, fmt.Errorf("conversation %s: %s cannot give it (%w), and the hooks recorded none of it", id, r.Display(conv.Agent), err)
}

// readOrder is the order a conversation the store does not know is asked
// of the agents: the default agent last, the order it always had (Claude
// Code, then Cursor).
func readOrder(names []string) []string {
	if len(names) < 2 {
		return names
	}
	return append(append([]string{}, names[1:]...), names[0])
}

// hookMessages are the prompts and final answers the hooks recorded, as
// messages; nil when they recorded none.
func hookMessages(ctx context.Context, s *store.Store, id string) []source.Message {
	if s == nil {
		return nil
	}
	turns, err := s.HookRecord(ctx, id)
	if err != nil || len(turns) == 0 {
		return nil
	}
	msgs := make([]source.Message, 0, len(turns))
	for _, t := range turns {
		msgs = append(msgs, source.HookMessage(t.Role, t.Text, t.AtMs))
	}
	return msgs
}

// Conversation reads a conversation the store knows from its own agent
// only (the transcript its hooks named, else the agent's own store): its
// edits, each with the agent's words before it, for pr's hunks. No other
// agent is asked, and the hooks' records do not stand in: they hold no
// edit.
func (r *Registry) Conversation(ctx context.Context, getenv func(string) string, conv store.Conversation) (*source.Conversation, error) {
	src, err := r.For(conv.Agent, getenv)
	if err != nil {
		return nil, err
	}
	return src.ReadConversation(ctx, conv.ID, source.Hint{TranscriptPath: conv.TranscriptPath})
}
