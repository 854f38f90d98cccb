package app

import (
	"context"

	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/app/prsummary"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/interop"
	"github.com/git-convo/git-convo/pkg/share/notes"
	"github.com/git-convo/git-convo/pkg/share/trace"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/store/repokey"
)

// Conversation reading: the local database merged with teammates' shared
// notes (pkg/share/notes' merges: one set of filters and limits), for every
// front end.

// The model a front end reads, as the store and the notes give it.
type (
	Conversation        = store.Conversation
	ConversationSummary = store.ConversationSummary
	ConversationFilter  = store.ConversationFilter
	LinkedConversation  = store.LinkedConversation
	SearchDoc           = store.SearchDoc
	// SharedConversation is what shared notes say of one conversation the
	// local data lacks (metadata and commits; never a transcript).
	SharedConversation = notes.Shared
	// OtherWriter is what another tool's record says of a commit
	// (docs/interop.md).
	OtherWriter = interop.Writer
)

const (
	StatusManual        = store.StatusManual
	LinkEvidenceOverlap = store.LinkEvidenceOverlap
	LinkEvidenceRewrite = store.LinkEvidenceRewrite
	// NotShared says why a teammate's conversation has no messages.
	NotShared = notes.NotShared
)

// RepoKey names a repository by its git common dir.
func RepoKey(commonDir string) string { return repokey.Of(commonDir) }

// PathKey is how a repository-relative path is compared.
func PathKey(rel string) string { return repokey.PathKey(rel) }

// Locate finds the repository holding an absolute path without running
// git: its key, and the path relative to its top.
func Locate(abs string) (key, rel string, ok bool) { return repokey.Locate(abs) }

// Resolver names a repository's key from the paths a database of the
// prototype stored (claims and imports resolve through it).
func Resolver() *store.Resolver { return repokey.Resolver() }

// Origin names where a link is known from (local, notes), from its source.
func Origin(source string) string { return notes.Origin(source) }

// ContextDir is where front ends write conversations as files for agents.
func ContextDir(getenv func(string) string) (string, error) { return store.ContextDir(getenv) }

// FillConversation gives dst what it lacks of src (title, summary, agent...).
func FillConversation(dst *Conversation, src Conversation) { notes.FillConversation(dst, src) }

// Notes opens the shared notes of the work tree (or bare repository) at
// dir for reading: this clone's and every remote's fetched ones, listed
// once after is closed (nil: at once). The caller closes it.
func (a *App) Notes(ctx context.Context, dir string, after <-chan struct{}) *notes.Reader {
	return notes.NewReaderAfter(ctx, dir, after)
}

// MergeShared adds what the shared notes rd reads say about hashes to the
// local links, with the local database's titles (local) for links read
// from notes without one. Notes that cannot be read are logged, never a
// reason to fail a read.
func (a *App) MergeShared(ctx context.Context, rd *notes.Reader, hashes []string, linked map[string][]LinkedConversation, local notes.LocalConversation) {
	if err := rd.MergeLinkedLocal(ctx, hashes, linked, local); err != nil {
		a.Log().Printf("share", "reading shared notes: %v", err)
	}
}

// CommitLinks is the conversations linked to hashes, local and shared (the
// notes of the work tree at dir; none when dir is "").
func (a *App) CommitLinks(ctx context.Context, s *Store, dir string, hashes []string) (map[string][]LinkedConversation, error) {
	linked, err := s.ConversationsForCommits(ctx, hashes)
	if err != nil || dir == "" {
		return linked, err
	}
	rd := a.Notes(ctx, dir, nil)
	defer rd.Close()
	a.MergeShared(ctx, rd, hashes, linked, s.GetConversation)
	return linked, nil
}

// SharedConversations adds to list the conversations only shared notes
// know (a teammate's), with the number of commits naming them, under the
// same filter (notes.AddConversations).
func (a *App) SharedConversations(ctx context.Context, rd *notes.Reader, list []ConversationSummary, f ConversationFilter) []ConversationSummary {
	recs, err := rd.All(ctx)
	if err != nil {
		a.Log().Printf("share", "reading shared notes: %v", err)
		return list
	}
	return notes.AddConversations(recs, list, f)
}

// SharedSearchDocs adds to search's candidates the conversations only
// shared notes know (notes.SearchDocs); shared says which those are.
func (a *App) SharedSearchDocs(ctx context.Context, rd *notes.Reader, docs []SearchDoc, words []string, f ConversationFilter) ([]SearchDoc, map[string]bool) {
	recs, err := rd.All(ctx)
	if err != nil {
		a.Log().Printf("share", "reading shared notes: %v", err)
		return docs, map[string]bool{}
	}
	return notes.SearchDocs(recs, docs, words, f)
}

// Shared is every record teammates shared in one repository's notes.
type Shared struct{ recs map[string]trace.Record }

