package cli

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/app"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/util/mstime"
	"github.com/git-convo/git-convo/pkg/util/term"
)

func shareCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "share",
		Usage:     "share this repository's conversations with it, as git notes (opt-in)",
		UsageText: "git convo share on [--prompts] [--remote <name>]\ngit convo share off\ngit convo share status\ngit convo share preview [<rev>]\ngit convo share clean [--yes] [--dry-run]",
		Description: `Sharing writes, for every linked commit, an Agent Trace record as a git note on
refs/notes/convo, and pushes the notes to the remote after your own git push. Teammates'
git convo show, log and blame then name the conversations behind your commits. Off by
default: nothing is written to any ref and nothing is pushed. Titles, summaries, reasons
and (with --prompts) first prompts are scrubbed of secrets and home-directory paths
first; transcripts are never shared. See docs/sharing.md.`,
		Subcommands: []*cli.Command{
			{
				Name:      "on",
				Usage:     "turn sharing on and write notes for every commit already linked",
				UsageText: "git convo share on [--prompts] [--remote <name>] [--also git-ai]",
				Flags: []cli.Flag{
					&cli.BoolFlag{Name: "prompts", Usage: "also share each conversation's first prompt (redacted)"},
					&cli.StringFlag{Name: "remote", Usage: "the remote notes go to (default: origin)"},
					&cli.StringFlag{Name: "also", Usage: "git-ai: also write the attribution into refs/notes/ai as git-ai authorship logs (never over git-ai's own; never pushed)"},
				},
				Action: func(c *cli.Context) error {
					if a := c.String("also"); a != "" && a != "git-ai" {
						return usagef("--also %s: the one other format is git-ai", term.Line(a))
					}
					return shareOn(c.Context, env, app.ShareOnRequest{Prompts: c.Bool("prompts"), Remote: c.String("remote"), AlsoGitAI: c.String("also") == "git-ai"})
				},
			},
			{
				Name:  "off",
				Usage: "stop writing and pushing notes (what was pushed stays: docs/sharing.md says how to remove it)",
				Action: func(c *cli.Context) error {
					hookErr, err := env.app().ShareOff(c.Context, ".", func(ctx context.Context, repo *gitx.Repo) error {
						return env.app().UninstallHook(ctx, repo, "pre-push")
					})
					if err != nil {
						return err
					}
					if hookErr != nil {
						fmt.Fprintf(env.Stderr, "git-convo: the pre-push block stays (%v); with sharing off it sends nothing\n", hookErr)
					}
					fmt.Fprintln(env.Stdout, "sharing is off: no note is written or pushed from now on.")
					fmt.Fprintln(env.Stdout, "Notes already pushed stay on the remote; docs/sharing.md says how to remove them.")
					return nil
				},
			},
			{
				Name:   "status",
				Usage:  "what is shared: notes, kinds of field, last push and fetch",
				Flags:  []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print JSON"}},
				Action: func(c *cli.Context) error { return shareStatus(c.Context, env, c.Bool("json")) },
			},
			{
				Name:      "refresh",
				Hidden:    true,
				Usage:     "rewrite the notes of commits whose links changed (capture starts it, detached)",
				UsageText: "git convo share refresh --repo <dir> <commit>...",
				Flags:     []cli.Flag{&cli.StringFlag{Name: "repo", Value: ".", Usage: "the repository"}},
				Action: func(c *cli.Context) error {
					if env.Getenv("GIT_CONVO_SYNC") != "1" {
						detach()
					}
					env.app().RefreshNotes(c.Context, c.String("repo"), c.Args().Slice())
					return nil // background work: errors went to the log
				},
			},
			shareCleanCommand(env),
			{
				Name:      "preview",
				Usage:     "print exactly the note sharing would write for a commit",
				UsageText: "git convo share preview [--prompts] [<rev>]",
				Flags:     []cli.Flag{&cli.BoolFlag{Name: "prompts", Usage: "as if sharing with --prompts"}},
				Action: func(c *cli.Context) error {
					rev := c.Args().First()
					if rev == "" {
						rev = "HEAD"
					}
					return sharePreview(c.Context, env, rev, c.Bool("prompts"))
				},
			},
		},
	}
}

