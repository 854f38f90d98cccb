package ingest

import (
	"context"

	"github.com/git-convo/git-convo/pkg/agents/source"
)

// EnrichTurn reads a conversation of src again after the event a ended its
// turn (title, summary, edits with their lines) and re-scores the commits
// it touched. A conversation its agent cannot give yet keeps what the hooks
// recorded; the error says why.
func (w Writer) EnrichTurn(ctx context.Context, src source.Source, a source.Activity) error {
	return w.EnrichAndRelink(ctx, src, a.ConversationID, source.Hint{TranscriptPath: a.TranscriptPath})
}
