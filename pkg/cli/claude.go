package cli

// Capture and import of agents on the source seam, through pkg/ingest.
// Claude Code goes through it today; Cursor's own path in capture.go,
// enrich.go and import.go moves onto it next (docs/agents.md).

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/git-convo/git-convo/pkg/agents"
	"github.com/git-convo/git-convo/pkg/claude"
	"github.com/git-convo/git-convo/pkg/cursor"
	"github.com/git-convo/git-convo/pkg/gitx"
	"github.com/git-convo/git-convo/pkg/ingest"
	"github.com/git-convo/git-convo/pkg/source"
	"github.com/git-convo/git-convo/pkg/store"
)

// claudeSource is Claude Code for this environment (CLAUDE_CONFIG_DIR).
func claudeSource(env *Env) source.Source { return agents.For(claude.Name, env.Getenv) }

// cursorSource is Cursor for this environment (CURSOR_DB_PATH).
func cursorSource(env *Env) source.Source { return agents.For(cursor.Name, env.Getenv) }

// runAgentCapture records one hook event of src. It never fails, and prints
// nothing on stdout for the agent's own events: Claude Code adds a hook's
// stdout to the model's context (UserPromptSubmit, SessionStart), and any
// non-zero exit shows an error in the user's transcript.
func runAgentCapture(ctx context.Context, env *Env, src source.Source, eventFlag string) {
	log := env.log()
	data, a, ok := parseHookPayload(env, log, src, eventFlag)
	if !ok {
		return
	}
	if a.Foreign {
		// Another program's payload (Cursor runs Claude Code's hook files
		// too): its own hook records it. It gets the neutral reply its
		// own hooks get.
		fmt.Fprintln(env.Stdout, "{}")
		return
	}
	if a.ConversationID == "" {
		captureFailed(env, log, "%s %s payload has no session id; nothing recorded", src.Name(), orUnknown(a.Event))
		return
	}
	atMs := env.Now().UnixMilli()
	s, err := env.openStoreWith(ctx, store.Options{BusyTimeout: hookBusyTimeout})
	if err != nil {
		keep(env, data, a.Event, src.Name(), atMs, err)
		return
	}
	defer s.Close()
	drainSpool(ctx, env, s)
	w := env.writer(ctx, s)
	if err := w.Record(ctx, src, a, atMs); err != nil {
		keep(env, data, a.Event, src.Name(), atMs, err)
		return
	}
	if a.EndsTurn {
		if err := w.Enrich(ctx, src, a.ConversationID, source.Hint{TranscriptPath: a.TranscriptPath}, nil); err != nil {
			log.Printf("capture", "reading %s conversation %s: %v", src.Name(), a.ConversationID, err)
		}
		if err := w.Relink(ctx, a.ConversationID); err != nil {
			log.Printf("capture", "relinking %s: %v", a.ConversationID, err)
		}
	}
}

// writer is the write path into s for this environment.
func (env *Env) writer(ctx context.Context, s *store.Store) ingest.Writer {
	return ingest.Writer{Store: s, Now: env.Now, Getenv: env.Getenv, Config: newConfigCache(ctx).Get, Log: env.log(),
		AgentCommitLinked: func(ctx context.Context, dir, hash string) { shareSoon(ctx, env, dir, hash) }}
}

// importClaude records Claude Code's past sessions of this repository (its
// work trees), with their edits and times. It returns the ids it found.
func importClaude(ctx context.Context, env *Env, s *store.Store, repo *gitx.Repo, p *progress) ([]string, error) {
	// Sessions in any work tree of this repository belong to it.
	roots, err := repo.Worktrees(ctx)
	if err != nil || len(roots) == 0 {
		roots = []string{repo.TopLevel}
	}
	total := 0
	ids, done, err := env.writer(ctx, s).Import(ctx, claudeSource(env), roots, func(i, n int) {
		if i == 0 {
			total = n
			p.say("reading %d Claude Code sessions under %s", n, filepath.Join(claude.ConfigDir(env.Getenv), "projects"))
			return
		}
		p.step("claude", i, n)
	})
	if err != nil && total > 0 {
		return ids, interrupted(err, fmt.Sprintf("%d of %d Claude Code sessions imported", done, total))
	}
	if err != nil || total == 0 {
		return nil, err
	}
	p.done()
	return ids, nil
}

func agentOrCursor(agent string) string {
	if agent == "" {
		return cursor.Name
	}
	return agent
}

// agentSuffix names a conversation's agent after its confidence in show,
// log and conversations; Cursor, the default, is not named, so output for
// Cursor alone stays as it was.
func agentSuffix(agent string) string {
	if agent == "" || agent == cursor.Name {
		return ""
	}
	return ", " + agents.Display(agent)
}

// agentOf is the agent of the conversation that wrote a line: from the
// commit's linked conversations, else from the store.
func (rc *readContext) agentOf(ctx context.Context, id string, linked []store.LinkedConversation) *string {
	for _, lc := range linked {
		if lc.ConversationID == id {
			a := agentOrCursor(lc.Conv.Agent)
			return &a
		}
	}
	if c, err := rc.store.GetConversation(ctx, id); err == nil && c != nil {
		a := agentOrCursor(c.Agent)
		return &a
	}
	return nil
}
