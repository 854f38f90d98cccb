package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/app/prsummary"
)

// TestShareMixedUnexaminedIsUnknown: A shares a commit whose lines one
// conversation wrote while another, linked by file overlap only, wrote
// none; A forgets the first, so the commit's lines are not examined,
// withdraws it from its note (unlink: forget alone is local) and relink
// rewrites A's note. The overlap-only conversation's file is then
// no one's, not a person's ("mixed" in a file a link names without line
// evidence took the place of "unknown"): A's blame, pr and stats and B's,
// reading A's note, say the lines are not examined.
func TestShareMixedUnexaminedIsUnknown(t *testing.T) {
	a, bare, gone, there, x := mixedShared(t)
	if note := a.noteText("refs/notes/convo", x); !strings.Contains(note, there) || !strings.Contains(note, `"added_lines":4`) {
		t.Fatalf("the overlap-only conversation is not linked on the examined commit:\n%s", note)
	}
	a.convo(a.dir, "forget", gone)
	a.convo(a.dir, "unlink", gone, x)
	a.convo(a.dir, "relink", "HEAD~1..HEAD")
	a.convo(a.dir, "push")
	if note := a.noteText("refs/notes/convo", x); !strings.Contains(note, there) || strings.Contains(note, gone) ||
		!strings.Contains(note, `"type":"unknown"`) || strings.Contains(note, `"type":"human"`) || strings.Contains(note, `"type":"mixed"`) {
		t.Errorf("the note relink rewrote for the unexamined commit:\n%s", note)
	}
	b := cloneAs(t, bare, "b")
	b.convo(b.dir, "fetch")
	for _, tm := range []teammate{a, b} {
		for _, l := range tm.blameJSON(tm.dir, "limiter.go") {
			if l.Attribution != "unknown" || l.WrittenBy != nil {
				t.Errorf("%s: blame line %d: %s (by %v), want unknown", tm.dir, l.Line, l.Attribution, l.WrittenBy)
			}
		}
		if out := tm.convo(tm.dir, "blame", "limiter.go"); strings.Contains(out, "(by hand)") {
			t.Errorf("%s: blame gives the unexamined lines to a person:\n%s", tm.dir, out)
		}
		var s prsummary.Summary
		if err := json.Unmarshal([]byte(tm.convo(tm.dir, "pr", "HEAD~1..HEAD", "--json")), &s); err != nil {
			t.Fatal(err)
		}
		if h := s.Headline; h.Added != 4 || h.NoRecord != 4 || h.NoEdit != 0 || h.Agent != 0 || s.Commits.Covered != 0 {
			t.Errorf("%s: pr %+v, commits %+v; want 4 lines of no record", tm.dir, h.Lines, s.Commits)
		}
		var st statsJSON
		if err := json.Unmarshal([]byte(tm.convo(tm.dir, "stats", "--json", "HEAD~1..HEAD")), &st); err != nil {
			t.Fatal(err)
		}
		if st.Examined != 0 || st.Added != 0 {
			t.Errorf("%s: stats counts the unexamined commit: %+v", tm.dir, st)
		}
	}
}

// TestShareMixedForgetAlone is TestShareMixedUnexaminedIsUnknown without the
// unlink: forget alone is local, so relink's rewrite of A's note keeps
// what it said of the forgotten conversation (its entry and its lines),
// the rest of the unexamined commit's lines unknown, none a person's or
// "mixed": A's and B's blame give each line to it or to no one.
func TestShareMixedForgetAlone(t *testing.T) {
	a, bare, gone, there, x := mixedShared(t)
	a.convo(a.dir, "forget", gone)
	a.convo(a.dir, "relink", "HEAD~1..HEAD")
	a.convo(a.dir, "push")
	if note := a.noteText("refs/notes/convo", x); !strings.Contains(note, there) || !strings.Contains(note, gone) ||
		!strings.Contains(note, `"type":"ai"`) || strings.Contains(note, `"type":"human"`) || strings.Contains(note, `"type":"mixed"`) {
		t.Errorf("the note relink rewrote after forget alone:\n%s", note)
	}
	b := cloneAs(t, bare, "b")
	b.convo(b.dir, "fetch")
	for _, tm := range []teammate{a, b} {
		agent := 0
		for _, l := range tm.blameJSON(tm.dir, "limiter.go") {
			switch {
			case l.Attribution == "agent" && l.WrittenBy != nil && *l.WrittenBy == gone:
				agent++
			case l.Attribution == "unknown" && l.WrittenBy == nil:
			default:
				t.Errorf("%s: blame line %d: %s (by %v), want the forgotten conversation's or unknown", tm.dir, l.Line, l.Attribution, l.WrittenBy)
			}
		}
		if agent == 0 {
			t.Errorf("%s: blame gives the forgotten conversation no line", tm.dir)
		}
	}
}

// mixedShared is A, sharing, with a commit pushed whose lines conversation
// gone wrote while there, linked by file overlap only, wrote none.
func mixedShared(t *testing.T) (a teammate, bare, gone, there, x string) {
	t.Helper()
	_, bare = newTeam(t)
	a = cloneAs(t, bare, "a")
	a.convo(a.dir, "share", "on")
	gone, there = "41111111-2222-4333-8444-555555555555", "42222222-2222-4333-8444-555555555555"
	a.conversation(t, there, "Try a limiter", "Tried.", "try a limiter", "limiter.go", "package limiter\n\n// Limit limits.\nvar Limit = 10\n")
	a.conversation(t, gone, "Add rate limiting", "A token bucket.", "add rate limiting", "limiter.go",
		"package limiter\n\nfunc Allow(client string) bool {\n\treturn bucket(client).take()\n}\n")
	x = a.commit(a.dir, "api: rate-limit clients", "limiter.go")
	a.run(a.dir, "git", "push", "-q", "origin", "main")
	return a, bare, gone, there, x
}
