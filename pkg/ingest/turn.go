package ingest

import (
	"context"

	"github.com/git-convo/git-convo/pkg/cursor"
	"github.com/git-convo/git-convo/pkg/source"
)

// EnrichTurn reads a conversation of src again after the event a ended its
// turn (title, summary, edits with their lines) and re-scores the commits
// it touched. A conversation its agent cannot give yet keeps what the hooks
// recorded; the error says why.
func (w Writer) EnrichTurn(ctx context.Context, src source.Source, a source.Activity) error {
	if src.Name() == cursor.Name {
		// Cursor's enrichment still reads state.vscdb itself, not through
		// cursor.Source.ReadConversation (docs/agents.md, step 2); it marks
		// a failed read for a later retry.
		return w.EnrichCursorAndRelink(ctx, a.ConversationID)
	}
	err := w.Enrich(ctx, src, a.ConversationID, source.Hint{TranscriptPath: a.TranscriptPath}, nil)
	if lerr := w.Relink(ctx, a.ConversationID); lerr != nil && err == nil {
		err = lerr
	}
	return err
}
