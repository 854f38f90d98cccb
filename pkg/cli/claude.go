package cli

// Agents on the source seam: their sources, the write path into the store
// (pkg/ingest) and Claude Code's import.

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/git-convo/git-convo/pkg/agents"
	"github.com/git-convo/git-convo/pkg/claude"
	"github.com/git-convo/git-convo/pkg/gitx"
	"github.com/git-convo/git-convo/pkg/ingest"
	"github.com/git-convo/git-convo/pkg/source"
	"github.com/git-convo/git-convo/pkg/store"
)

// claudeSource is Claude Code for this environment (CLAUDE_CONFIG_DIR).
func claudeSource(env *Env) source.Source { return agents.For(claude.Name, env.Getenv) }

// sourceFor returns the agent a conversation belongs to.
func sourceFor(env *Env, agent string) source.Source { return agents.For(agent, env.Getenv) }

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
		return agents.Cursor
	}
	return agent
}

// agentSuffix names a conversation's agent after its confidence in show,
// log and conversations; Cursor, the default, is not named, so output for
// Cursor alone stays as it was.
func agentSuffix(agent string) string {
	if agent == "" || agent == agents.Cursor {
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