// notesProgressMin is the fewest commits share on shows its progress for:
// one batch is written at once.
const notesProgressMin = 1000

func shareOn(ctx context.Context, env *Env, req app.ShareOnRequest) error {
	// A progress bar on a terminal (import's): a long history's notes are
	// written a batch at a time, and take a while.
	bar := newProgress(env)
	progress := func(done, total int) {
		if total > notesProgressMin {
			bar.step("writing notes", done, total)
		}
	}
	req.Progress = progress
	req.Hook = func(ctx context.Context, repo *gitx.Repo) error {
		return env.app().InstallHook(ctx, repo, env.Executable, "pre-push")
	}
	on, err := env.app().ShareOn(ctx, ".", req)
	bar.done()
	if on.HookErr != nil {
		fmt.Fprintf(env.Stderr, "git-convo: the pre-push hook was not installed (%s): run `git convo push` after pushing\n", term.Line(on.HookErr.Error()))
	}
	warnNotCarried(env, on.NotCarried)
	if err != nil {
		return err
	}
	what := "titles, summaries, reasons, confidence, agent, model and line ranges"
	if req.Prompts {
		what += ", and first prompts"
	}
	fmt.Fprintf(env.Stdout, "sharing is on: %d note%s written on %s (%s, secrets redacted).\n", on.Notes, plural(on.Notes), app.NotesRef, what)
	if on.GitAIErr != nil {
		fmt.Fprintf(env.Stderr, "git-convo: git-ai logs: %s\n", term.Line(on.GitAIErr.Error()))
	} else if on.AlsoGitAI {
		fmt.Fprintf(env.Stdout, "and %d git-ai authorship log%s on refs/notes/ai (commits git-ai had not noted; git-convo never pushes that ref).\n", on.GitAI, plural(on.GitAI))
	}
	fmt.Fprintf(env.Stdout, "They go to %s after your next git push (or now: git convo push). `git convo share preview` shows one.\n", term.Line(on.Settings.Remote))
	return nil
}

// setupSharing makes a plain git fetch bring teammates' notes and amend and
// rebase carry notes, and brings the notes a fresh clone lacks (install
// calls it). It never fails install on a fetch: what went wrong is logged.
func setupSharing(ctx context.Context, env *Env, repo *gitx.Repo) error {
	set, err := env.app().SetupSharing(ctx, repo)
	if err != nil {
		return err
	}
	switch {
	case set.Unfetched:
		fmt.Fprintf(env.Stdout, "%s has shared notes that could not be fetched now: git fetch brings them\n", term.Line(set.Remote))
	case set.Notes > 0:
		fmt.Fprintf(env.Stdout, "fetched %d shared note%s from %s (teammates' conversations)\n", set.Notes, plural(set.Notes), term.Line(set.Remote))
	}
	// git-ai's notes share the first fetch's bound: an unreachable remote
	// costs install one wait, not two.
	if remote, added := env.app().SetupGitAI(ctx, repo, set.Left); added {
		fmt.Fprintf(env.Stdout, "%s has git-ai's notes (refs/notes/ai): git fetch brings them, read-only, for blame, show, log, stats and pr\n", term.Line(remote))
	}
	return nil
}

