package cli

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/app"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/util/term"
)

func linkCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "link",
		Usage:     "link a conversation to a commit by hand (status manual, confidence 1.0)",
		UsageText: "git convo link <conversation> [<rev>]",
		Description: `Links a conversation (its id, or a unique prefix of a known id) to a commit (default
HEAD). It works when only one side is known yet: a conversation git-convo has not seen, or
a commit not recorded yet. Manual links are never changed by auto-linking. Linking a
conversation unlinked from the commit (git convo unlink) takes the unlink back.`,
		Action: func(c *cli.Context) error {
			return runLinkCmd(c, env, true)
		},
	}
}

func unlinkCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "unlink",
		Usage:     "remove the link between a conversation and a commit",
		UsageText: "git convo unlink <conversation> [<rev>]",
		Description: `Removes a link of the local database, for good: auto-linking never links the
conversation to the commit again (record, relink, import, a late re-score), an amend or a
rebase of the commit keeps it unlinked from the new one, and the lines it wrote there are
no one's (unknown, not a person's, as are its other lines no conversation claims while the
unlink holds; a cherry-pick is a new commit, scored afresh); git convo link takes it back and
examines the commit again. A derived link (a squash or rebase merge
recognised from shared notes, which git convo doctor --derived lists) is withdrawn instead:
the withdrawal is recorded in this clone's note, shared on the next push when sharing is
on, so every teammate's git-convo ignores the link too (kept in this clone when sharing is
off). The link is taken out of this clone's note at once, sharing on or off, so no later
rewrite of the note brings it back; a link only that note gives (of a conversation
forgotten here: git convo forget) is taken out of it, its lines left unknown. The note is
shared on the next push when sharing is on.`,
		Action: func(c *cli.Context) error {
			return runLinkCmd(c, env, false)
		},
	}
}

func runLinkCmd(c *cli.Context, env *Env, add bool) error {
	ctx := c.Context
	args := c.Args().Slice()
	if len(args) < 1 || len(args) > 2 {
		return usagef("usage: git convo %s <conversation> [<rev>]", c.Command.Name)
	}
	rev := "HEAD"
	if len(args) == 2 {
		rev = args[1]
	}
	repo, err := gitx.Open(ctx, ".", false)
	if err != nil {
		return err
	}
	hashes, err := repo.RevParse(ctx, rev)
	if err != nil {
		return err
	}
	hash := hashes[0]
	beforeRead(ctx, env, app.ReadDrainWait) // the spooled events and queued commits first
	s, err := env.openStore(ctx, false)
	if err != nil {
		return err
	}
	defer s.Close()
	if !add {
		u, err := env.app().Unlink(ctx, s, repo, args[0], hash)
		if err != nil {
			return err
		}
		if u.Derived {
			fmt.Fprintf(env.Stdout, "withdrew the derived link of %s from %s %s\n", term.Line(u.Conversation), gitx.ShortHash(hash), withdrawnWhere(u.Shared))
			return nil
		}
		if u.Note {
			here := ""
			if u.Forgotten {
				here = ", forgotten here,"
			}
			fmt.Fprintf(env.Stdout, "withdrew %s%s from this clone's note on %s %s\n", term.Line(u.Conversation), here, gitx.ShortHash(hash), withdrawnWhere(u.Shared))
			return nil
		}
		fmt.Fprintf(env.Stdout, "unlinked %s from %s\n", term.Line(u.Conversation), gitx.ShortHash(hash))
		return nil
	}
	convID, err := env.app().Link(ctx, s, app.LinkRequest{Repo: repo, Hash: hash, Conversation: args[0], Reason: "linked by hand"})
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "linked %s to %s (manual)\n", term.Line(convID), gitx.ShortHash(hash))
	return nil
}

// resolveConversation expands a unique prefix of a known conversation id
// (store.ResolveConversation).
func resolveConversation(ctx context.Context, s *app.Store, arg string, allowUnknown bool) (string, error) {
	return s.ResolveConversation(ctx, arg, allowUnknown)
}

func relinkCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "relink",
		Usage:     "re-score the auto-links of recorded commits",
		UsageText: "git convo relink [<revision range>]",
		Description: `Re-runs auto-linking for the recorded commits in a range (default: the last 200
commits of HEAD), for example after changing convo.window or convo.threshold. Manual links
are kept as they are. Commits not recorded yet are recorded first.`,
		Action: func(c *cli.Context) error {
			ctx := c.Context
			args := c.Args().Slice()
			if len(args) == 0 {
				args = []string{"-n", "200", "HEAD"}
			}
			r, err := env.app().Relink(ctx, ".", args)
			if err != nil {
				return err
			}
			fmt.Fprintf(env.Stdout, "re-scored %d commit%s: %d auto-link%s\n", r.Commits, plural(r.Commits), r.Links, plural(r.Links))
			return nil
		},
	}
}
