package cli

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/util/term"
)

// doctorInterop reports other tools' notes (docs/interop.md): how many
// each ref holds, and the notes or records every read skips, with the
// first reasons. Nothing when the repository has none of the refs.
func doctorInterop(ctx context.Context, env *Env, repo *gitx.Repo) []check {
	refs, rep, err := env.app().OtherNotesHealth(ctx, repo)
	if len(refs) == 0 {
		return nil
	}
	if err != nil {
		return []check{{Name: "other tools' notes", OK: true, Warn: true, Detail: "cannot read them: " + term.Line(err.Error())}}
	}
	var counts []string
	for _, r := range refs {
		n := fmt.Sprintf("%d note(s) on %s", rep.Notes[r], r)
		if c := rep.Checked[r]; c < rep.Notes[r] {
			n += fmt.Sprintf(" (%d checked)", c)
		}
		counts = append(counts, n)
	}
	sort.Strings(counts)
	c := check{Name: "other tools' notes", OK: true, Detail: "read by blame, show, log, stats, pr and the MCP tools: " + strings.Join(counts, ", ")}
	if n := len(rep.Skipped); n > 0 {
		c.Warn = true
		var why []string
		for _, s := range rep.Skipped[:min(n, 3)] {
			why = append(why, term.Line(s.Error()))
		}
		c.Detail += fmt.Sprintf("; %d skipped by every read, never shown as fact (%s)", n, strings.Join(why, "; "))
		c.Fix = "another tool or a teammate wrote them: git notes --ref=<ref> show <commit> shows one; they stay skipped until rewritten"
	}
	return []check{c}
}
