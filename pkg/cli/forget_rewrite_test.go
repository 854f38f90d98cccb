package cli

import (
	"slices"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/share/notes"
)

// TestForgetThenRewriteKeepsSharedLines: forget is local, and an amend or
// a rebase made after it does not undo that. A shares a commit whose lines
// conversations X and Y wrote and pushes; A forgets X, then amends the
// commit (a line typed by hand above X's, so they shift) and pushes; then
// rebases it onto main, which a teammate moved on, and pushes. The note on
// each new commit still gives X the lines the old commit's note gave it,
// where the rewrite put them, and no line to a person; the line typed by
// hand is not X's. A's and B's blame and show say so. An unlink of X
// from the new commit stays.
func TestForgetThenRewriteKeepsSharedLines(t *testing.T) {
	_, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	a.convo(a.dir, "share", "on")
	x, y := "61111111-2222-4333-8444-555555555555", "62222222-2222-4333-8444-555555555555"
	a.run(a.dir, "git", "checkout", "-q", "-b", "feature")
	body := "package limiter\n\nfunc Allow(client string) bool {\n\treturn bucket(client).take()\n}\n"
	a.conversation(t, x, "Add rate limiting", "A token bucket.", "add rate limiting", "limiter.go", body)
	a.conversation(t, y, "Add logging", "Added.", "add logging", "log.go", "package limiter\n\nfunc Log(msg string) {\n\tprintln(msg)\n}\n")
	c := a.commit(a.dir, "api: rate-limit and log", "limiter.go", "log.go")
	a.run(a.dir, "git", "push", "-q", "origin", "feature")
	a.convo(a.dir, "push")
	if note := a.noteText(notes.Ref, c); !strings.Contains(note, x) || !strings.Contains(note, y) {
		t.Fatalf("A's note on %s before forget:\n%s", c[:7], note)
	}
	a.convo(a.dir, "forget", x)
	b := cloneAs(t, bare, "b")
	follow := func() { // B takes A's branch and notes
		t.Helper()
		b.run(b.dir, "git", "fetch", "-q", "origin")
		b.run(b.dir, "git", "checkout", "-q", "-B", "feature", "origin/feature")
		b.convo(b.dir, "fetch")
	}

	// check: the note on commit gives X limiter.go's lines of X (xLines,
	// the blank one aside), no line of it to anyone else, none to a person.
	check := func(what, commit string, xLines []int, hand int) {
		t.Helper()
		note := a.noteText(notes.Ref, commit)
		if !strings.Contains(note, x) || !strings.Contains(note, y) || strings.Contains(note, `"type":"human"`) {
			t.Errorf("%s: A's note on %s:\n%s", what, commit[:7], note)
		}
		for _, tm := range []teammate{a, b} {
			if ids := convIDs(tm.showJSON(tm.dir, commit)); !has(ids, x) || !has(ids, y) {
				t.Errorf("%s: %s's show %s: %v, want X and Y", what, tm.dir, commit[:7], ids)
			}
			for _, l := range tm.blameJSON(tm.dir, "limiter.go") {
				switch {
				case slices.Contains(xLines, l.Line):
					if l.Attribution != "agent" || l.WrittenBy == nil || *l.WrittenBy != x {
						t.Errorf("%s: %s's blame limiter.go line %d: %s by %v, want X's", what, tm.dir, l.Line, l.Attribution, l.WrittenBy)
					}
				case l.Line == hand:
					if l.Attribution == "agent" || l.WrittenBy != nil {
						t.Errorf("%s: %s's blame limiter.go line %d (typed by hand): %s by %v", what, tm.dir, l.Line, l.Attribution, l.WrittenBy)
					}
				}
				if l.Attribution == "human" || l.WrittenBy != nil && *l.WrittenBy != x {
					t.Errorf("%s: %s's blame limiter.go line %d: %s by %v", what, tm.dir, l.Line, l.Attribution, l.WrittenBy)
				}
			}
			if out := tm.convo(tm.dir, "blame", "limiter.go"); strings.Contains(out, "(by hand)") {
				t.Errorf("%s: %s's blame gives lines to a person:\n%s", what, tm.dir, out)
			}
		}
	}

	// Amend: a line typed by hand above X's.
	a.write(a.dir, "limiter.go", "// Limits each client.\n"+body)
	a.run(a.dir, "git", "commit", "-q", "--amend", "--no-edit", "limiter.go")
	amended := strings.TrimSpace(a.run(a.dir, "git", "rev-parse", "HEAD"))
	a.run(a.dir, "git", "push", "-q", "-f", "origin", "feature")
	a.convo(a.dir, "push")
	follow()
	check("amended", amended, []int{2, 4, 5, 6}, 1)

	// Rebase onto main, moved on by a teammate.
	m := cloneAs(t, bare, "m")
	m.write(m.dir, "README", "limits\n")
	m.commit(m.dir, "readme", "README")
	m.run(m.dir, "git", "push", "-q", "--no-verify", "origin", "main")
	a.run(a.dir, "git", "fetch", "-q", "origin")
	a.run(a.dir, "git", "rebase", "-q", "origin/main")
	rebased := strings.TrimSpace(a.run(a.dir, "git", "rev-parse", "HEAD"))
	if rebased == amended {
		t.Fatal("the rebase made no new commit")
	}
	a.run(a.dir, "git", "push", "-q", "-f", "origin", "feature")
	a.convo(a.dir, "push")
	follow()
	check("rebased", rebased, []int{2, 4, 5, 6}, 1)

	// Withdrawn on purpose from the new commit: no refresh brings it back.
	a.convo(a.dir, "unlink", x, rebased)
	a.convo(a.dir, "relink", "origin/main..HEAD")
	a.convo(a.dir, "push")
	if note := a.noteText(notes.Ref, rebased); strings.Contains(note, x) || !strings.Contains(note, y) || strings.Contains(note, `"type":"human"`) {
		t.Errorf("A's note on %s after unlink and relink:\n%s", rebased[:7], note)
	}
}