// SharedNotes reads every shared record of the repository at dir (best
// effort: none when dir is "" or the notes cannot be read).
func (a *App) SharedNotes(ctx context.Context, dir string) Shared {
	if dir == "" {
		return Shared{}
	}
	rd := a.Notes(ctx, dir, nil)
	defer rd.Close()
	recs, _ := rd.All(ctx)
	return Shared{recs}
}

// ByConversation is every conversation the records name, with the commits
// they link it to, strongest first.
func (sh Shared) ByConversation() map[string][]LinkedConversation {
	return notes.ByConversation(sh.recs)
}

// AddConversations adds to list (the local database's answer under f) the
// conversations only the records name, under the same filter and limit.
func (sh Shared) AddConversations(list []ConversationSummary, f ConversationFilter) []ConversationSummary {
	return notes.AddConversations(sh.recs, list, f)
}

// FindConversation is the links of the one conversation whose id starts
// with prefix, in byConv (ByConversation).
func FindConversation(byConv map[string][]LinkedConversation, prefix string) ([]LinkedConversation, error) {
	return notes.Find(byConv, prefix)
}

// FileCommitLinks is a commit with the shared links that touched one file.
type FileCommitLinks struct {
	Commit gitx.Commit
	Linked []LinkedConversation
}

// SharedFileCommits is, for commits of a file (rel, in repo), what shared
// notes link to each that touched the file; commits whose notes link none
// are left out.
func (a *App) SharedFileCommits(ctx context.Context, repo *gitx.Repo, rel string, commits []gitx.Commit) []FileCommitLinks {
	if len(commits) == 0 {
		return nil
	}
	hashes := make([]string, len(commits))
	for i, c := range commits {
		hashes[i] = c.Hash
	}
	rd := a.Notes(ctx, repo.TopLevel, nil)
	defer rd.Close()
	recs, err := rd.Records(ctx, hashes)
	if err != nil || len(recs) == 0 {
		return nil
	}
	key := repokey.PathKey(rel)
	var out []FileCommitLinks
	for _, c := range commits {
		rec, ok := recs[c.Hash]
		if !ok {
			continue
		}
		fl := FileCommitLinks{Commit: c}
		for _, lc := range notes.Linked(c.Hash, rec) {
			if notes.Touches(rec, lc, key) {
				fl.Linked = append(fl.Linked, lc)
			}
		}
		out = append(out, fl)
	}
	return out
}

// SummaryRequest names a range of a repository's commits to summarise.
type SummaryRequest struct {
	Repo *gitx.Repo
	Args []string // git's range forms; none: the branch against its upstream
	Home string   // the user's home, scrubbed from what is shown
	// Notes reads the shared notes (a front end that reads them already
	// passes its reader); nil: the repository's are read.
	Notes *notes.Reader
}

// Summary is the reviewer's summary of a range of commits, as `git convo
// pr` and MCP's pr_summary give it: the local links of s and the shared
// notes. Notes that cannot be read are logged.
func (a *App) Summary(ctx context.Context, s *Store, req SummaryRequest) (*prsummary.Summary, error) {
	rd := req.Notes
	if rd == nil {
		rd = a.Notes(ctx, req.Repo.TopLevel, nil)
		defer rd.Close()
	}
	in := prsummary.Input{Repo: req.Repo, Store: s, Notes: rd, Args: req.Args, Home: req.Home,
		Log: func(f string, args ...any) { a.Log().Printf("share", f, args...) }}
	if a.cfg.Agents != nil { // the agent's words before each edit, from its transcript
		in.DefaultAgent = a.cfg.Agents.Default()
		in.Transcript = func(ctx context.Context, conv store.Conversation) (*source.Conversation, error) {
			return a.cfg.Agents.Conversation(ctx, a.cfg.Getenv, conv)
		}
	}
	return prsummary.Summarize(ctx, in)
}

// ConversationRead is one conversation read whole: from its agent (or
// what the hooks recorded) when this machine knows it, else what the
// shared notes of a teammate say of it (Shared set: never a transcript).
type ConversationRead struct {
	Conv   *Conversation // the local database's row; nil: unknown here
	Meta   source.Meta
	Msgs   []source.Message
	Shared *SharedConversation
}

// ReadConversation reads conversation id (a full id) with the local
// database s, falling back on the shared notes of the work tree at dir for
// a conversation the local data lacks: `git convo conversation` and MCP's
// get_conversation read with it.
func (a *App) ReadConversation(ctx context.Context, s *Store, dir, id string) (ConversationRead, error) {
	var out ConversationRead
	out.Conv, _ = s.GetConversation(ctx, id)
	var err error
	out.Msgs, out.Meta, err = a.cfg.Agents.Read(ctx, a.cfg.Getenv, s, id, out.Conv)
	if err == nil || out.Conv != nil {
		return out, err
	}
	// Perhaps a teammate's, known from shared notes.
	sh, ok, serr := notes.SharedConversation(ctx, dir, id)
	if serr != nil {
		return out, serr
	}
	if ok {
		out.Shared = &sh
		return out, nil
	}
	return out, err
}
