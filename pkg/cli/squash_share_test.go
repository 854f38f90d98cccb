package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/notes"
)

// A server-side squash travels: the clone that pulls it derives the record,
// keeps it through its own next commit and push, a fresh clone reads it
// from the notes (saying whose note it is), people's commits that add
// braces and return nil to the same file are never claimed, and an unlink
// withdraws the record from the whole team.
func TestShareSquashRecordTravelsAndIsWithdrawn(t *testing.T) {
	base, bare := newTeam(t)
	// A person's commit from before any conversation, in the file the agent
	// will write: braces and return nil.
	human := filepath.Join(base.root, "human")
	base.run(base.root, "git", "clone", "-q", bare, human)
	base.write(human, "config.go", "package config\n\nfunc Old() error {\n\treturn nil\n}\n")
	before := base.commit(human, "old helper", "config.go")
	base.run(human, "git", "push", "-q", "origin", "main")

	b := cloneAs(t, bare, "b")
	b.convo(b.dir, "share", "on")
	d := cloneAs(t, bare, "d") // does not share
	squash, sources := squashedFeature(t, base, bare)

	b.run(b.dir, "git", "pull", "-q", "--ff-only")
	checkSquashAttributed(t, b, squash, sources)
	if n := b.noteText(notes.Ref, squash); !strings.Contains(n, `"derived":"squash"`) {
		t.Fatalf("B's note on the squash:\n%s", n)
	}
	// D, sharing off, pulls too: it keeps its record in the clone, by its random name.
	d.run(d.dir, "git", "pull", "-q", "--ff-only")
	checkSquashAttributed(t, d, squash, sources)
	kept, _ := os.ReadFile(filepath.Join(d.dir, ".git", "git-convo-derived.jsonl"))
	if !strings.Contains(string(kept), `"writer":"clone-`) || strings.Contains(string(kept), "@example") {
		t.Errorf("D's derived record is not written by its clone name:\n%s\n%s", kept, d.run(d.dir, "git", "config", "--list"))
	}

	// B's own next commit and push, a person's: the same braces and
	// return nil in the squashed file. The refresh before the push must
	// keep the derived record.
	b.write(b.dir, "config.go", b.run(b.dir, "git", "show", "HEAD:config.go")+"\nfunc Helper() error {\n\treturn nil\n}\n")
	after := b.commit(b.dir, "a helper, by hand", "config.go")
	b.run(b.dir, "git", "push", "-q", "--no-verify", "origin", "main")
	b.convo(b.dir, "push")
	if n := b.noteText(notes.Ref, squash); !strings.Contains(n, `"derived":"squash"`) {
		t.Fatalf("after B's commit and push, B's note on the squash:\n%s", n)
	}

	// A fresh clone, fed only by the notes.
	c := cloneAs(t, bare, "c")
	c.run(c.dir, "git", "fetch", "-q")
	writer := strings.TrimSpace(b.run(b.dir, "git", "config", notes.KeyWriter))
	shown := c.showJSON(c.dir, squash)
	got := map[string]conversationJSON{}
	for _, cv := range shown.Conversations {
		got[cv.ID] = cv
	}
	for id := range sources {
		if cv, ok := got[id]; !ok || cv.Origin != "notes" || cv.SharedBy != writer {
			t.Errorf("the fresh clone's view of the squash's %s: %+v (writer %s)", id, cv, writer)
		}
	}
	if out := c.convo(c.dir, "show", squash); !strings.Contains(out, "shared by "+writer) {
		t.Errorf("show does not say whose note it is:\n%s", out)
	}
	for _, clone := range []teammate{b, c} {
		for name, h := range map[string]string{"before": before, "after": after} {
			if cs := clone.showJSON(clone.dir, h).Conversations; len(cs) != 0 {
				t.Errorf("%s: the person's commit %s is claimed: %+v", clone.dir, name, cs)
			}
		}
	}
	// B withdraws one link: the team drops it, the other stays.
	if out := b.convo(b.dir, "unlink", "conv-sq1", squash); !strings.Contains(out, "withdrew") {
		t.Fatalf("unlink: %s", out)
	}
	b.convo(b.dir, "push")
	c.run(c.dir, "git", "fetch", "-q")
	ids := map[string]bool{}
	for _, cv := range c.showJSON(c.dir, squash).Conversations {
		ids[cv.ID] = true
	}
	if ids["conv-sq1"] || !ids["conv-sq2"] {
		t.Errorf("after the withdrawal, the fresh clone links the squash to %v", ids)
	}
	var listed struct{ Derived []notes.DerivedLink }
	if err := json.Unmarshal([]byte(c.convo(c.dir, "doctor", "--derived", "--json")), &listed); err != nil {
		t.Fatal(err)
	}
	if len(listed.Derived) != 1 || listed.Derived[0].Conversation != "conv-sq2" || listed.Derived[0].Stale {
		t.Errorf("doctor --derived: %+v", listed.Derived)
	}
	validateNotes(t, c, notes.TrackingRef("origin"))
}

