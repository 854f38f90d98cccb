package app

import (
	"context"
	"errors"
	"os"
	"time"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/interop"
	"github.com/git-convo/git-convo/pkg/share/notes"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/store/repokey"
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

// OthersIndex answers, from links.sqlite's index of other tools' notes,
// which writers their notes name in commits (what interop's ReadWriters
// reads from the notes), so that log decodes no note.
type OthersIndex struct {
	key  string
	refs []string
	tips map[string]string // ref -> its notes commit, from the ref files
}

// othersIndexWait is how long bringing the index up to date waits on
// another writer of links.sqlite before the read reads the notes itself.
const othersIndexWait = 100 * time.Millisecond

// OthersIndexFor is the index of refs in repo when it can answer: a
// links.sqlite file exists (a read never creates one), its modes let it be
// written, and each ref's tip is read from the ref files. nil: read the
// notes as before.
func (a *App) OthersIndexFor(repo *gitx.Repo, refs []string) *OthersIndex {
	if len(refs) == 0 || repo == nil || repo.CommonDir == "" {
		return nil
	}
	if p, err := a.DBPath(); err != nil {
		return nil
	} else if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
		return nil
	} else if cause, _ := store.WriteFix(p); cause != "" {
		return nil // read-only: each log would read the notes twice (doctor says why)
	}
	return NewOthersIndex(repo, refs)
}

// NewOthersIndex is the index of refs in repo, nil where a ref's tip is
// not read from the ref files.
func NewOthersIndex(repo *gitx.Repo, refs []string) *OthersIndex {
	tips, ok := repo.RefTipsFromFiles(refs)
	if !ok {
		return nil
	}
	return &OthersIndex{key: repokey.Of(repo.CommonDir), refs: refs, tips: tips}
}

// Update brings s's index of x's refs to their tips, reading with r only
// the notes that changed since the tips it reflects (the first read after
// a fetch pays for them). False when it cannot answer: a store in memory,
// a read-only or locked database, a notes commit git cannot read. The
// caller then reads the notes itself: the index never fails a read.
func (x *OthersIndex) Update(ctx context.Context, s *Store, r *interop.Reader) bool {
	if x == nil || s == nil || s.InMemory() {
		return false
	}
	indexed, err := s.NotesTips(ctx, x.key)
	if err != nil {
		return false
	}
	for _, ref := range x.refs {
		cur, tip := indexed[ref], x.tips[ref]
		if cur.Tip == tip && cur.Version == interop.IndexVersion {
			continue
		}
		from := cur.Tip
		if cur.Version != interop.IndexVersion {
			from = "" // written by another reader: rebuilt
		}
		changes, full, err := r.NoteChanges(ctx, ref, from, tip)
		if err != nil {
			return false
		}
		u, err := r.IndexNotes(ctx, ref, tip, changes)
		if err != nil {
			return false
		}
		u.OldTip, u.Full = cur.Tip, full
		if err := s.UpdateNotes(ctx, x.key, ref, u, othersIndexWait); errors.Is(err, store.ErrIndexMoved) {
			// Another read updated it meanwhile: good if to this tip.
			now, err := s.NotesTips(ctx, x.key)
			if err != nil || now[ref] != (store.NotesTip{Tip: tip, Version: interop.IndexVersion}) {
				return false
			}
		} else if err != nil {
			return false
		}
	}
	return true
}

// Writers is what other tools' notes say of commits, per commit, as
// interop's ReadWriters gives it (with no notes given), and the notes a
// read skips: one query.
func (x *OthersIndex) Writers(ctx context.Context, s *Store, commits []string) (map[string][]OtherWriter, []interop.Skip, error) {
	notes, err := s.IndexedNotes(ctx, x.key, x.refs, commits)
	if err != nil {
		return nil, nil, err
	}
	return interop.IndexedWriters(notes)
}
