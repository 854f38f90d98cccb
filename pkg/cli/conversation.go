package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/app"
	"github.com/git-convo/git-convo/pkg/util/mstime"
	"github.com/git-convo/git-convo/pkg/util/term"
)

func conversationCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "conversation",
		Usage:     "print one conversation as Markdown (or JSON)",
		UsageText: "git convo conversation [--json] <id>",
		Description: `Prints a whole conversation: every message in order, with the agent's thinking, tool
steps and code blocks, read from its agent (` + agentStores(env) + `), or else from what the
hooks recorded (prompts and final answers, marked as such). <id> may be a unique prefix. The Markdown is
the context-file format agents can navigate with their file tools. A conversation only a
teammate's shared note names (docs/sharing.md) shows its title, summary, agent and commits:
transcripts are never shared.`,
		Flags: readFlags(),
		Action: func(c *cli.Context) error {
			ctx := c.Context
			if c.NArg() != 1 {
				return usagef("usage: git convo conversation [--json] <id>")
			}
			beforeRead(ctx, env, app.ReadDrainWait)
			s, err := env.openStore(ctx, false)
			if err != nil {
				return err
			}
			defer s.Close()
			id, err := resolveConversation(ctx, s, c.Args().First(), true)
			if err != nil {
				return err
			}
			read, err := env.app().ReadConversation(ctx, s, ".", id)
			if err != nil {
				return err
			}
			if read.Shared != nil { // a teammate's, known from shared notes
				return showSharedConversation(env, *read.Shared, c.Bool("json"))
			}
			msgs, meta := read.Msgs, read.Meta
			if meta.Title == "" && read.Conv != nil {
				meta.Title = titleOf(*read.Conv) // as show, log and search title it
			}
			if c.Bool("json") {
				commits, _ := s.CommitsForConversation(ctx, id)
				var links []map[string]any
				for _, lc := range commits {
					links = append(links, map[string]any{"hash": lc.CommitHash, "subject": lc.Subject, "confidence": lc.Confidence, "status": lc.Status,
						"evidence": lc.Evidence()})
				}
				if links == nil {
					links = []map[string]any{}
				}
				if msgs == nil {
					msgs = []source.Message{}
				}
				enc := newJSONLines(env.Stdout)
				return enc(map[string]any{"id": id, "agent": env.agentOrDefault(meta.Agent), "model": meta.Model, "summary": meta.Summary, "title": meta.Title, "created": mstime.ISOTime(meta.Created), "updated": mstime.ISOTime(meta.Updated),
					"project": meta.Project, "files": meta.Files, "commits": links, "messages": msgs, "note": meta.Note})
			}
			return writeMarkdown(env.Stdout, meta, msgs)
		},
	}
}

// printTranscript prints a conversation's messages under show --full.
func (rc *readContext) printTranscript(ctx context.Context, w io.Writer, id string) {
	conv, _ := rc.Store().GetConversation(ctx, id)
	msgs, meta, err := loadConversation(ctx, rc.env, rc.Store(), id, conv)
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
func writeMarkdown(w io.Writer, meta source.Meta, msgs []source.Message) error {
	var b strings.Builder
	if _, err := source.RenderMarkdown(&b, meta, msgs); err != nil {
		return err
	}
	_, err := io.WriteString(w, term.Text(b.String()))
	return err
}

// newJSONLines returns a writer of one JSON value per line, no HTML escaping.
func newJSONLines(w io.Writer) func(any) error {
	return func(v any) error {
		enc := jsonEncoder(w)
		return enc.Encode(v)
	}
}
