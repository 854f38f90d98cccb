package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/autolink"
	"github.com/git-convo/git-convo/pkg/cursor"
	"github.com/git-convo/git-convo/pkg/ingest"
	"github.com/git-convo/git-convo/pkg/link"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/term"
)

func enrichCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "enrich",
		Usage:     "read conversations' titles, summaries and files from Cursor's database",
		UsageText: "git convo enrich [--delay <duration>] [<conversation>...]",
		Description: `Reads each conversation from Cursor's state.vscdb (read-only; CURSOR_DB_PATH overrides
its location) and re-links the commits it touched. With no conversation, it enriches the
conversations active in the last day that are stale. capture runs it in the background
after "stop", because Cursor may not have flushed the last rows yet.`,
		Flags: []cli.Flag{
			&cli.DurationFlag{Name: "delay", Usage: "wait this long first (the background retry after stop)"},
		},
		Action: func(c *cli.Context) error {
			ctx := c.Context
			if d := c.Duration("delay"); d > 0 {
				detach()
				time.Sleep(d)
			}
			s, err := env.openStore(ctx, false)
			if err != nil {
				return err
			}
			defer s.Close()
			ids := c.Args().Slice()
			if len(ids) == 0 {
				if ids, err = s.StaleEnrichment(ctx, env.Now().Add(-24*time.Hour).UnixMilli(), 50); err != nil {
					return err
				}
			}
			var failed int
			for _, id := range ids {
				if err := enrichAndRelink(ctx, env, s, id); err != nil {
					failed++
					env.log().Printf("enrich", "%s: %v", id, err)
					if c.Duration("delay") == 0 {
						fmt.Fprintf(env.Stderr, "git-convo: %s: %s\n", term.Line(id), term.Line(err.Error()))
					}
				}
			}
			if failed > 0 && c.Duration("delay") == 0 {
				return exitError{ExitError}
			}
			return nil
		},
	}
}

// enrichAndRelink reads a conversation from Cursor's database into the store
// and re-scores the commits it touched. A missing or locked Cursor database
// leaves the hook data as it is; the error is recorded for a later retry.
func enrichAndRelink(ctx context.Context, env *Env, s *store.Store, convID string) error {
	err := enrich(ctx, env, s, convID)
	if err != nil {
		_ = s.MarkEnrichError(ctx, convID, err.Error())
	}
	linker := &autolink.Linker{Store: s, Config: newConfigCache(ctx).get}
	if _, lerr := linker.RelinkConversation(ctx, convID); lerr != nil && err == nil {
		err = lerr
	}
	return err
}

func enrich(ctx context.Context, env *Env, s *store.Store, convID string) error {
	dbPath, err := cursor.DefaultDBPath(env.Getenv)
	if err != nil {
		return err
	}
	db, err := cursor.OpenDB(ctx, dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	return enrichFrom(ctx, env, s, db, dbPath, convID, nil)
}

// enrichFrom reads one conversation from an open Cursor database into the
// store; roots, when given, are the workspace roots it was found to belong to.
func enrichFrom(ctx context.Context, env *Env, s *store.Store, db *cursor.DB, dbPath, convID string, roots []string) error {
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
		CreatedMs:      comp.CreatedAt.UnixMilli(),
		UpdatedMs:      comp.UpdatedAt.UnixMilli(),
		FirstMessage:   comp.FirstUserMessage,
		UserMessages:   comp.UserMessages,
		EnrichedMs:     env.Now().UnixMilli(),
		Roots:          roots,
	}
	if comp.CreatedAt.IsZero() {
		e.CreatedMs = 0
	}
	if comp.UpdatedAt.IsZero() {
		e.UpdatedMs = 0
	}
	for _, f := range comp.EditedFiles {
		t := ingest.Touch(f.Path, "", store.SourceCursorEdit)
		if !f.At.IsZero() {
			t.AtMs = f.At.UnixMilli()
		}
		e.Files = append(e.Files, t)
	}
	for _, f := range comp.ContextFiles {
		e.Files = append(e.Files, ingest.Touch(f, "", store.SourceContext))
	}
	for path, lines := range comp.WrittenLines {
		t := ingest.Touch(path, "", store.SourceCursorEdit)
		if t.RepoKey == "" {
			continue // a file in no repository is never matched
		}
		for _, l := range lines {
			if !link.Countable(l.Text) {
				continue
			}
			el := store.EditLine{RepoKey: t.RepoKey, PathKey: t.PathKey, Hash: link.LineHash(l.Text), Text: link.NormLine(l.Text)}
			if !l.At.IsZero() {
				el.AtMs = l.At.UnixMilli()
			}
			e.Lines = append(e.Lines, el)
		}
	}
	return s.ApplyEnrichment(ctx, e)
}
