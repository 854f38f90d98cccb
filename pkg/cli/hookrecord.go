package cli

import (
	"context"

	"github.com/git-convo/git-convo/pkg/cursor"
	"github.com/git-convo/git-convo/pkg/source"
	"github.com/git-convo/git-convo/pkg/store"
)

// loadConversation reads a conversation's messages from the agent's store or
// transcript and, when neither has it, from what the hooks recorded (prompts
// and final answers), marked as such in meta.Note.
func loadConversation(ctx context.Context, env *Env, s *store.Store, id string, conv *store.Conversation) ([]cursor.Message, cursor.ConversationMeta, error) {
	msgs, meta, err := loadTranscript(ctx, env, id, conv)
	if err == nil || conv == nil {
		return msgs, meta, err
	}
	msgs, ok := hookMessages(ctx, s, id)
	if !ok {
		return nil, meta, err
	}
	meta.Note = source.HookRecordNote
	if meta.Agent == "" {
		meta.Agent = conv.Agent
	}
	meta.Title, meta.Project, meta.Files = conv.Title, conv.ProjectName, conv.CapturedFiles
	meta.Created, meta.Updated = msTimeOrZero(conv.FirstSeenMs), msTimeOrZero(conv.ActivityMs)
	return msgs, meta, nil
}

// hookMessages returns the recorded prompts and final answers as messages;
// false when the hooks recorded none.
func hookMessages(ctx context.Context, s *store.Store, id string) ([]cursor.Message, bool) {
	turns, err := s.HookRecord(ctx, id)
	if err != nil || len(turns) == 0 {
		return nil, false
	}
	msgs := make([]cursor.Message, 0, len(turns))
	for _, t := range turns {
		msgs = append(msgs, source.HookMessage(t.Role, t.Text, t.AtMs))
	}
	return msgs, true
}
