package ingest

import (
	"context"

	"github.com/git-convo/git-convo/pkg/cursor"
	"github.com/git-convo/git-convo/pkg/source"
)

// EnrichCursor reads a conversation from Cursor's state.vscdb (read-only;
// CURSOR_DB_PATH through w.Getenv) into the store: Enrich through
// cursor.Source.
func (w Writer) EnrichCursor(ctx context.Context, convID string) error {
	return w.Enrich(ctx, cursor.Source{Getenv: w.Getenv}, convID, source.Hint{}, nil)
}
