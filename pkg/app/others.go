package app

import (
	"context"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/interop"
	"github.com/git-convo/git-convo/pkg/share/notes"
)

// Other tools' records (docs/interop.md: git-ai's notes, other tools'
// Agent Trace records, trailers), read through pkg/share/interop for every front
// end. Notes they skip are counted by doctor's scan, not here.
type (
	// OtherFile is what other tools' records say of one file's commits.
	OtherFile = interop.File
	// Sessions are the commits git-ai's notes give each agent's session.
	Sessions = interop.Sessions
)

// AgentOf is a conversation's agent: one recorded with none is the
// registry's first (the agent git-convo began with).
func (a *App) AgentOf(agent string) string {
	if agent == "" && a.cfg.Agents != nil {
		return a.cfg.Agents.Default()
	}
	return agent
}

// Known names git-convo's conversation for another tool's session: the
// conversation of s whose id is the session's and whose agent is the tool.
func (a *App) Known(ctx context.Context, s *Store) interop.Known {
	return interop.KnownIn(ctx, s, a.AgentOf(""))
}

// OtherTools is what other tools' records say of commit h: each writer
// they name, with its source and evidence.
func (a *App) OtherTools(ctx context.Context, s *Store, repo *gitx.Repo, h string) []OtherWriter {
	out, _ := interop.ForCommit(ctx, repo, notes.Git{Dir: repo.TopLevel}, h, a.Known(ctx, s))
	return out
}

// FileOthers is what other tools' records say of the file at rel (from the
// top of repo) in hashes, and up to limit more recent commits of the file
// only they name.
func (a *App) FileOthers(ctx context.Context, s *Store, repo *gitx.Repo, rel string, hashes []string, limit int) OtherFile {
	f, _ := interop.ForFile(ctx, repo, notes.Git{Dir: repo.TopLevel}, rel, hashes, limit, a.Known(ctx, s))
	return f
}

// Sessions reads the sessions git-ai's notes name in the repository at dir
// (found in process: without the refs, nothing else is read); nil repo when
// dir is not in one.
func (a *App) Sessions(ctx context.Context, dir string) (*gitx.Repo, Sessions) {
	repo, ok := gitx.Discover(dir, a.cfg.Getenv)
	if !ok {
		return nil, nil
	}
	s, _ := interop.ReadSessions(ctx, repo, notes.Git{Dir: dir})
	return repo, s
}

// SessionCommits is the commits git-ai's notes give to the session of
// conversation id (its agent's, agent, same id) that git-convo does not
// link already: neither in the local database s nor in shared (the shared
// notes' links of the conversation). `git convo conversations` counts them,
// MCP's list_conversation_commits lists them. Without sessions it reads
// nothing.
func (a *App) SessionCommits(ctx context.Context, s *Store, sessions Sessions, shared []LinkedConversation, agent, id string) []string {
	if len(sessions) == 0 {
		return nil
	}
	var have []string
	if lcs, err := s.CommitsForConversation(ctx, id); err == nil {
		for _, lc := range lcs {
			have = append(have, lc.CommitHash)
		}
	}
	for _, lc := range shared {
		have = append(have, lc.CommitHash)
	}
	return sessions.Commits(a.AgentOf(agent), id, have)
}

// withSessionCommits adds to each conversation's commit count the commits
// git-ai's notes give to its session that git-convo does not link
// (App.SessionCommits). Without git-ai's refs it reads nothing.
func (r *Reader) withSessionCommits(ctx context.Context, list []ConversationSummary) []ConversationSummary {
	if r.repo == nil || len(list) == 0 {
		return list
	}
	repo, g := r.discovered()
	sessions, skips := interop.ReadSessions(ctx, repo, g)
	r.logSkips(skips, nil)
	if len(sessions) == 0 {
		return list
	}
	var shared map[string][]LinkedConversation
	if recs, err := r.shared.All(ctx); err == nil {
		shared = notes.ByConversation(recs)
	}
	for i := range list {
		cs := &list[i]
		cs.Commits += len(r.a.SessionCommits(ctx, r.Store(), sessions, shared[cs.ID], cs.Agent, cs.ID))
	}
	return list
}

// OtherNotesReport is what doctor reads of other tools' notes: the refs
// the repository has, and Scan's report of them.
type OtherNotesReport = interop.Report

// OtherNotesHealth scans other tools' notes in repo as every read would
// (doctor): the refs, and what the reads skip. No refs: nothing is read.
func (a *App) OtherNotesHealth(ctx context.Context, repo *gitx.Repo) (refs []string, rep OtherNotesReport, err error) {
	r := &Reader{a: a, repo: repo}
	full, g := r.discovered()
	if refs = interop.Refs(ctx, g); len(refs) == 0 {
		return nil, rep, nil
	}
	rep, err = interop.Scan(ctx, full, g, refs)
	return refs, rep, err
}
