package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/util/errlog"
	"github.com/git-convo/git-convo/pkg/util/term"
	"github.com/git-convo/git-convo/pkg/write/hookrun"
	"github.com/git-convo/git-convo/pkg/write/ingest"
	"github.com/git-convo/git-convo/pkg/write/spool"
)

func forgetCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "forget",
		Usage:     "delete what git-convo recorded about a conversation or a repository",
		UsageText: "git convo forget <conversation>...\ngit convo forget --repo",
		Description: `Deletes a conversation from links.sqlite: its metadata, prompts, responses, files,
the lines its edits wrote and its links (manual ones too). With --repo, deletes the current
repository's commits and links, what conversations recorded in it, and the conversations
that belong to it alone. The text goes from every file git-convo keeps: the database
(overwritten, and its write-ahead log emptied), the MCP context file, the spool and the
error log. Cursor's own database is never touched. See docs/privacy.md.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "repo", Usage: "forget the current repository"},
		},
		Action: func(c *cli.Context) error {
			ctx := c.Context
			if c.Bool("repo") == (c.NArg() > 0) {
				return usagef("usage: git convo forget <conversation>... | git convo forget --repo")
			}
			s, err := env.openStore(ctx, true)
			if err != nil {
				return err
			}
			defer s.Close()
			if c.Bool("repo") {
				repo, err := gitx.Open(ctx, ".", false)
				if err != nil {
					return err
				}
				f, err := s.ForgetRepository(ctx, repoKey(repo.CommonDir), repo.TopLevel)
				if err != nil {
					return err
				}
				fmt.Fprintf(env.Stdout, "forgot %s: %d commits, %d links, %d conversations\n", term.Line(repo.TopLevel), f.Commits, f.Links, f.Conversations)
				return wipeElsewhere(env, f.IDs)
			}
			for _, arg := range c.Args().Slice() {
				id, err := resolveConversation(ctx, s, arg, false)
				if err != nil {
					return err
				}
				f, err := s.ForgetConversation(ctx, id)
				if err != nil {
					return err
				}
				if err := wipeElsewhere(env, f.IDs); err != nil {
					return err
				}
				fmt.Fprintf(env.Stdout, "forgot conversation %s (%d links)\n", term.Line(id), f.Links)
			}
			return nil
		},
	}
}

// wipeElsewhere removes what git-convo keeps about the conversations outside
// links.sqlite: the MCP context file, spooled events and error-log lines.
func wipeElsewhere(env *Env, ids []string) error {
	var errs []error
	dbPath, err := env.dbPath()
	if err != nil {
		return err
	}
	ctxDir, ctxErr := store.ContextDir(env.Getenv)
	for _, id := range ids {
		// Context files are named by id (ids with a path separator never get one).
		if ctxErr == nil && !strings.ContainsAny(id, `/\`) && !strings.Contains(id, "..") {
			for _, p := range []string{filepath.Join(ctxDir, id+".md"), filepath.Join(ctxDir, id+".md.tmp")} {
				if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
					errs = append(errs, err)
				}
			}
		}
		if _, err := spool.Remove(spool.Dir(dbPath), hookrun.BackgroundDrainWait, func(b []byte) bool { return spooledConversation(env, b) == id }); err != nil {
			errs = append(errs, err)
		}
		if err := errlog.Scrub(env.log().Path, id); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// spooledConversation is the conversation a spooled hook event belongs to,
// read by the agent that sent it (Claude Code's name it session_id).
func spooledConversation(env *Env, b []byte) string {
	var e ingest.Spooled
	if json.Unmarshal(b, &e) != nil || len(e.Payload) == 0 {
		return ""
	}
	src, err := env.Agents.For(e.Agent, env.Getenv)
	if err != nil {
		return ""
	}
	a, err := ingest.Parse(src, e.Payload, e.Event)
	if err != nil {
		return ""
	}
	return a.ConversationID
}
