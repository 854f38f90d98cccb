package app

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/store/repokey"
	"github.com/git-convo/git-convo/pkg/util/errlog"
	"github.com/git-convo/git-convo/pkg/write/hookrun"
	"github.com/git-convo/git-convo/pkg/write/ingest"
	"github.com/git-convo/git-convo/pkg/write/spool"
)

// Forgetting (docs/privacy.md): a conversation's or a repository's text
// goes from every file git-convo keeps.

// Forgotten is what a forget deleted from links.sqlite.
type Forgotten = store.Forgotten

// ForgetConversation deletes conversation id from s, then from every other
// file git-convo keeps (WipeElsewhere); f says what went from s even when
// the wipe fails.
func (a *App) ForgetConversation(ctx context.Context, s *Store, id string) (Forgotten, error) {
	f, err := s.ForgetConversation(ctx, id)
	if err != nil {
		return f, err
	}
	return f, a.WipeElsewhere(f.IDs)
}

// ForgetRepository deletes repo's commits and links from s, what
// conversations recorded in it and the conversations that belong to it
// alone. The front end reports it, then wipes the conversations from the
// other files (WipeElsewhere on the IDs).
func (a *App) ForgetRepository(ctx context.Context, s *Store, repo *gitx.Repo) (Forgotten, error) {
	return s.ForgetRepository(ctx, repokey.Of(repo.CommonDir), repo.TopLevel)
}

// WipeElsewhere removes what git-convo keeps about the conversations ids
// outside links.sqlite: the MCP context file, spooled events and error-log
// lines.
func (a *App) WipeElsewhere(ids []string) error {
	var errs []error
	dbPath, err := a.DBPath()
	if err != nil {
		return err
	}
	ctxDir, ctxErr := store.ContextDir(a.cfg.Getenv)
	for _, id := range ids {
		// Context files are named by id (ids with a path separator never get one).
		if ctxErr == nil && !strings.ContainsAny(id, `/\`) && !strings.Contains(id, "..") {
			for _, p := range []string{filepath.Join(ctxDir, id+".md"), filepath.Join(ctxDir, id+".md.tmp")} {
				if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
					errs = append(errs, err)
				}
			}
		}
		if _, err := spool.Remove(spool.Dir(dbPath), hookrun.BackgroundDrainWait, func(b []byte) bool { return a.spooledConversation(b) == id }); err != nil {
			errs = append(errs, err)
		}
		if err := errlog.Scrub(a.Log().Path, id); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// spooledConversation is the conversation a spooled hook event belongs to,
// read by the agent that sent it (Claude Code's name it session_id).
func (a *App) spooledConversation(b []byte) string {
	var e ingest.Spooled
	if json.Unmarshal(b, &e) != nil || len(e.Payload) == 0 || a.cfg.Agents == nil {
		return ""
	}
	src, err := a.cfg.Agents.For(e.Agent, a.cfg.Getenv)
	if err != nil {
		return ""
	}
	ev, err := ingest.Parse(src, e.Payload, e.Event)
	if err != nil {
		return ""
	}
	return ev.ConversationID
}
