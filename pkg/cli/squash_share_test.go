package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/share/notes"
	"github.com/git-convo/git-convo/pkg/share/trace"
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
	squash, sources, a := squashedFeatureNotes(t, base, bare, true)

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
	// The squash's links are A's claim (A shared the notes they come
	// from), recognised by B: "shared by" names A, not B.
	writer := strings.TrimSpace(b.run(b.dir, "git", "config", notes.KeyWriter))
	sharer := strings.TrimSpace(a.run(a.dir, "git", "config", notes.KeyWriter))
	shown := c.showJSON(c.dir, squash)
	got := map[string]conversationJSON{}
	for _, cv := range shown.Conversations {
		got[cv.ID] = cv
	}
	for id := range sources {
		if cv, ok := got[id]; !ok || cv.Origin != "notes" || cv.SharedBy != sharer || cv.DerivedBy != writer {
			t.Errorf("the fresh clone's view of the squash's %s: %+v (sharer %s, deriver %s)", id, cv, sharer, writer)
		}
	}
	if out := c.convo(c.dir, "show", squash); !strings.Contains(out, "shared by "+sharer) || strings.Contains(out, writer) {
		t.Errorf("show does not say whose note it is (%s's, not %s's):\n%s", sharer, writer, out)
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
	real := a.commit(a.dir, "real", "real.go")
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
				"reason": "squash of " + real[:7]}}}}}
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

// The hostile teammate of issue 22: notes attached to an old commit, naming
// the victim's conversation, one with the hashes of lines a person typed
// later, one copied from the victim's own note on another commit. The
// victim's clone never shows the person's commit as the conversation's, and
// ignores the copied record; what a teammate's note claims on its own
// commit is shown as theirs.
func TestShareHostileNotesAreClaims(t *testing.T) {
	base, bare := newTeam(t)
	seed := strings.TrimSpace(base.run(base.root, "git", "--git-dir="+bare, "rev-parse", "main"))
	v := cloneAs(t, bare, "v")
	v.convo(v.dir, "share", "on")
	v.conversation(t, "conv-victim", "Victim's work", "s", "p", "feat.go", "package feat\n\nfunc Feature(x int) int {\n\treturn x * featureScale\n}\n")
	mine := v.commit(v.dir, "feature", "feat.go")
	v.run(v.dir, "git", "push", "-q", "origin", "main") // the pre-push block pushes the notes
	v.convo(v.dir, "push")

	plain := filepath.Join(base.root, "plain")
	base.run(base.root, "git", "clone", "-q", bare, plain)
	typed := "package feat\n\nfunc Typed(a, b int) int {\n\tsum := a*31 + b\n\treturn sum ^ magicNumber\n}\n"
	base.write(plain, "typed.go", typed)
	person := base.commit(plain, "typed by a person", "typed.go")
	base.run(plain, "git", "push", "-q", "origin", "main")

	h := cloneAs(t, bare, "h")
	h.convo(h.dir, "share", "on")
	h.run(h.dir, "git", "fetch", "-q")
	// The forged record: on the old seed commit, about it, naming the
	// victim's conversation with evidence of the person's lines.
	var hashes []string
	for _, l := range strings.Split(typed, "\n") {
		if strings.TrimSpace(l) != "" {
			hashes = append(hashes, `"`+trace.LineHash(l)+`"`)
		}
	}
	forged := `{"version":"0.1.0","id":"00000000-0000-8000-8000-000000000001","timestamp":"2020-01-01T00:00:00Z",` +
		`"vcs":{"type":"git","revision":"` + seed + `"},"files":[],"metadata":{"dev.git-convo":{"format":1,"writer":"clone-evil",` +
		`"conversations":{"conv-victim":{"confidence":1,"status":"auto"}},` + // no title: the victim's database knows it

		`"evidence":[{"path":"typed.go","conversation":"conv-victim","lines":[` + strings.Join(hashes, ",") + `]}]}}}`
	// The copied record: the victim's own note on its commit, attached to
	// the seed commit.
	copied := strings.TrimSpace(h.run(h.dir, "git", "notes", "--ref="+notes.TrackingRef("origin"), "show", mine))
	h.runEnv(h.dir, h.env, forged+"\n"+copied+"\n", "git", "notes", "--ref="+notes.Ref, "add", "-f", "-F", "-", seed)
	h.convo(h.dir, "push")

	v.run(v.dir, "git", "pull", "-q", "--ff-only")
	if cs := v.showJSON(v.dir, person).Conversations; len(cs) != 0 {
		t.Errorf("the person's commit is shown as the victim's conversation's: %+v", cs)
	}
	for _, cv := range v.showJSON(v.dir, seed).Conversations {
		if cv.Origin != "notes" || cv.SharedBy != "clone-evil" {
			t.Errorf("the seed commit's link is not the hostile teammate's claim: %+v", cv)
		}
	}
	if out := v.convo(v.dir, "show", seed); !strings.Contains(out, "Victim's work") || !strings.Contains(out, "shared by clone-evil") {
		t.Errorf("show does not name the conversation by its local title and say whose claim it is:\n%s", out)
	}
	if out := v.convo(v.dir, "blame", "typed.go"); strings.Contains(out, "Victim") {
		t.Errorf("blame gives the person's lines to the victim's conversation:\n%s", out)
	}
}
