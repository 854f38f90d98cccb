package cli

import (
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/share/notes"
)

// TestUnlinkWithdrawsFromNote: unlink takes the link out of this clone's
// note at once, so no later refresh keeps it as forgotten: a manual link
// to an id the store has no conversation of, unlinked with sharing on;
// a conversation unlinked while sharing is off, then forgotten, then
// shared again. An ambiguous prefix still fails, whatever the note names.
// A conversation forgotten here is taken out of the note; the message
// says where the change is (sharing off: this clone only).
func TestUnlinkWithdrawsFromNote(t *testing.T) {
	_, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	a.convo(a.dir, "share", "on")
	x, y := "51111111-2222-4333-8444-555555555555", "61111111-2222-4333-8444-555555555555"
	unseen, near := "71111111-2222-4333-8444-555555555555", "51299999-2222-4333-8444-555555555555"
	a.conversation(t, x, "Add rate limiting", "A token bucket.", "add rate limiting", "limiter.go", "package limiter\n\nfunc Allow() bool {\n\treturn true\n}\n")
	cx := a.commit(a.dir, "limiter", "limiter.go")
	a.conversation(t, y, "Add logging", "Added.", "add logging", "log.go", "package limiter\n\nfunc Log(msg string) {\n\tprintln(msg)\n}\n")
	cy := a.commit(a.dir, "log", "log.go")
	a.run(a.dir, "git", "push", "-q", "origin", "HEAD")

	// A manual link to an id the store has no conversation of.
	a.convo(a.dir, "link", unseen, cx)
	a.convo(a.dir, "push")
	if note := a.noteText(notes.Ref, cx); !strings.Contains(note, unseen) {
		t.Fatalf("the manual link is not in the note:\n%s", note)
	}
	if out := a.convo(a.dir, "unlink", unseen, cx); !strings.Contains(out, "unlinked") {
		t.Errorf("unlink: %s", out)
	}
	a.convo(a.dir, "push")
	if note := a.noteText(notes.Ref, cx); strings.Contains(note, unseen) || !strings.Contains(note, x) {
		t.Errorf("the pushed note after unlink:\n%s", note)
	}

	// An ambiguous prefix fails, though the note names only one of them.
	a.convo(a.dir, "link", near, cy)
	r := a.runEnv(a.dir, a.env, "", "git", "convo", "unlink", "51", cx)
	if r.code == 0 || !strings.Contains(r.stderr, "ambiguous") {
		t.Errorf("unlink of an ambiguous prefix: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if note := a.noteText(notes.Ref, cx); !strings.Contains(note, x) {
		t.Errorf("the failed unlink withdrew X:\n%s", note)
	}

	// Unlinked with sharing off, then forgotten: sharing again does not
	// bring it back.
	a.convo(a.dir, "share", "off")
	if out := a.convo(a.dir, "unlink", y, cy); !strings.Contains(out, "unlinked") {
		t.Errorf("unlink with sharing off: %s", out)
	}
	a.convo(a.dir, "forget", y)
	a.convo(a.dir, "share", "on")
	a.convo(a.dir, "push")
	if note := a.noteText(notes.Ref, cy); strings.Contains(note, y) {
		t.Errorf("the note after unlink (sharing off), forget, share on:\n%s", note)
	}
	if note := a.noteText(notes.Ref, cx); !strings.Contains(note, x) {
		t.Errorf("X's note lost X:\n%s", note)
	}

	// Forgotten, then unlinked with sharing off: taken out of the note,
	// and the message says it stays in this clone.
	a.convo(a.dir, "forget", x)
	a.convo(a.dir, "share", "off")
	out := a.convo(a.dir, "unlink", x, cx)
	if !strings.Contains(out, "forgotten here") || !strings.Contains(out, "sharing is off") || strings.Contains(out, "push") {
		t.Errorf("unlink after forget, sharing off: %s", out)
	}
	if note := a.noteText(notes.Ref, cx); strings.Contains(note, x) {
		t.Errorf("the note after unlink of forgotten X:\n%s", note)
	}
}
