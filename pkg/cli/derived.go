package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/app"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/util/term"
)

// Derived links (squash merges recognised from teammates' notes) are not in
// the local database: unlink withdraws one, doctor --derived lists them and
// share clean withdraws those today's rules would not make.

// withdrawnWhere says where a withdrawal went (shared: sharing is on).
func withdrawnWhere(shared bool) string {
	if shared {
		return "(in this clone's note: shared on the next push, or now with git convo push)"
	}
	return "(in this clone only: sharing is off)"
}

func doctorDerived(ctx context.Context, env *Env, asJSON bool) error {
	squashesAfterFetch(ctx, env)
	d, err := env.app().DerivedLinks(ctx, ".")
	if err != nil {
		return err
	}
	links := d.Links
	if asJSON {
		if links == nil {
			links = []app.DerivedLink{}
		}
		return jsonEncoder(env.Stdout).Encode(map[string]any{"derived": links})
	}
	if len(links) == 0 {
		fmt.Fprintln(env.Stdout, "no derived link: no squash or rebase merge was recognised from shared notes")
		return nil
	}
	fmt.Fprintf(env.Stdout, "%d derived link%s (squash and rebase merges recognised from shared notes):\n", len(links), plural(len(links)))
	printDerived(env.Stdout, links)
	fmt.Fprintln(env.Stdout, "git convo unlink <conversation> <commit> withdraws one; git convo share clean withdraws the stale ones.")
	return nil
}

// printDerived lists derived links, one a line, with where each lives and
// whether today's rules would make it.
func printDerived(w io.Writer, links []app.DerivedLink) {
	for _, l := range links {
		title := l.Title
		if title == "" {
			title = "conversation " + shortID(l.Conversation)
		}
		where := "this clone only"
		if l.Shared {
			where = "shared"
			if l.Writer != "" {
				where += " by " + l.Writer
			}
		}
		var labels []string
		if l.OldRule {
			labels = append(labels, "old line-hash rule, weaker evidence")
		}
		if l.Stale {
			labels = append(labels, "today's rules would not make it")
		}
		if l.Unchecked {
			labels = append(labels, "cannot be checked here: the commits it names are not in this clone")
		}
		extra := ""
		if len(labels) > 0 {
			extra = "; " + strings.Join(labels, "; ")
		}
		fmt.Fprintf(w, "  %s  %s  %s  %.0f%%  %s  (%s%s)\n", gitx.ShortHash(l.Commit), shortID(l.Conversation),
			term.Line(oneLine(title, 60)), l.Confidence*100, term.Line(l.Reason), term.Line(where), extra)
	}
}

func shareCleanCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "clean",
		Usage:     "withdraw the derived links (squash merges) today's rules would not make, after a preview",
		UsageText: "git convo share clean [--yes] [--dry-run]",
		Description: `Lists the derived links (squash and rebase merges recognised from shared notes: in the
notes refs, whoever wrote them, and in this clone) that today's rules would not make, for
example those an older git-convo derived from two matching lines, and withdraws them once
you agree: at the prompt, or with --yes. A withdrawal is a record in this clone's note
(shared on the next push when sharing is on, else kept in this clone): every reader then
ignores those links. Nothing is withdrawn without your word. See docs/sharing.md.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "withdraw without asking"},
			&cli.BoolFlag{Name: "dry-run", Aliases: []string{"n"}, Usage: "only list them"},
		},
		Action: func(c *cli.Context) error { return shareClean(c.Context, env, c.Bool("yes"), c.Bool("dry-run")) },
	}
}

func shareClean(ctx context.Context, env *Env, yes, dryRun bool) error {
	d, err := env.app().DerivedLinks(ctx, ".")
	if err != nil {
		return err
	}
	var stale []app.DerivedLink
	for _, l := range d.Links {
		if l.Stale {
			stale = append(stale, l)
		}
	}
	if len(stale) == 0 {
		fmt.Fprintf(env.Stdout, "nothing to clean: today's rules would make each of the %d derived link%s again\n", len(d.Links), plural(len(d.Links)))
		return nil
	}
	fmt.Fprintf(env.Stdout, "%d derived link%s today's rules would not make:\n", len(stale), plural(len(stale)))
	printDerived(env.Stdout, stale)
	if dryRun {
		return nil
	}
	if !yes {
		f, ok := env.Stdin.(*os.File)
		if !ok || !isTerminal(f) {
			fmt.Fprintln(env.Stdout, "nothing withdrawn: run git convo share clean --yes to withdraw them")
			return nil
		}
		fmt.Fprintf(env.Stdout, "Withdraw %s? [y/N] ", map[bool]string{true: "it", false: "them"}[len(stale) == 1])
		answer, _ := bufio.NewReader(env.Stdin).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
			fmt.Fprintln(env.Stdout, "nothing withdrawn")
			return nil
		}
	}
	if err := d.Withdraw(ctx, stale, "withdrawn by git convo share clean: today's rules would not make it"); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "withdrew %d derived link%s %s\n", len(stale), plural(len(stale)), withdrawnWhere(d.Shared))
	return nil
}