func shareStatus(ctx context.Context, env *Env, asJSON bool) error {
	st, err := env.app().ShareStatus(ctx, ".")
	if err != nil {
		return err
	}
	if asJSON {
		return jsonEncoder(env.Stdout).Encode(st)
	}
	w := env.Stdout
	if st.On {
		fmt.Fprintf(w, "sharing: on, to %s%s\n", term.Line(st.Remote), map[bool]string{true: ", with first prompts", false: ""}[st.Prompts])
	} else {
		fmt.Fprintln(w, "sharing: off (nothing is written or pushed; git convo share on turns it on)")
	}
	fmt.Fprintf(w, "notes:   %d on %s\n", st.Notes, app.NotesRef)
	remotes := make([]string, 0, len(st.Fetched))
	for r := range st.Fetched {
		remotes = append(remotes, r)
	}
	sort.Strings(remotes)
	for _, r := range remotes {
		fmt.Fprintf(w, "         %d fetched from %s\n", st.Fetched[r], term.Line(r))
		if d := st.FetchDeleted[r]; d > 0 {
			fmt.Fprintf(w, "         warning: the last fetch from %s deleted %d note%s (git log -p %s shows who pushed it)\n",
				term.Line(r), d, plural(d), term.Line(app.NotesTrackingRef(r)))
		}
	}
	fmt.Fprintf(w, "fields:  %s\n", strings.Join(st.Fields, ", "))
	fmt.Fprintf(w, "pushed:  %s\n", orNever(st.LastPush))
	if st.PushError != "" {
		fmt.Fprintf(w, "         last push failed: %s\n", term.Line(st.PushError))
	}
	if len(remotes) == 0 {
		fmt.Fprintf(w, "fetched: %s\n", orNever(st.LastFetch))
	}
	for i, r := range remotes {
		label := "fetched:"
		if i > 0 {
			label = ""
		}
		fmt.Fprintf(w, "%-9s%s from %s\n", label, orNever(st.FetchedAt[r]), term.Line(r))
	}
	return nil
}

func orNever(s string) string {
	if s == "" {
		return "never"
	}
	return s
}

func sharePreview(ctx context.Context, env *Env, rev string, prompts bool) error {
	note, h, err := env.app().PreviewNote(ctx, ".", rev, prompts)
	if err != nil {
		return err
	}
	if note == nil {
		fmt.Fprintf(env.Stderr, "git-convo: %s has no linked conversation: no note would be written\n", gitx.ShortHash(h))
		return exitError{ExitError}
	}
	_, err = env.Stdout.Write(note)
	return err
}

func pushCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "push",
		Usage:     "push shared notes to a remote (the pre-push hook does it after git push)",
		UsageText: "git convo push [<remote>]",
		Description: `Pushes refs/notes/convo without force. When the remote has notes this clone lacks, it
fetches them, merges them record by record and tries again; this clone's own records that
the merge dropped (a teammate deleted them) are written back first. Sharing must be on.`,
		Flags: []cli.Flag{&cli.BoolFlag{Name: "hook", Hidden: true, Usage: "started by the pre-push hook"}},
		Action: func(c *cli.Context) error {
			ctx := c.Context
			if !c.Bool("hook") {
				return pushNotes(ctx, env, c.Args().First(), false)
			}
			if env.Getenv("GIT_CONVO_SYNC") != "1" {
				detach() // the hook's block already waited for the push to end
			}
			if err := pushNotes(ctx, env, c.Args().First(), true); err != nil {
				env.log().Printf("push", "%v", err)
			}
			return nil // a hook never fails the push
		},
	}
}

func pushNotes(ctx context.Context, env *Env, remote string, hook bool) error {
	p, err := env.app().Push(ctx, ".", remote, hook)
	if err != nil {
		return err
	}
	if p.Done && !hook {
		fmt.Fprintf(env.Stdout, "%s: %d note%s on %s\n", term.Line(p.Remote), p.Notes, plural(p.Notes), app.NotesRef)
	}
	return nil
}

func fetchCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "fetch",
		Usage:     "fetch teammates' shared notes (a plain git fetch does it once installed)",
		UsageText: "git convo fetch [<remote>]",
		Description: `Fetches the remote's refs/notes/convo into refs/notes/remotes/<remote>/convo (never into
refs/notes/convo itself), warning on stderr when the fetched notes delete notes. Read commands
merge it on read; with sharing on it is also merged into refs/notes/convo, record by record,
and this clone's own records the merge dropped are written back. It then looks for squash merges among the last 200
commits of the remote's branches. Once install has set up the fetch, a plain git fetch is
enough: the next read command recognises the squash merges it brought, and when it brought
notes, looks again at the remote's last 100 commits (a squash may come before its notes).`,
		Action: func(c *cli.Context) error {
			f, err := env.app().Fetch(c.Context, ".", c.Args().First())
			if f.Deleted > 0 {
				// One teammate's push can remove everyone's notes: it must not pass unseen.
				fmt.Fprintf(env.Stderr, "git-convo: warning: the notes fetched from %s delete %d note%s (git log -p %s shows who pushed it); this clone's own records are written back when it merges (git convo fetch with sharing on, git convo push)\n",
					term.Line(f.Remote), f.Deleted, plural(f.Deleted), term.Line(app.NotesTrackingRef(f.Remote)))
			}
			if f.Restored > 0 {
				fmt.Fprintf(env.Stdout, "%d note%s of this clone's written back: the merge had dropped them (git convo push shares them again)\n", f.Restored, plural(f.Restored))
			}
			if f.Counted {
				fmt.Fprintf(env.Stdout, "%s: %d shared note%s\n", term.Line(f.Remote), f.Notes, plural(f.Notes))
			}
			if f.Squashes > 0 {
				fmt.Fprintf(env.Stdout, "%d squash merge%s attributed to the conversations of the commits they join\n", f.Squashes, plural(f.Squashes))
			}
			return err
		},
	}
}

// teardownSharing takes out what setupSharing added to the repository's
// git config (the notes fetch refspecs, notes.rewriteRef). Notes stay.
func teardownSharing(ctx context.Context, env *Env, repo *gitx.Repo) {
	t := env.app().TeardownSharing(ctx, repo)
	if t.NotesErr != nil {
		fmt.Fprintf(env.Stderr, "git-convo: the notes settings were not removed: %s\n", term.Line(t.NotesErr.Error()))
	}
	if t.GitAIErr != nil {
		fmt.Fprintf(env.Stderr, "git-convo: the fetch of git-ai's notes was not removed: %s\n", term.Line(t.GitAIErr.Error()))
	}
	for _, r := range t.Removed {
		fmt.Fprintf(env.Stdout, "removed git config %s\n", term.Line(r))
	}
}

// showSharedConversation prints what shared notes say of a conversation the
// local data lacks (app.ReadConversation): its metadata and the commits
// naming it (transcripts are never shared).
func showSharedConversation(env *Env, sh app.SharedConversation, asJSON bool) error {
	conv := sh.Conv
	if asJSON {
		commits := make([]map[string]any, len(sh.Links))
		for i, lc := range sh.Links {
			commits[i] = map[string]any{"hash": lc.CommitHash, "confidence": lc.Confidence, "status": lc.Status, "reason": lc.Reason}
		}
		return newJSONLines(env.Stdout)(map[string]any{"id": conv.ID, "agent": env.agentOrDefault(conv.Agent), "model": conv.Model,
			"summary": conv.Summary, "title": conv.Title, "created": mstime.ISOTime(mstime.Time(conv.FirstSeenMs)),
			"updated": mstime.ISOTime(mstime.Time(conv.ActivityMs)), "origin": "notes", "files": sh.Files(), "commits": commits,
			"messages": []any{}, "note": app.NotShared})
	}
	var b strings.Builder
	_ = sh.WriteMarkdown(&b, env.Agents.Display(conv.Agent))
	_, err := io.WriteString(env.Stdout, term.Text(b.String()))
	return err
}

// origin names where a conversation is known from, as the JSON says it.
func origin(shared bool) string {
	if shared {
		return "notes"
	}
	return "local"
}

// notCarriedShown bounds the warnings share on prints of what an amend or
// a rebase after forget could not carry (one a commit: a rebase of many
// would fill the terminal).
const notCarriedShown = 3

// warnNotCarried prints errs, one line each, the first notCarriedShown and
// how many more: a warning, the notes being written all the same.
func warnNotCarried(env *Env, errs []error) {
	for i, e := range errs {
		if i == notCarriedShown {
			fmt.Fprintf(env.Stderr, "git-convo: warning: and %d more not carried\n", len(errs)-i)
			return
		}
		fmt.Fprintf(env.Stderr, "git-convo: warning: %s\n", term.Line(e.Error()))
	}
}