// A repository where the old squash detection pushed false records is
// cleaned by share clean: a preview, nothing without the user's word, then
// a withdrawal every clone honours.
func TestShareCleanWithdrawsOldFalseRecords(t *testing.T) {
	base, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	a.convo(a.dir, "share", "on")
	a.conversation(t, "conv-real", "Real work", "s", "p", "real.go", "package real\n\nfunc Real() error {\n\treturn nil\n}\n")
	a.commit(a.dir, "real", "real.go")
	a.run(a.dir, "git", "push", "-q", "--no-verify", "origin", "main")
	// A person's commit, from a clone without git-convo.
	plain := filepath.Join(base.root, "plain")
	base.run(base.root, "git", "clone", "-q", bare, plain)
	base.write(plain, "other.go", "package real\n\nfunc Other() error {\n\treturn nil\n}\n")
	person := base.commit(plain, "a person's", "other.go")
	base.run(plain, "git", "push", "-q", "origin", "main")
	a.run(a.dir, "git", "pull", "-q", "--ff-only")
	// What the old rule wrote: a squash of two matching lines (} and
	// return nil), by some clone, on the person's commit.
	rec := map[string]any{"version": "0.1.0", "id": "00000000-0000-8000-8000-000000000000", "timestamp": "2026-01-01T00:00:00Z",
		"vcs":   map[string]string{"type": "git", "revision": person},
		"files": []any{},
		"metadata": map[string]any{"dev.git-convo": map[string]any{"format": 1, "writer": "clone-old",
			"conversations": map[string]any{"conv-real": map[string]any{"title": "Real work", "confidence": 0.9, "status": "auto",
				"reason": "squash of 1234567"}}}}}
	line, _ := json.Marshal(rec)
	a.runEnv(a.dir, a.env, string(line)+"\n", "git", "notes", "--ref="+notes.Ref, "add", "-f", "-F", "-", person)
	a.convo(a.dir, "push")

	c := cloneAs(t, bare, "c")
	c.run(c.dir, "git", "fetch", "-q")
	if cs := c.showJSON(c.dir, person).Conversations; len(cs) != 1 {
		t.Fatalf("the old false record does not show: %+v", cs)
	}
	c.convo(c.dir, "share", "on")
	preview := c.convo(c.dir, "share", "clean")
	if !strings.Contains(preview, "1 derived link today's rules would not make") || !strings.Contains(preview, "nothing withdrawn") ||
		!strings.Contains(preview, "old line-hash rule") {
		t.Fatalf("share clean without --yes:\n%s", preview)
	}
	if cs := c.showJSON(c.dir, person).Conversations; len(cs) != 1 {
		t.Fatalf("share clean withdrew without the user's word")
	}
	if out := c.convo(c.dir, "share", "clean", "--yes"); !strings.Contains(out, "withdrew 1 derived link") {
		t.Fatalf("share clean --yes:\n%s", out)
	}
	c.convo(c.dir, "push")
	a.run(a.dir, "git", "fetch", "-q")
	for _, tm := range []teammate{a, c} {
		if cs := tm.showJSON(tm.dir, person).Conversations; len(cs) != 0 {
			t.Errorf("%s: the false record still shows: %+v", tm.dir, cs)
		}
	}
	if out := c.convo(c.dir, "share", "clean"); !strings.Contains(out, "nothing to clean") {
		t.Errorf("a second clean:\n%s", out)
	}
}
