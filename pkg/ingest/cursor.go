package ingest

import (
	"context"
	"errors"
	"fmt"

	"github.com/git-convo/git-convo/pkg/cursor"
	"github.com/git-convo/git-convo/pkg/link"
	"github.com/git-convo/git-convo/pkg/store"
)

// Cursor's enrichment still reads its database here rather than through
// cursor.Source.ReadConversation, which lacks the composer's status, mode
// and context files and reads every message (docs/agents.md).

// EnrichCursor reads a conversation from Cursor's state.vscdb (read-only;
// CURSOR_DB_PATH through w.Getenv) into the store.
func (w Writer) EnrichCursor(ctx context.Context, convID string) error {
	dbPath, err := cursor.DefaultDBPath(w.Getenv)
	if err != nil {
		return err
	}
	db, err := cursor.OpenDB(ctx, dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	return w.EnrichCursorFrom(ctx, db, dbPath, convID, nil)
}

// EnrichCursorFrom reads one conversation from an open Cursor database into
// the store; roots, when given, are the workspace roots it was found to
// belong to.
func (w Writer) EnrichCursorFrom(ctx context.Context, db *cursor.DB, dbPath, convID string, roots []string) error {
	comp, err := db.Composer(ctx, convID)
	if errors.Is(err, cursor.ErrNotFound) {
		return fmt.Errorf("conversation %s is not in Cursor's database %s (yet)", convID, dbPath)
	}
	if err != nil {
		return err
	}
	e := store.Enrichment{
		ConversationID: convID,
		Title:          comp.Title,
		Summary:        comp.Summary,
		Status:         comp.Status,
		Mode:           comp.Mode,
		Model:          comp.Model,
		CreatedMs:      msOrZero(comp.CreatedAt),
		UpdatedMs:      msOrZero(comp.UpdatedAt),
		FirstMessage:   comp.FirstUserMessage,
		UserMessages:   comp.UserMessages,
		EnrichedMs:     w.Now().UnixMilli(),
		Roots:          roots,
	}
	loc := &Locator{}
	for _, f := range comp.EditedFiles {
		t := loc.Touch(f.Path, "", store.SourceCursorEdit)
		t.AtMs = msOrZero(f.At)
		e.Files = append(e.Files, t)
	}
	for _, f := range comp.ContextFiles {
		e.Files = append(e.Files, loc.Touch(f, "", store.SourceContext))
	}
	for path, lines := range comp.WrittenLines {
		t := loc.Touch(path, "", store.SourceCursorEdit)
		if t.RepoKey == "" {
			continue // a file in no repository is never matched
		}
		for _, l := range lines {
			if !link.Countable(l.Text) {
				continue
			}
			e.Lines = append(e.Lines, store.EditLine{RepoKey: t.RepoKey, PathKey: t.PathKey,
				Hash: link.LineHash(l.Text), Text: link.NormLine(l.Text), AtMs: msOrZero(l.At)})
		}
	}
	return w.Store.ApplyEnrichment(ctx, e)
}

// EnrichCursorAndRelink reads a conversation from Cursor's database into
// the store and re-scores the commits it touched. A missing or locked
// Cursor database leaves the hook data as it is; the error is recorded for
// a later retry.
func (w Writer) EnrichCursorAndRelink(ctx context.Context, convID string) error {
	err := w.EnrichCursor(ctx, convID)
	if err != nil {
		_ = w.Store.MarkEnrichError(ctx, convID, err.Error())
	}
	if lerr := w.Relink(ctx, convID); lerr != nil && err == nil {
		err = lerr
	}
	return err
}
