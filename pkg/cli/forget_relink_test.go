package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/app/prsummary"
)

// TestForgottenStaysUnexamined: after forget, the commit whose lines the
// conversation wrote is not examined, and no later examination (relink,
// record, an amend's record) gives the forgotten conversation's lines to a
// person: they stay unknown (or, sharing, the forgotten conversation's, as
// this clone's note still says: forget is local), while the conversation
// still here keeps the lines its evidence claims. blame, pr and stats say
// so.
func TestForgottenStaysUnexamined(t *testing.T) {
	for _, share := range []bool{false, true} {
		t.Run(map[bool]string{false: "local", true: "shared"}[share], func(t *testing.T) { forgottenStaysUnexamined(t, share) })
	}
}

// forgottenStaysUnexamined is TestForgottenStaysUnexamined, sharing or
// not: a note the clone rewrites for the commit (relink, record, and the
// amend's new commit) keeps the forgotten conversation's lines as the note
// gave them, and gives no line to a person.
func forgottenStaysUnexamined(t *testing.T, share bool) {
	_, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	if share {
		a.convo(a.dir, "share", "on")
	}
	gone, kept := "11111111-2222-4333-8444-555555555555", "22222222-2222-4333-8444-555555555555"
	a.run(a.dir, "git", "checkout", "-q", "-b", "feature")
	a.conversation(t, gone, "Add rate limiting", "Added.", "add rate limiting", "limiter.go",
		"package limiter\n\nfunc Allow(client string) bool {\n\treturn bucket(client).take()\n}\n")
	a.conversation(t, kept, "Add logging", "Added.", "add logging", "log.go", "package limiter\n\nfunc Log(msg string) {\n\tprintln(msg)\n}\n")
	a.commit(a.dir, "api: rate-limit and log", "limiter.go", "log.go")
	check := func(what string, examined bool) {
		t.Helper()
		var s prsummary.Summary
		if err := json.Unmarshal([]byte(a.convo(a.dir, "pr", "main", "--json")), &s); err != nil {
			t.Fatal(err)
		}
		wantRecord := 4
		if examined {
			wantRecord = 0
		}
		if h := s.Headline; h.Added != 8 || h.Agent != 8-wantRecord || h.NoRecord != wantRecord || h.NoEdit != 0 || h.Person != 0 {
			t.Errorf("%s: pr headline %+v", what, h.Lines)
		}
		attr := "unknown" // the forgotten conversation's lines
		if examined {
			attr = "agent"
		}
		for _, l := range a.blameJSON(a.dir, "limiter.go") {
			if l.Line != 2 && l.Attribution != attr {
				t.Errorf("%s: limiter.go line %d: %s, want %s", what, l.Line, l.Attribution, attr)
			}
		}
		for _, l := range a.blameJSON(a.dir, "log.go") {
			if l.Line != 2 && (l.Attribution != "agent" || l.WrittenBy == nil || *l.WrittenBy != kept) {
				t.Errorf("%s: log.go line %d: %s by %v, want the kept conversation's", what, l.Line, l.Attribution, l.WrittenBy)
			}
		}
		var st statsJSON
		if err := json.Unmarshal([]byte(a.convo(a.dir, "stats", "--json", "main..HEAD")), &st); err != nil {
			t.Fatal(err)
		}
		if examined != (st.Examined == 1) || !examined && (st.Added != 0 || st.Agent != 0) {
			t.Errorf("%s: stats %+v", what, st)
		}
	}
	check("before forget", true)
	a.convo(a.dir, "forget", gone)
	check("forgotten", share) // the note this clone shared still names it (TestForgottenShownFromNote)
	a.convo(a.dir, "relink", "main..HEAD")
	check("relinked", share)
	if note := a.noteText("refs/notes/convo", "HEAD"); share && (strings.Contains(note, `"human"`) || !strings.Contains(note, gone)) {
		t.Errorf("the note relink rewrote:\n%s", note)
	}
	a.convo(a.dir, "record", "HEAD")
	check("recorded again", share)
	a.run(a.dir, "git", "commit", "-q", "--amend", "-m", "api: rate-limit and log clients")
	a.convo(a.dir, "relink", "main..HEAD") // the amend's new commit recorded, whether its hook did or not
	check("amended", share)                // the note git copied to it, moved there (TestForgetThenRewriteKeepsSharedLines)
}
