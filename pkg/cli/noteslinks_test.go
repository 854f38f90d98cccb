package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/share/notes"
)

// relativeTime is a relative date, which two runs a second apart print
// differently.
var relativeTime = regexp.MustCompile(`[0-9]+ [a-z]+ ago`)

// TestLogReadsTheNotesLinksFile: log reads teammates' shared notes from
// the links file it keeps in .git (it asks git for no note: GIT_TRACE),
// and says what reading the notes says (log --no-notes reads every note
// itself): built at the first log, brought up to date after a fetch of a
// new note, a value of it damaged, and as JSON too.
func TestLogReadsTheNotesLinksFile(t *testing.T) {
	_, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	a.convo(a.dir, "share", "on")
	const conv1, conv2 = "99999999-2222-4333-8444-555555555551", "99999999-2222-4333-8444-555555555552"
	a.conversation(t, conv1, "Cache the sessions", "Added an LRU cache.", "cache sessions", "cache.go", "package cache\n\nvar Size = 128\n")
	a.commit(a.dir, "cache", "cache.go")
	a.run(a.dir, "git", "push", "-q", "origin", "main")

	b := newSandbox(t)
	bdir := filepath.Join(b.root, "b")
	b.run(b.root, "git", "clone", "-q", bare, bdir)
	b.convo(bdir, "install", "--cursor=none")
	file := filepath.Join(bdir, ".git", "git-convo-notes-links")
	trace := filepath.Join(b.root, "trace")
	same := func(step, want string) {
		t.Helper()
		for _, json := range []bool{false, true} {
			args := []string{"log"}
			if json {
				args = append(args, "--json")
			}
			os.Remove(trace)
			r := b.runEnv(bdir, b.with("GIT_TRACE="+trace), "", append([]string{"git", "convo"}, args...)...)
			if r.code != 0 {
				t.Fatalf("%s: log: %d %s", step, r.code, r.stderr)
			}
			got := r.stdout
			if tr, err := os.ReadFile(trace); err != nil || strings.Contains(string(tr), "--notes") {
				t.Errorf("%s: log asked git for the notes (%v):\n%s", step, err, tr)
			}
			read := b.convo(bdir, append(args, "--no-notes")...)
			got, read = relativeTime.ReplaceAllString(got, "ago"), relativeTime.ReplaceAllString(read, "ago")
			if got != read {
				t.Errorf("%s: log from the links file:\n%s\nfrom the notes:\n%s", step, got, read)
			}
			if !strings.Contains(got, want) {
				t.Errorf("%s: log does not show %q:\n%s", step, want, got)
			}
		}
		if _, err := os.Stat(file); err != nil {
			t.Errorf("%s: no links file: %v", step, err)
		}
	}
	same("first", "Cache the sessions")

	a.conversation(t, conv2, "Size the cache", "Made the size a setting.", "size", "size.go", "package cache\n\nvar Max = 4\n")
	a.commit(a.dir, "size", "size.go")
	a.run(a.dir, "git", "push", "-q", "origin", "main")
	a.run(a.dir, "git", "push", "-q", "origin", "refs/notes/convo")
	b.run(bdir, "git", "pull", "-q")
	same("after a fetch", "Size the cache")

	// A value damaged is read from its note, never taken as it is (the
	// last value ends the file).
	kept, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	kept[len(kept)-2] ^= 0x20
	if err := os.WriteFile(file, kept, 0o600); err != nil {
		t.Fatal(err)
	}
	same("damaged", "Size the cache")

	// b shares too, then a plain git fetch brings a's next note to the
	// tracking ref, not merged: b's own records must be told from their
	// copies there, and the file still answers (its tips name the
	// tracking ref's new tip: the log brought it up to date).
	b.convo(bdir, "share", "on")
	b.convo(bdir, "fetch") // merges the tracking ref: the live ref is made
	const conv3 = "99999999-2222-4333-8444-555555555553"
	a.conversation(t, conv3, "Evict the cache", "Evicted the oldest.", "evict", "evict.go", "package cache\n\nvar Evict = true\n")
	a.commit(a.dir, "evict", "evict.go")
	a.run(a.dir, "git", "push", "-q", "origin", "main")
	a.run(a.dir, "git", "push", "-q", "origin", "refs/notes/convo")
	b.run(bdir, "git", "pull", "-q")
	tracking := notes.TrackingRef("origin")
	tip := strings.TrimSpace(b.run(bdir, "git", "rev-parse", tracking))
	if live := strings.TrimSpace(b.run(bdir, "git", "rev-parse", notes.Ref)); live == tip {
		t.Fatalf("the tracking ref is merged already (%s)", tip)
	}
	same("a sharing clone, a fetch not merged", "Evict the cache")
	if kept, err := os.ReadFile(file); err != nil || !strings.Contains(string(kept), "\n"+tracking+" "+tip+"\n") {
		t.Errorf("the links file does not name the tracking ref's tip %s (%v):\n%.300s", tip, err, kept)
	}
}
