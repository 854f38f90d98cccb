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

// EnrichCursorAndRelink is EnrichAndRelink for Cursor.
func (w Writer) EnrichCursorAndRelink(ctx context.Context, convID string) error {
	return w.EnrichAndRelink(ctx, cursor.Source{Getenv: w.Getenv}, convID)
}

// EnrichAndRelink reads a conversation through src into the store and
// re-scores the commits it touched. A conversation the agent cannot give
// yet (a missing or locked database) leaves the hook data as it is; the
// error is recorded for a later retry.
func (w Writer) EnrichAndRelink(ctx context.Context, src source.Source, convID string) error {
	err := w.Enrich(ctx, src, convID, source.Hint{}, nil)
	if err != nil {
		_ = w.Store.MarkEnrichError(ctx, convID, err.Error())
	}
	if lerr := w.Relink(ctx, convID); lerr != nil && err == nil {
		err = lerr
	}
	return err
}
