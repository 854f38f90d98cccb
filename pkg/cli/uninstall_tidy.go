package cli

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/app"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/util/term"
)

// tidyAfterUninstall ends uninstall, once the hooks are out: it records
// what the hooks queued (no hook will start a drain again), removes what
// git-convo made in the repository's git data that holds nothing of the
// user's (the sharing settings, so a later install never shares unasked;
// the sharing and fetch state), and says what it removed and what stays.
func tidyAfterUninstall(ctx context.Context, env *Env, repo *gitx.Repo, userLevel func(agent string) bool) {
	env.app().DrainForUninstall(ctx, ".")
	removed, err := env.app().TidyRepository(ctx, repo)
	if err != nil {
		fmt.Fprintf(env.Stderr, "git-convo: the sharing settings were not all removed: %s\n", term.Line(err.Error()))
	}
	for _, r := range removed {
		fmt.Fprintf(env.Stdout, "removed %s\n", term.Line(r))
	}
	if stays := uninstallLeaves(ctx, env, repo, userLevel); len(stays) > 0 {
		fmt.Fprintln(env.Stdout, "\nLeft in place:")
		for _, s := range stays {
			fmt.Fprintf(env.Stdout, "  %s\n", s)
		}
	}
}

// uninstallLeaves lists what git-convo put outside this repository that
// uninstall kept, with how to remove each.
func uninstallLeaves(ctx context.Context, env *Env, repo *gitx.Repo, userLevel func(agent string) bool) []string {
	var stays []string
	for _, a := range env.Agents.Agents() {
		if l, ok := a.(source.Leftovers); ok && !userLevel(a.Name()) {
			for _, s := range l.UserLeftovers(hookEnv(env, repo, "")) {
				stays = append(stays, term.Line(s))
			}
		}
	}
	if p, err := env.dbPath(); err == nil {
		if _, err := os.Stat(p); err == nil {
			stays = append(stays, term.Line(p)+": the conversations and links recorded (git convo forget --repo deletes this repository's)")
		}
	}
	if refs, err := app.SharedRefs(ctx, repo); err == nil && len(refs) > 0 {
		stays = append(stays, term.Line(strings.Join(refs, ", "))+": git notes, your team's too (docs/sharing.md says how to remove them)")
	}
	return stays
}
