package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/git-convo/git-convo/pkg/app"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/util/term"
)

// doctorShare reports sharing through git notes in this repository: whether
// it is on, the remote, and when notes were last pushed and fetched (from the
// state file share keeps in the git common dir), with the last push error.
func doctorShare(ctx context.Context, env *Env, repo *gitx.Repo) []check {
	h, err := env.app().SharingHealth(ctx, ".", repo)
	if err != nil {
		return []check{{Name: "sharing", OK: true, Warn: true, Detail: "cannot read the sharing settings: " + err.Error()}}
	}
	bounds := append(doctorNoteBounds(h.Bounds), doctorStillShared(ctx, env, repo)...)
	if !h.On {
		c := check{Name: "sharing", OK: true, Detail: "off for this repository (git convo share on shares linked conversations as git notes)"}
		if !h.LastFetch.IsZero() {
			c.Detail += "; teammates' notes last fetched " + doctorAgo(env, h.LastFetch)
		}
		return append([]check{c}, bounds...)
	}
	on := check{Name: "sharing", OK: true, Detail: fmt.Sprintf("on, to %s; %d note(s) on %s", h.Remote, h.Notes, app.NotesRef)}
	if h.Prompts {
		on.Detail += "; with first prompts"
	}
	if h.NoRemote {
		on.Warn = true
		on.Detail += fmt.Sprintf(": there is no remote %q, so notes are never pushed", h.Remote)
		on.Fix = "git convo share on --remote <name> (one of git remote), or git remote add " + h.Remote + " <url>"
	}
	push := check{Name: "last push", OK: true, Detail: "never"}
	if !h.LastPush.IsZero() {
		push.Detail = doctorAgo(env, h.LastPush)
	}
	if h.LastPushError != "" {
		push.Warn = true
		push.Detail += "; the last push failed: " + h.LastPushError
		push.Fix = "fix the cause, then git convo push (teammates do not see your notes until it succeeds)"
	} else if h.LastPush.IsZero() {
		push.Fix = "git push pushes the notes after your commits; git convo push pushes them now"
	}
	fetch := check{Name: "last fetch", OK: true, Detail: "never"}
	if !h.LastFetch.IsZero() {
		fetch.Detail = doctorAgo(env, h.LastFetch)
	}
	return append([]check{on, push, fetch}, bounds...)
}

// doctorStillShared names the conversations shared notes still name on
// commits this database records though it no longer has them: forgotten
// here (forget is local). Nothing when none, or when it cannot be read.
func doctorStillShared(ctx context.Context, env *Env, repo *gitx.Repo) []check {
	s, _, err := env.app().OpenReadStore(ctx)
	if err != nil {
		return nil
	}
	defer s.Close()
	st, err := env.app().StillShared(ctx, s, repo)
	if err != nil || len(st.Conversations) == 0 {
		return nil
	}
	short := make([]string, 0, min(len(st.Commits), 5))
	for _, h := range st.Commits[:cap(short)] {
		short = append(short, gitx.ShortHash(h))
	}
	more := ""
	if n := len(st.Commits) - len(short); n > 0 {
		more = fmt.Sprintf(" and %d more", n)
	}
	c := check{Name: "forgotten, still shared", OK: true, Warn: true,
		Detail: fmt.Sprintf("shared notes still name %d conversation(s) this database no longer has (forget is local), on %d commit(s) it recorded: %s%s; %d of those notes are this clone's",
			len(st.Conversations), len(st.Commits), strings.Join(short, " "), more, len(st.Own)),
		Fix: "to withdraw this clone's: git notes --ref=" + app.NotesRef + " remove <commit>..., then git convo push; a teammate's note is theirs to withdraw (git convo unlink in their clone)"}
	return []check{c}
}

// doctorNoteBounds names the notes readers skip for their size or their
// number of records (docs/reliability.md, "Bounds"): nothing when none.
func doctorNoteBounds(o app.NoteBounds) []check {
	if o.TooLarge == 0 && o.TooMany == 0 {
		return nil
	}
	return []check{{Name: "shared notes", OK: true, Warn: true,
		Detail: fmt.Sprintf("skipped by every read: %d note(s) over %d MiB, never decoded; %d record(s) past the first %d of %d note(s)",
			o.TooLarge, app.MaxNoteBytes>>20, o.RecordsSkipped, app.MaxNoteRecords, o.TooMany),
		Fix: "a teammate's clone wrote them, or someone pushed them on purpose: git notes --ref=" + app.NotesRef + " list shows the notes; git log " + app.NotesRef + " who pushed them"}}
}

// doctorAgo is "3 minutes ago (2026-11-23T04:01:00Z)".
func doctorAgo(env *Env, t time.Time) string {
	return term.RelativeTime(t, env.Now()) + " (" + t.UTC().Format(time.RFC3339) + ")"
}
