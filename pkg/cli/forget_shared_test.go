package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/app/prsummary"
)

// forgottenButShared: A shares a conversation's commit and pushes, then
// forgets the conversation (forget is local) and fetches: the note still
// names it.
func forgottenButShared(t *testing.T) (a teammate, conv string) {
	t.Helper()
	_, bare := newTeam(t)
	a = cloneAs(t, bare, "a")
	a.convo(a.dir, "share", "on")
	conv = "11111111-2222-4333-8444-555555555555"
	body := "package limiter\n\nfunc Allow(client string) bool {\n\treturn bucket(client).take()\n}\n"
	a.run(a.dir, "git", "checkout", "-q", "-b", "feature")
	a.conversation(t, conv, "Add rate limiting to the API", "Added a token bucket per client.", "add rate limiting", "limiter.go", body)
	a.commit(a.dir, "api: rate-limit clients", "limiter.go")
	a.run(a.dir, "git", "push", "-q", "origin", "feature")
	if out := a.convo(a.dir, "forget", conv); !strings.Contains(out, "forgot conversation") {
		t.Fatalf("forget: %s", out)
	}
	a.run(a.dir, "git", "fetch", "-q", "origin")
	return a, conv
}

// TestForgottenShownFromNote: after forget, pr and blame give the
// conversation's lines as the shared note gives them (origin notes), not
// as the local record left without them (a person's lines).
func TestForgottenShownFromNote(t *testing.T) {
	a, conv := forgottenButShared(t)
	var s prsummary.Summary
	if err := json.Unmarshal([]byte(a.convo(a.dir, "pr", "main", "--json")), &s); err != nil {
		t.Fatal(err)
	}
	if len(s.Conversations) != 1 || s.Conversations[0].ID != conv || s.Conversations[0].Origin != "notes" ||
		s.Conversations[0].Lines != 4 || s.Headline.Agent != 4 || s.Headline.NoEdit != 0 {
		t.Errorf("pr after forget: headline %+v, conversations %+v", s.Headline.Lines, s.Conversations)
	}
	text := a.convo(a.dir, "pr", "main", "--no-pager", "--color", "never")
	if !strings.Contains(text, "4  written by agents' edits") || strings.Contains(text, "wrote none of these lines") {
		t.Errorf("pr's text after forget:\n%s", text)
	}
	// Every report says the conversation is a shared note's.
	for _, format := range []string{"terminal", "markdown", "html"} {
		if out := a.convo(a.dir, "pr", "main", "--format", format, "--color", "never"); !strings.Contains(out, "position, from a shared note") {
			t.Errorf("pr --format %s does not say the conversation is a shared note's:\n%s", format, out)
		}
	}
	for _, l := range a.blameJSON(a.dir, "limiter.go") {
		if l.Line != 2 && (l.Attribution != "agent" || l.WrittenBy == nil || *l.WrittenBy != conv) {
			t.Errorf("blame line %d after forget: %s, written by %v", l.Line, l.Attribution, l.WrittenBy)
		}
	}
}

// TestForgottenStillSharedDoctor: doctor says a note still names the
// forgotten conversation and how to withdraw this clone's, and says no
// more once it is withdrawn; a teammate who never had the conversation
// here hears nothing of it. forget --help says forget is local.
func TestForgottenStillSharedDoctor(t *testing.T) {
	a, conv := forgottenButShared(t)
	head := a.run(a.dir, "git", "rev-parse", "HEAD")
	got := a.doctorChecks(a.dir)["forgotten, still shared"]
	if len(got) != 1 || !got[0].Warn || !strings.Contains(got[0].Detail, "1 conversation(s)") ||
		!strings.Contains(got[0].Detail, head[:12]) || !strings.Contains(got[0].Detail, "1 of those notes are this clone's") ||
		!strings.Contains(got[0].Fix, "git notes --ref=refs/notes/convo remove") || strings.Contains(got[0].Detail, conv) {
		t.Fatalf("doctor after forget: %+v", got)
	}
	a.run(a.dir, "git", "notes", "--ref=refs/notes/convo", "remove", "HEAD")
	a.convo(a.dir, "push")
	a.run(a.dir, "git", "fetch", "-q", "origin")
	if got := a.doctorChecks(a.dir)["forgotten, still shared"]; len(got) != 0 {
		t.Errorf("doctor after the note was withdrawn: %+v", got)
	}
	help := a.convo(a.dir, "forget", "--help")
	if !strings.Contains(help, "local") || !strings.Contains(help, "git notes --ref=convo remove") {
		t.Errorf("forget --help:\n%s", help)
	}
}
