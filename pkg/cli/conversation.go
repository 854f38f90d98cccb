package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/cursor"
	"github.com/git-convo/git-convo/pkg/hookrun"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/term"
)

func conversationCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "conversation",
		Usage:     "print one conversation as Markdown (or JSON)",
		UsageText: "git convo conversation [--json] <id>",
		Description: `Prints a whole conversation: every message in order, with the agent's thinking, tool
steps and code blocks, read from Cursor's state.vscdb (read-only), or from the agent
transcript when Cursor's database lacks it, or else from what the hooks recorded (prompts
and final answers, marked as such). <id> may be a unique prefix. The Markdown is
the context-file format agents can navigate with their file tools. A conversation only a
teammate's shared note names (docs/sharing.md) shows its title, summary, agent and commits:
transcripts are never shared.`,
		Flags: readFlags(),
		Action: func(c *cli.Context) error {
			ctx := c.Context
			if c.NArg() != 1 {
				return usagef("usage: git convo conversation [--json] <id>")
			}
			beforeRead(ctx, env, hookrun.ReadDrainWait)
			s, err := env.openStore(ctx, false)
			if err != nil {
				return err
			}
			defer s.Close()
			id, err := resolveConversation(ctx, s, c.Args().First(), true)
			if err != nil {
				return err
			}
			conv, _ := s.GetConversation(ctx, id)
			msgs, meta, err := loadConversation(ctx, env, s, id, conv)
			if err != nil {
				if conv == nil { // perhaps a teammate's, known from shared notes
					if ok, serr := showSharedConversation(ctx, env, id, c.Bool("json")); ok {
						return serr
					}
				}
				return err
			}
			if c.Bool("json") {
				commits, _ := s.CommitsForConversation(ctx, id)
				var links []map[string]any
				for _, lc := range commits {
					links = append(links, map[string]any{"hash": lc.CommitHash, "subject": lc.Subject, "confidence": lc.Confidence, "status": lc.Status})
				}
				if links == nil {
					links = []map[string]any{}
				}
				if msgs == nil {
					msgs = []cursor.Message{}
				}
				enc := newJSONLines(env.Stdout)
				return enc(map[string]any{"id": id, "agent": agentOrCursor(meta.Agent), "model": meta.Model, "summary": meta.Summary, "title": meta.Title, "created": isoTime(meta.Created), "updated": isoTime(meta.Updated),
					"project": meta.Project, "files": meta.Files, "commits": links, "messages": msgs, "note": meta.Note})
			}
			return writeMarkdown(env.Stdout, meta, msgs)
		},
	}
}

// loadTranscript reads a conversation's messages: Cursor's database first,
// the transcript file as the fallback.
func loadTranscript(ctx context.Context, env *Env, id string, conv *store.Conversation) ([]cursor.Message, cursor.ConversationMeta, error) {
	if conv == nil || (conv.Agent != "" && conv.Agent != cursor.Name) {
		if msgs, meta, ok := loadAgentTranscript(ctx, env, id, conv); ok || conv != nil {
			if !ok {
				return nil, meta, fmt.Errorf("conversation %s: %s's transcript %q cannot be read", id, conv.Agent, conv.TranscriptPath)
			}
			return msgs, meta, nil
		}
	}
	meta := cursor.ConversationMeta{ID: id}
	if conv != nil {
		meta.Title, meta.Project, meta.Files = conv.Title, conv.ProjectName, conv.CapturedFiles
		meta.Created, meta.Updated = msTimeOrZero(conv.FirstSeenMs), msTimeOrZero(conv.ActivityMs)
	}
	var dbErr error
	if path, err := cursor.DefaultDBPath(env.Getenv); err == nil {
		if db, err := cursor.OpenDB(ctx, path); err == nil {
			defer db.Close()
			comp, err := db.Composer(ctx, id)
			if err == nil {
				msgs, err := db.Messages(ctx, comp)
				if err == nil {
					if meta.Title == "" {
						meta.Title = comp.Title
					}
					if !comp.CreatedAt.IsZero() {
						meta.Created = comp.CreatedAt
					}
					return msgs, meta, nil
				}
				dbErr = err
			} else {
				dbErr = err
			}
		} else {
			dbErr = err
		}
	} else {
		dbErr = err
	}
	if conv != nil && conv.TranscriptPath != "" {
		if msgs, err := cursor.ReadTranscript(conv.TranscriptPath); err == nil {
			return msgs, meta, nil
		}
	}
	if conv == nil {
		return nil, meta, fmt.Errorf("no conversation %s in links.sqlite or Cursor's database (%v)", id, dbErr)
	}
	if errors.Is(dbErr, cursor.ErrNotFound) {
		return nil, meta, fmt.Errorf("conversation %s is not in Cursor's database and has no transcript file", id)
	}
	return nil, meta, dbErr
}

// printTranscript prints a conversation's messages under show --full.
func (rc *readContext) printTranscript(ctx context.Context, w io.Writer, id string) {
	conv, _ := rc.store.GetConversation(ctx, id)
	msgs, meta, err := loadConversation(ctx, rc.env, rc.store, id, conv)
	if err != nil {
		fmt.Fprintf(w, "      %s\n\n", rc.io.Palette().Dim("(transcript unavailable: "+term.Line(err.Error())+")"))
		return
	}
	fmt.Fprintln(w)
	_ = writeMarkdown(w, meta, msgs)
}

// writeMarkdown prints a conversation as Markdown. Its text comes from
// outside (prompts, replies, tool output): control characters are shown
// escaped, newlines and tabs kept.
func writeMarkdown(w io.Writer, meta cursor.ConversationMeta, msgs []cursor.Message) error {
	var b strings.Builder
	if _, err := cursor.RenderMarkdown(&b, meta, msgs); err != nil {
		return err
	}
	_, err := io.WriteString(w, term.Text(b.String()))
	return err
}

func msTimeOrZero(ms int64) time.Time {
	if ms <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms)
}

func isoTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// newJSONLines returns a writer of one JSON value per line, no HTML escaping.
func newJSONLines(w io.Writer) func(any) error {
	return func(v any) error {
		enc := jsonEncoder(w)
		return enc.Encode(v)
	}
}
