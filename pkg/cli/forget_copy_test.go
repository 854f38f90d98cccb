package cli

import (
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/share/notes"
)

// TestForgetThenCherryPickKeepsLinesUnknown: a commit that copies a
// forgotten conversation's lines is recorded afresh (a cherry-pick is no
// rewrite), and examining it cannot find their writer: they are unknown,
// not a person's. A's commit C holds X's limiter.go and Y's log.go; A
// shares, forgets X, and cherry-picks C onto main. A's blame, show and
// stats, the note A shares, and B's blame read from that note, give X's
// lines to no one and none to a person; Y keeps its own. A person's line
// committed after the forget, beside Y's, is still a person's.
func TestForgetThenCherryPickKeepsLinesUnknown(t *testing.T) {
	_, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	a.convo(a.dir, "share", "on")
	x, y := "71111111-2222-4333-8444-555555555555", "72222222-2222-4333-8444-555555555555"
	a.run(a.dir, "git", "checkout", "-q", "-b", "feature")
	a.conversation(t, x, "Add rate limiting", "A token bucket.", "add rate limiting", "limiter.go",
		"package limiter\n\nfunc Allow(client string) bool {\n\treturn bucket(client).take()\n}\n")
	a.conversation(t, y, "Add logging", "Added.", "add logging", "log.go", "package limiter\n\nfunc Log(msg string) {\n\tprintln(msg)\n}\n")
	c := a.commit(a.dir, "api: rate-limit and log", "limiter.go", "log.go")
	a.convo(a.dir, "forget", x)

	a.run(a.dir, "git", "checkout", "-q", "main")
	a.conversation(t, y, "Add logging", "Added.", "log more", "log2.go", "package limiter\n\nfunc Debug(msg string) {\n\tprintln(\"debug:\", msg)\n}\n")
	a.write(a.dir, "NOTES", "typed by hand after forget\n")
	own := a.commit(a.dir, "debug log and notes", "log2.go", "NOTES")
	a.run(a.dir, "git", "cherry-pick", c)
	picked := strings.TrimSpace(a.run(a.dir, "git", "rev-parse", "HEAD"))
	if picked == c {
		t.Fatal("the cherry-pick made no new commit")
	}
	a.run(a.dir, "git", "push", "-q", "origin", "main")
	a.convo(a.dir, "push")

	if note := a.noteText(notes.Ref, picked); !strings.Contains(note, y) || strings.Contains(note, x) || strings.Contains(note, `"type":"human"`) {
		t.Errorf("A's note on the cherry-pick %s:\n%s", picked[:7], note)
	}
	if note := a.noteText(notes.Ref, own); !strings.Contains(note, `"type":"human"`) {
		t.Errorf("A's note on %s gives no line to the person who typed NOTES:\n%s", own[:7], note)
	}
	// A's stats count no line of the cherry-pick: its lines are not known.
	if out := a.convo(a.dir, "stats"); strings.Contains(out, "limiter.go") || !strings.Contains(out, "NOTES") {
		t.Errorf("A's stats:\n%s", out)
	}
	b := cloneAs(t, bare, "b")
	b.convo(b.dir, "fetch")
	for _, tm := range []teammate{a, b} {
		shown := tm.showJSON(tm.dir, picked)
		if ids := convIDs(shown); !has(ids, y) || has(ids, x) {
			t.Errorf("%s's show %s: %v, want Y alone", tm.dir, picked[:7], ids)
		}
		for _, c := range shown.Conversations {
			if c.AddedLines != 0 { // "n of m added lines": the rest would be a person's
				t.Errorf("%s's show %s: %s counts %d of %d added lines", tm.dir, picked[:7], c.ID, c.WrittenLines, c.AddedLines)
			}
		}
		for _, l := range tm.blameJSON(tm.dir, "limiter.go") {
			if l.Attribution != "unknown" || l.WrittenBy != nil {
				t.Errorf("%s's blame limiter.go line %d (X's): %s by %v, want unknown", tm.dir, l.Line, l.Attribution, l.WrittenBy)
			}
		}
		for _, l := range tm.blameJSON(tm.dir, "log.go") {
			if l.Line != 2 && (l.Attribution != "agent" || l.WrittenBy == nil || *l.WrittenBy != y) {
				t.Errorf("%s's blame log.go line %d: %s by %v, want Y's", tm.dir, l.Line, l.Attribution, l.WrittenBy)
			}
		}
		for _, l := range tm.blameJSON(tm.dir, "NOTES") {
			if l.Attribution != "human" {
				t.Errorf("%s's blame NOTES line %d (typed by hand): %s by %v, want human", tm.dir, l.Line, l.Attribution, l.WrittenBy)
			}
		}
		if out := tm.convo(tm.dir, "blame", "limiter.go"); strings.Contains(out, "(by hand)") {
			t.Errorf("%s's blame gives X's lines to a person:\n%s", tm.dir, out)
		}
	}
}
