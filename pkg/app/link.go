package app

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/notes"
	"github.com/git-convo/git-convo/pkg/share/trace"
	"github.com/git-convo/git-convo/pkg/store"
)

// Link and unlink, with all their effects: `git convo link` and MCP's
// link_conversation_commit are this one function.

// LinkRequest names a manual link: a conversation (its id, or a unique
// prefix of a known id) and a commit of a work tree.
type LinkRequest struct {
	Repo         *gitx.Repo // the work tree the commit is in
	Hash         string     // the commit, resolved (gitx.Repo.RevParse)
	Conversation string
	Reason       string // why, as the link records it ("linked by hand")
	// Allow is the front end's check of the resolved id (the MCP server's
	// scope); nil allows every conversation.
	Allow func(ctx context.Context, id string) error
}

// Link links a conversation to a commit by hand (status manual, confidence
// 1.0) in s, and returns the conversation's full id. It works when only one
// side is known yet, and takes back an unlink of the pair. Beyond the link
// it records the commit when it is not yet (so show has its details), or
// again when it took back an unlink (its lines), reads the conversation
// from its agent when the store has no title for it, and rewrites the
// shared note.
func (a *App) Link(ctx context.Context, s *Store, req LinkRequest) (string, error) {
	id, err := s.ResolveConversation(ctx, req.Conversation, true)
	if err != nil {
		return "", err
	}
	if req.Allow != nil {
		if err := req.Allow(ctx, id); err != nil {
			return "", err
		}
	}
	withdrawn, err := s.Withdrawn(ctx, req.Hash)
	if err != nil {
		return "", err
	}
	if err := s.SetManualLink(ctx, id, req.Hash, req.Reason); err != nil {
		return "", err
	}
	dir := req.Repo.TopLevel
	// Recorded when it is not yet; examined again when the link takes back
	// an unlink, whose lines were no one's (store.Unlink).
	if done, err := s.RecordedCommits(ctx, []string{req.Hash}); err == nil && (!done[req.Hash] || withdrawn[id]) {
		if r, err := a.NewRecorder(ctx, dir, false); err == nil {
			_, _, _ = r.Record(ctx, req.Hash, store.LinkSourceRelink)
			r.Store.Close()
		}
	}
	if conv, _ := s.GetConversation(ctx, id); conv == nil || conv.Title == "" {
		_ = a.Writer(ctx, s).EnrichAgent(ctx, id) // best effort: the title, if its agent knows it
	}
	a.ShareAfter(ctx, dir, s, req.Hash)
	return id, nil
}

// Unlinked is what Unlink did.
type Unlinked struct {
	Conversation string // the full id
	// Derived: the link was a derived one (a squash merge recognised from
	// shared notes), withdrawn in this clone's note; Shared says whether
	// that note is shared (sharing on) or kept in this clone.
	Derived, Shared bool
	// Note: the link was not in the local database, only in this clone's
	// note, and was taken out of it (Shared as for Derived); Forgotten:
	// the local database has no such conversation (forgotten here).
	Note, Forgotten bool
}

// UsageError is a request the user's words got wrong (an ambiguous
// prefix, an unknown remote): a front end says so as it says a bad flag.
type UsageError struct{ Msg string }

func (e UsageError) Error() string { return e.Msg }

// Unlink removes the link between a conversation (id or unique prefix) and
// a commit of the work tree from the local database and from this clone's
// note (at once, sharing on or off: a later rewrite of the note keeps a
// link of a conversation the database does not have, as forgotten), then
// rewrites the shared note. A derived link (a squash or rebase merge
// recognised from shared notes) is withdrawn instead: recorded in this
// clone's note, so every teammate's git-convo ignores it too once shared.
// A link only this clone's note gives (of a conversation forgotten here)
// is taken out of it.
func (a *App) Unlink(ctx context.Context, s *Store, repo *gitx.Repo, conversation, hash string) (Unlinked, error) {
	id, err := s.ResolveConversation(ctx, conversation, false)
	unknown := errors.Is(err, store.ErrNoConversation)
	if err != nil && !unknown {
		return Unlinked{}, err // ambiguous, or the database failed
	}
	arg := conversation
	if !unknown {
		arg = id
		removed, err := s.Unlink(ctx, id, hash)
		if err != nil {
			return Unlinked{}, err
		}
		if removed {
			_, _, werr := NotesGit(repo).WithdrawOwn(ctx, hash, id, false)
			a.ShareAfter(ctx, repo.TopLevel, s, hash)
			if werr != nil {
				return Unlinked{Conversation: id}, fmt.Errorf("unlinked %s from %s, but this clone's note still names it: %w", id, gitx.ShortHash(hash), werr)
			}
			return Unlinked{Conversation: id}, nil
		}
	}
	// Not in the local database: a derived link (a squash merge)?
	if u, ok, werr := a.withdrawDerived(ctx, repo, arg, hash); ok || werr != nil {
		return u, werr
	}
	// A link this clone's note still gives (forget is local): withdrawn
	// from that note.
	if own, shared, werr := NotesGit(repo).WithdrawOwn(ctx, hash, arg, unknown); own != "" || werr != nil {
		return Unlinked{Conversation: own, Note: true, Forgotten: unknown, Shared: shared}, werr
	}
	if err != nil {
		return Unlinked{}, err
	}
	return Unlinked{}, fmt.Errorf("conversation %s is not linked to %s", id, gitx.ShortHash(hash))
}

// withdrawDerived withdraws the derived link on hash of the conversation
// arg names (its id, or a prefix of it): ok is false when hash has none.
func (a *App) withdrawDerived(ctx context.Context, repo *gitx.Repo, arg, hash string) (u Unlinked, ok bool, err error) {
	g := NotesGit(repo)
	rd := a.Notes(ctx, g.Dir, nil)
	recs, err := rd.Records(ctx, []string{hash})
	rd.Close()
	if err != nil {
		return u, false, err
	}
	r, found := recs[hash]
	if !found {
		return u, false, nil
	}
	m, _ := r.Meta()
	ids := notes.Named(m, arg, trace.ConvMeta.IsDerived)
	switch len(ids) {
	case 0:
		return u, false, nil
	case 1:
	default:
		return u, true, UsageError{fmt.Sprintf("conversation %q is ambiguous on %s: %s", arg, gitx.ShortHash(hash), strings.Join(ids, ", "))}
	}
	s, err := g.Settings(ctx)
	if err != nil {
		return u, true, err
	}
	if err := g.Withdraw(ctx, hash, ids[0], "withdrawn by hand (git convo unlink)", s); err != nil {
		return u, true, err
	}
	return Unlinked{Conversation: ids[0], Derived: true, Shared: s.On}, true, nil
}
