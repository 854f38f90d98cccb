package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/share/notes"
	"github.com/git-convo/git-convo/pkg/share/trace"
)

// TestForgetKeepsSharedNote: forget is local. A shares two commits, one
// written by conversations X and Y, one by X alone, and pushes; A forgets
// X, then rewrites its notes on both (relink, a link of Y on X's commit, a
// push's refresh) and pushes. A's notes still say of X what they said (its
// entry, its lines, its evidence), so B, cloning after, still sees X's
// lines. unlink of X after forget withdraws it from A's note: B's lines of
// it are then unknown, not a person's.
func TestForgetKeepsSharedNote(t *testing.T) {
	_, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	a.convo(a.dir, "share", "on")
	x, y := "51111111-2222-4333-8444-555555555555", "52222222-2222-4333-8444-555555555555"
	a.run(a.dir, "git", "checkout", "-q", "-b", "feature")
	a.conversation(t, x, "Add rate limiting", "A token bucket.", "add rate limiting", "limiter.go",
		"package limiter\n\nfunc Allow(client string) bool {\n\treturn bucket(client).take()\n}\n")
	a.conversation(t, y, "Add logging", "Added.", "add logging", "log.go", "package limiter\n\nfunc Log(msg string) {\n\tprintln(msg)\n}\n")
	both := a.commit(a.dir, "api: rate-limit and log", "limiter.go", "log.go")
	a.conversation(t, x, "Add rate limiting", "A token bucket.", "add retries", "retry.go",
		"package limiter\n\nfunc Retry(n int) int {\n\treturn n + 1\n}\n")
	alone := a.commit(a.dir, "api: retry", "retry.go")
	a.run(a.dir, "git", "push", "-q", "origin", "feature")
	a.convo(a.dir, "push")
	writer := strings.TrimSpace(a.run(a.dir, "git", "config", "convo.shareWriter"))
	said := map[string]string{}
	for _, c := range []string{both, alone} {
		if said[c] = convPart(t, a.noteText(notes.Ref, c), writer, x); !strings.Contains(said[c], `"type":"ai"`) {
			t.Fatalf("A's note on %s before forget: %s", c[:7], said[c])
		}
	}

	a.convo(a.dir, "forget", x)
	a.convo(a.dir, "relink", "main..HEAD")
	a.convo(a.dir, "link", y, alone)
	a.convo(a.dir, "record", alone)
	a.convo(a.dir, "push")
	for _, c := range []string{both, alone} {
		if got := convPart(t, a.noteText(notes.Ref, c), writer, x); got != said[c] {
			t.Errorf("A's note on %s after forget and rewrites says of X\n%s\nwas\n%s", c[:7], got, said[c])
		}
		if note := a.noteText(notes.Ref, c); strings.Contains(note, `"type":"human"`) {
			t.Errorf("A's rewritten note on %s gives lines to a person:\n%s", c[:7], note)
		}
	}
	if note := a.noteText(notes.Ref, alone); !strings.Contains(note, y) {
		t.Errorf("A's note on %s lacks the link made after forget:\n%s", alone[:7], note)
	}

	b := cloneAs(t, bare, "b")
	b.run(b.dir, "git", "checkout", "-q", "feature")
	b.convo(b.dir, "fetch")
	for _, c := range []string{both, alone} {
		if ids := convIDs(b.showJSON(b.dir, c)); !has(ids, x) || !has(ids, y) {
			t.Errorf("B's show %s: %v, want X and Y", c[:7], ids)
		}
	}
	for _, f := range []string{"limiter.go", "retry.go"} {
		for _, l := range b.blameJSON(b.dir, f) {
			if l.Line != 2 && (l.Attribution != "agent" || l.WrittenBy == nil || *l.WrittenBy != x) {
				t.Errorf("B's blame %s line %d: %s by %v, want X's", f, l.Line, l.Attribution, l.WrittenBy)
			}
		}
	}

	// Withdrawn on purpose: unlink, then push.
	if out := a.convo(a.dir, "unlink", x, both); !strings.Contains(out, x) {
		t.Errorf("unlink after forget: %s", out)
	}
	a.convo(a.dir, "push")
	if note := a.noteText(notes.Ref, both); strings.Contains(note, x) || !strings.Contains(note, y) || strings.Contains(note, `"type":"human"`) {
		t.Errorf("A's note on %s after unlink:\n%s", both[:7], note)
	}
	b.convo(b.dir, "fetch")
	if ids := convIDs(b.showJSON(b.dir, both)); has(ids, x) || !has(ids, y) {
		t.Errorf("B's show %s after A's unlink: %v", both[:7], ids)
	}
	for _, l := range b.blameJSON(b.dir, "limiter.go") {
		if l.Attribution != "unknown" || l.WrittenBy != nil {
			t.Errorf("B's blame limiter.go line %d after A's unlink: %s by %v, want unknown", l.Line, l.Attribution, l.WrittenBy)
		}
	}
	if ids := convIDs(b.showJSON(b.dir, alone)); !has(ids, x) {
		t.Errorf("B's show %s: unlink on %s withdrew X here too: %v", alone[:7], both[:7], ids)
	}
}

// convPart is what writer's record in a note says of conversation conv:
// its entry, its files' entries and its evidence, as JSON.
func convPart(t *testing.T, note, writer, conv string) string {
	t.Helper()
	for _, r := range notes.Decode([]byte(note)) {
		m, _ := r.Meta()
		if m.Writer != writer {
			continue
		}
		part := struct {
			Conv     trace.ConvMeta
			Files    map[string][]trace.Conversation
			Evidence []trace.Evidence
		}{Conv: m.Conversations[conv], Files: map[string][]trace.Conversation{}}
		for _, f := range r.Files {
			for _, c := range f.Conversations {
				if trace.ConversationID(c.URL) == conv {
					part.Files[f.Path] = append(part.Files[f.Path], c)
				}
			}
		}
		for _, e := range m.Evidence {
			if e.Conversation == conv {
				part.Evidence = append(part.Evidence, e)
			}
		}
		b, err := json.Marshal(part)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	return ""
}
