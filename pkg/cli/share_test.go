package cli

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-convo/git-convo/pkg/mcpserver"
	"github.com/git-convo/git-convo/pkg/share/notes"
	"github.com/git-convo/git-convo/pkg/share/trace/tracetest"
)

// Sharing, end to end: real git, a bare remote and clones owned by
// different sandboxed users (own HOME, links.sqlite and Cursor database).

// teammate is one person's clone of the shared remote.
type teammate struct {
	*sandbox
	dir string
}

// newRemote makes a bare repository holding one commit on main.
func newRemote(t *testing.T, sb *sandbox) string {
	t.Helper()
	seed := sb.repo("seed")
	bare := filepath.Join(sb.root, "remote.git")
	sb.run(sb.root, "git", "init", "-q", "--bare", bare)
	sb.run(seed, "git", "push", "-q", bare, "main")
	return bare
}

// newTeam is a shared bare remote, with the sandbox that holds it.
func newTeam(t *testing.T) (*sandbox, string) {
	t.Helper()
	skipOnWindows(t)
	base := newSandbox(t)
	return base, newRemote(t, base)
}

// cloneAs clones the remote for a new user and installs git-convo there.
func cloneAs(t *testing.T, bare, name string) teammate {
	t.Helper()
	sb := newSandbox(t)
	dir := filepath.Join(sb.root, name)
	sb.run(sb.root, "git", "clone", "-q", bare, dir)
	sb.convo(dir, "install", "--cursor=none")
	return teammate{sb, dir}
}

// conversation puts a conversation into the user's Cursor database (title
// and summary, as Cursor stores them) and replays an agent edit through the
// hooks.
func (tm teammate) conversation(t *testing.T, conv, title, summary, prompt, rel, body string) {
	t.Helper()
	now := time.Now().UnixMilli()
	cursorKV(t, tm.cursorDB, "cursorDiskKV", map[string]any{"composerData:" + conv: map[string]any{
		"_v": 10, "name": title, "createdAt": now - 60000, "lastUpdatedAt": now, "status": "completed",
		"fullConversationHeadersOnly": []any{},
		"latestConversationSummary":   map[string]any{"summary": map[string]any{"summary": summary}},
	}})
	tm.capture(tm.dir, conv, "beforeSubmitPrompt", map[string]any{"prompt": prompt})
	p := tm.write(tm.dir, rel, body)
	tm.capture(tm.dir, conv, "afterFileEdit", map[string]any{"file_path": p, "edits": []map[string]string{{"old_string": "", "new_string": body}}})
	tm.capture(tm.dir, conv, "stop", map[string]any{"status": "completed", "loop_count": 0})
}

// noteText is the note on rev in ref ("" when none).
func (tm teammate) noteText(ref, rev string) string {
	r := tm.runEnv(tm.dir, tm.env, "", "git", "notes", "--ref="+ref, "show", rev)
	if r.code != 0 {
		return ""
	}
	return r.stdout
}

// refBlobs is the content of every blob ever reachable from ref (every
// version of every note), "" when the ref does not exist.
func refBlobs(t *testing.T, sb *sandbox, gitDir, ref string) string {
	t.Helper()
	r := sb.runEnv(sb.root, sb.env, "", "git", "--git-dir="+gitDir, "rev-list", "--objects", ref)
	if r.code != 0 {
		return ""
	}
	var all strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		all.WriteString(sb.run(sb.root, "git", "--git-dir="+gitDir, "cat-file", "-p", f[0]))
		all.WriteString("\n")
	}
	return all.String()
}

func hasRef(sb *sandbox, gitDir, ref string) bool {
	r := sb.runEnv(sb.root, sb.env, "", "git", "--git-dir="+gitDir, "rev-parse", "-q", "--verify", ref)
	return r.code == 0
}

func TestShareTeammateSeesConversations(t *testing.T) {
	base, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	b := cloneAs(t, bare, "b")

	a.convo(a.dir, "share", "on")
	const conv = "11111111-2222-4333-8444-555555555555"
	body := "package limiter\n\nfunc Allow(client string) bool {\n\treturn bucket(client).take()\n}\n"
	a.conversation(t, conv, "Add rate limiting to the API", "Added a token bucket per client.", "add rate limiting", "limiter.go", body)
	a.write(a.dir, "notes.txt", "typed by hand\n")
	c := a.commit(a.dir, "api: rate-limit clients", "limiter.go", "notes.txt")
	if !strings.Contains(a.noteText(notes.Ref, c), conv) {
		t.Fatalf("sharing is on: the commit's note names its conversation; note: %q", a.noteText(notes.Ref, c))
	}
	a.run(a.dir, "git", "push", "-q", "origin", "main") // the pre-push block sends the notes (GIT_CONVO_SYNC=1: in the foreground)
	if !hasRef(base, bare, notes.Ref) {
		t.Fatal("after git push, the remote has no refs/notes/convo")
	}

	// B has no local data at all: a plain git pull brings the commit and the notes.
	b.run(b.dir, "git", "pull", "-q", "--ff-only")
	shown := b.showJSON(b.dir, c)
	if len(shown.Conversations) != 1 {
		t.Fatalf("B's show: %+v", shown.Conversations)
	}
	got := shown.Conversations[0]
	if got.ID != conv || got.Title != "Add rate limiting to the API" || got.Summary != "Added a token bucket per client." ||
		got.Origin != "notes" || got.Confidence <= 0 || got.Reason == "" || got.Agent == "" || got.Model != "gpt-5" {
		t.Errorf("B's show --json: %+v", got)
	}
	if out := b.convo(b.dir, "show", c); !strings.Contains(out, "Add rate limiting to the API") || !strings.Contains(out, "token bucket") {
		t.Errorf("B's show:\n%s", out)
	}
	// B's show reads the commit and its note from the object files: no git process.
	trace := filepath.Join(b.root, "show-trace")
	r := b.runEnv(b.dir, append(b.env[:len(b.env):len(b.env)], "GIT_TRACE="+trace), "", binPath, "show", c)
	if tr, _ := os.ReadFile(trace); r.code != 0 || !strings.Contains(r.stdout, "Add rate limiting to the API") ||
		strings.Contains(string(tr), "trace: built-in: git ") {
		t.Errorf("B's show, which should start no git: exit %d\n%s\n%s", r.code, r.stdout, tr)
	}
	// log reads shared notes through git log's %N; a user's own notes
	// option (which changes what %N prints) changes nothing.
	for _, args := range [][]string{{"-n", "3"}, {"-n", "3", "--no-notes"}, {"-n", "3", "--notes"}} {
		if out := b.convo(b.dir, append([]string{"log"}, args...)...); !strings.Contains(out, "Add rate limiting to the API") {
			t.Errorf("B's log %v:\n%s", args, out)
		}
	}
	blame := b.convo(b.dir, "blame", "limiter.go")
	for i, line := range strings.Split(strings.TrimSpace(blame), "\n") {
		if i != 1 && !strings.Contains(line, "Add rate limiting") { // line 2 is blank
			t.Errorf("B's blame line %d does not name A's conversation: %q", i+1, line)
		}
	}
	if out := b.convo(b.dir, "blame", "notes.txt"); strings.Contains(out, "Add rate limiting") {
		t.Errorf("a line A typed by hand is attributed to the conversation:\n%s", out)
	}
	var stats statsJSON
	if err := json.Unmarshal([]byte(b.convo(b.dir, "stats", "--json", c)), &stats); err != nil || stats.Agent != 4 || stats.Added != 5 {
		t.Errorf("B's stats of A's commit: %+v %v (4 agent lines of 5, the blank line in no share, as A counts them)", stats, err)
	}
	// Local data wins, without duplicates: A sees one conversation, from its database.
	if own := a.showJSON(a.dir, c); len(own.Conversations) != 1 || own.Conversations[0].Origin != "local" {
		t.Errorf("A's show: %+v", own.Conversations)
	}
	if out := b.convo(b.dir, "conversations"); !strings.Contains(out, "Add rate limiting to the API") || !strings.Contains(out, "1 commit") {
		t.Errorf("B's conversations:\n%s", out)
	}
	validateNotes(t, b, notes.TrackingRef("origin"))
	validateTrace(t, b, c)
	out := filepath.Join(b.root, "traces")
	b.convo(b.dir, "trace", "--output", out, "HEAD~1..HEAD")
	rec, err := os.ReadFile(filepath.Join(out, c+".json"))
	if err != nil {
		t.Fatalf("trace --output: %v", err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, rec); err != nil {
		t.Fatal(err)
	}
	validateRecords(t, [][]byte{compact.Bytes()})
}

func TestShareConcurrentPushesMerge(t *testing.T) {
	base, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	b := cloneAs(t, bare, "b")
	a.convo(a.dir, "share", "on")
	b.convo(b.dir, "share", "on")
	seed := strings.TrimSpace(a.run(a.dir, "git", "rev-parse", "HEAD"))

	a.conversation(t, "conv-a", "A's work", "A's summary", "do a", "a.go", "package a\n\nvar A = 1\n")
	ca := a.commit(a.dir, "a", "a.go")
	a.convo(a.dir, "link", "conv-a-seed", seed) // both link the same old commit, each to their own conversation
	b.conversation(t, "conv-b", "B's work", "B's summary", "do b", "b.go", "package b\n\nvar B = 2\n")
	cb := b.commit(b.dir, "b", "b.go")
	b.convo(b.dir, "link", "conv-b-seed", seed)

	a.run(a.dir, "git", "push", "-q", "origin", "main:topic-a")
	b.run(b.dir, "git", "push", "-q", "origin", "main:topic-b") // the remote's notes moved: B must merge, not force
	b.convo(b.dir, "push")                                      // and by hand, once more: nothing new, no error

	tip := strings.Fields(base.run(base.root, "git", "--git-dir="+bare, "rev-list", "--parents", "-n", "1", notes.Ref))
	if len(tip) != 3 {
		t.Errorf("the remote's notes tip is not a merge with both parents: %v", tip)
	}
	for _, tm := range []teammate{a, b} {
		tm.run(tm.dir, "git", "fetch", "-q")
		tm.convo(tm.dir, "fetch")
		for rev, want := range map[string][]string{ca: {"conv-a"}, cb: {"conv-b"}, seed: {"conv-a-seed", "conv-b-seed"}} {
			ids := convIDs(tm.showJSON(tm.dir, rev))
			for _, w := range want {
				if !has(ids, w) {
					t.Errorf("%s: show %s lacks %s: %v", tm.dir, rev[:8], w, ids)
				}
			}
		}
	}
	// Both records of the seed commit are in one note, one line each.
	if note := a.noteText(notes.Ref, seed); strings.Count(strings.TrimSpace(note), "\n") != 1 {
		t.Errorf("the seed's merged note:\n%s", note)
	}
	validateNotes(t, a, notes.Ref)
}

func TestShareNeverLeaksSecrets(t *testing.T) {
	_, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	a.convo(a.dir, "share", "on", "--prompts")
	secrets := []string{
		"AKIAIOSFODNN7EXAMPLE",
		"ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789",
		"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAn3sTsecretbody\n-----END RSA PRIVATE KEY-----",
		"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
		"Zq8vN3pL0xR7tY2wK9mB4cF6hJ1sD5gA8eU3iO0z",
	}
	prompt := "Deploy the pelican service with these: " + strings.Join(secrets, " ") + " and keep /home/ada/keys private"
	summary := "Wired credentials " + strings.Join(secrets, ", ")
	a.conversation(t, "conv-s", "Deploy pelican", summary, prompt, "deploy.sh", "echo deploy\n")
	a.commit(a.dir, "deploy", "deploy.sh")
	a.run(a.dir, "git", "push", "-q", "origin", "main")
	for _, where := range []string{filepath.Join(a.dir, ".git"), bare} {
		all := refBlobs(t, a.sandbox, where, notes.Ref)
		if !strings.Contains(all, "Deploy the pelican service") {
			t.Fatalf("%s: the prompt's ordinary words are not shared:\n%s", where, all)
		}
		for _, s := range append(secrets, "MIIEowIBAAKCAQEA", "BEGIN RSA", "/home/ada") {
			if strings.Contains(all, s) {
				t.Errorf("%s: %q is under refs/notes/convo", where, s)
			}
		}
	}
	preview := a.convo(a.dir, "share", "preview")
	if !strings.Contains(preview, "[redacted: ") || strings.Contains(preview, "AKIA") {
		t.Errorf("share preview: %s", preview)
	}
}

func TestShareOffWritesNothing(t *testing.T) {
	base, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	a.conversation(t, "conv-off", "Quiet work", "s", "p", "q.go", "package q\n")
	c := a.commit(a.dir, "q", "q.go")
	a.convo(a.dir, "link", "conv-other", c)
	a.convo(a.dir, "relink")
	a.run(a.dir, "git", "commit", "-q", "--amend", "-m", "q amended")
	a.run(a.dir, "git", "push", "-q", "origin", "main")
	if r := a.runEnv(a.dir, a.env, "", "git", "convo", "push"); r.code == 0 || !strings.Contains(r.stderr, "sharing is off") {
		t.Errorf("git convo push with sharing off: exit %d, %s", r.code, r.stderr)
	}
	if out := a.run(a.dir, "git", "for-each-ref", "refs/notes/"); out != "" {
		t.Errorf("sharing off, yet refs were written: %s", out)
	}
	if out := base.run(base.root, "git", "--git-dir="+bare, "for-each-ref", "refs/notes/"); out != "" {
		t.Errorf("sharing off, yet the remote got: %s", out)
	}
	// Turned on and off again: from then on nothing more is written.
	a.convo(a.dir, "share", "on")
	a.convo(a.dir, "share", "off")
	before := a.run(a.dir, "git", "for-each-ref", notes.Ref)
	a.conversation(t, "conv-off2", "More", "s", "p", "r.go", "package r\n")
	a.commit(a.dir, "r", "r.go")
	if after := a.run(a.dir, "git", "for-each-ref", notes.Ref); after != before {
		t.Errorf("sharing off: the notes ref moved from %q to %q", before, after)
	}
	if st := a.convo(a.dir, "share", "status"); !strings.Contains(st, "sharing: off") {
		t.Errorf("share status:\n%s", st)
	}
}

func TestShareNotesFollowAmendAndRebase(t *testing.T) {
	_, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	a.convo(a.dir, "share", "on")
	a.conversation(t, "conv-r", "Rewrite me", "s", "p", "r.go", "package r\n\nvar R = 1\n")
	old := a.commit(a.dir, "r", "r.go")
	a.run(a.dir, "git", "commit", "-q", "--amend", "-m", "r, amended")
	amended := strings.TrimSpace(a.run(a.dir, "git", "rev-parse", "HEAD"))
	if amended == old || !strings.Contains(a.noteText(notes.Ref, amended), "conv-r") {
		t.Fatalf("after amend the new commit has no note: %q", a.noteText(notes.Ref, amended))
	}
	// Rebase the commit onto a new main commit.
	a.run(a.dir, "git", "checkout", "-q", "-b", "topic")
	a.run(a.dir, "git", "checkout", "-q", "main")
	a.run(a.dir, "git", "reset", "-q", "--hard", "HEAD~1")
	a.write(a.dir, "other.txt", "other\n")
	a.commit(a.dir, "other", "other.txt")
	a.run(a.dir, "git", "checkout", "-q", "topic")
	a.run(a.dir, "git", "rebase", "-q", "main")
	rebased := strings.TrimSpace(a.run(a.dir, "git", "rev-parse", "HEAD"))
	if rebased == amended {
		t.Fatal("rebase did not rewrite")
	}
	note := a.noteText(notes.Ref, rebased)
	if !strings.Contains(note, "conv-r") || !strings.Contains(note, rebased) {
		t.Errorf("after rebase the note of %s: %q", rebased[:8], note)
	}
	validateNotes(t, a, notes.Ref)
}

// validateNotes checks every note on ref against the Agent Trace schema
// (skipped without ../shared; the minimal checks of trace.Check always run
// through notes.Decode's callers).
func validateNotes(t *testing.T, tm teammate, ref string) {
	t.Helper()
	out := tm.run(tm.dir, "git", "notes", "--ref="+ref, "list")
	var recs [][]byte
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.Fields(line)
		if len(f) != 2 {
			continue
		}
		for _, rec := range strings.Split(strings.TrimSpace(tm.noteText(ref, f[1])), "\n") {
			recs = append(recs, []byte(rec))
		}
	}
	if len(recs) == 0 {
		t.Fatalf("no notes on %s", ref)
	}
	validateRecords(t, recs)
}

func validateTrace(t *testing.T, tm teammate, revs ...string) {
	t.Helper()
	out := tm.convo(tm.dir, append([]string{"trace"}, revs...)...)
	var recs [][]byte
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		recs = append(recs, []byte(l))
	}
	if len(recs) != len(revs) {
		t.Fatalf("trace printed %d records for %d commits:\n%s", len(recs), len(revs), out)
	}
	validateRecords(t, recs)
}

func validateRecords(t *testing.T, recs [][]byte) {
	t.Helper()
	for _, r := range recs {
		var v map[string]any
		if err := json.Unmarshal(r, &v); err != nil {
			t.Fatalf("not JSON: %v: %s", err, r)
		}
		if v["version"] != "0.1.0" || v["files"] == nil {
			t.Errorf("record: %s", r)
		}
	}
	tracetest.Validate(t, recs...)
}

// squashedFeature is A's shared feature branch of two agent commits,
// squash-merged into main by a third clone with plain git, as a forge's
// button does. It returns the squash commit and A's commits by conversation.
func squashedFeature(t *testing.T, base *sandbox, bare string) (string, map[string]string) {
	t.Helper()
	squash, sources, _ := squashedFeatureNotes(t, base, bare, true)
	return squash, sources
}

// squashedFeatureNotes is squashedFeature where A pushes its notes with its
// branch (withNotes), or not: A's clone is returned, to push them later.
func squashedFeatureNotes(t *testing.T, base *sandbox, bare string, withNotes bool) (string, map[string]string, teammate) {
	t.Helper()
	a := cloneAs(t, bare, "a")
	a.convo(a.dir, "share", "on")
	a.run(a.dir, "git", "checkout", "-q", "-b", "feature")
	a.conversation(t, "conv-sq1", "Parse the config", "s1", "p1", "config.go", "package config\n\nfunc Parse(b []byte) (Config, error) {\n\treturn decode(b)\n}\n")
	c1 := a.commit(a.dir, "config", "config.go")
	a.conversation(t, "conv-sq2", "Validate the config", "s2", "p2", "validate.go", "package config\n\nfunc (c Config) Validate() error {\n\treturn c.check()\n}\n")
	c2 := a.commit(a.dir, "validate", "validate.go")
	push := []string{"git", "push", "-q", "origin", "feature"}
	if !withNotes {
		push = append(push, "--no-verify") // no pre-push block: the branch alone
	}
	a.run(a.dir, push...)

	squasher := filepath.Join(base.root, "squasher")
	base.run(base.root, "git", "clone", "-q", bare, squasher)
	base.run(squasher, "git", "merge", "-q", "--squash", "origin/feature")
	base.run(squasher, "git", "commit", "-q", "-m", "Config parsing (#12)")
	squash := strings.TrimSpace(base.run(squasher, "git", "rev-parse", "HEAD"))
	base.run(squasher, "git", "push", "-q", "origin", "main")
	return squash, map[string]string{"conv-sq1": c1[:7], "conv-sq2": c2[:7]}, a
}

// checkSquashAttributed checks that B's show names A's conversations on the
// squash commit, with the reason and from notes, and that blame does too.
func checkSquashAttributed(t *testing.T, b teammate, squash string, sources map[string]string) {
	t.Helper()
	shown := b.showJSON(b.dir, squash)
	byID := map[string]conversationJSON{}
	for _, c := range shown.Conversations {
		byID[c.ID] = c
	}
	for id, src := range sources {
		c, ok := byID[id]
		if !ok || !strings.HasPrefix(c.Reason, "squash of "+src+": ") || c.Title == "" || c.Origin != "notes" {
			t.Errorf("the squash commit's %s: %+v (all: %+v)", id, c, shown.Conversations)
		}
	}
	if blame := b.convo(b.dir, "blame", "validate.go"); !strings.Contains(blame, "Validate the config") {
		t.Errorf("B's blame of the squashed file:\n%s", blame)
	}
	validateTrace(t, b, squash)
}

func TestShareSquashMergeIsAttributed(t *testing.T) {
	base, bare := newTeam(t)
	squash, sources := squashedFeature(t, base, bare)

	b := cloneAs(t, bare, "b")
	b.run(b.dir, "git", "fetch", "-q")
	if out := b.convo(b.dir, "fetch"); !strings.Contains(out, "1 squash merge attributed") {
		t.Errorf("git convo fetch:\n%s", out)
	}
	checkSquashAttributed(t, b, squash, sources)
	if out := b.run(b.dir, "git", "for-each-ref", notes.Ref); out != "" {
		t.Errorf("B does not share, yet wrote %s", out)
	}
}

// A plain git pull that brings a squash merge is enough: the post-merge
// hook's queued record is drained by the next git-convo command, which
// recognises the squash before it reads notes. A clone that shares writes
// the record to its notes, for its next push.
func TestShareSquashMergeAttributedAfterPlainPull(t *testing.T) {
	for _, tc := range []struct {
		name  string
		env   func(*sandbox) []string
		share bool
	}{
		{"hook records in the foreground", func(sb *sandbox) []string { return sb.env }, false},
		{"hook only queues", (*sandbox).queued, false},
		{"hook only queues, B shares", (*sandbox).queued, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base, bare := newTeam(t)
			b := cloneAs(t, bare, "b") // cloned before: the pull fast-forwards
			if tc.share {
				b.convo(b.dir, "share", "on")
			}
			squash, sources := squashedFeature(t, base, bare)
			if r := b.runEnv(b.dir, tc.env(b.sandbox), "", "git", "pull", "-q", "--ff-only"); r.code != 0 {
				t.Fatalf("git pull: %s", r.stderr)
			}
			checkSquashAttributed(t, b, squash, sources)
			if got := b.noteText(notes.Ref, squash) != ""; got != tc.share {
				t.Errorf("a note on the squash commit in refs/notes/convo: %v, want %v", got, tc.share)
			}
		})
	}
}

func TestShareOnWritesExistingLinksAndPushNeverFails(t *testing.T) {
	base, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	// install: a plain fetch brings notes, rewrites carry them, and a bare
	// git push still pushes branches (no remote.origin.push).
	if got := a.run(a.dir, "git", "config", "--get-all", "remote.origin.fetch"); !strings.Contains(got, notes.FetchRefspec("origin")) {
		t.Errorf("remote.origin.fetch: %s", got)
	}
	if got := strings.TrimSpace(a.run(a.dir, "git", "config", "notes.rewriteRef")); got != notes.RewriteRef {
		t.Errorf("notes.rewriteRef = %q", got)
	}
	if r := a.runEnv(a.dir, a.env, "", "git", "config", "remote.origin.push"); r.code == 0 {
		t.Errorf("remote.origin.push is set: %s", r.stdout)
	}
	a.conversation(t, "conv-early", "Before sharing", "s", "p", "e.go", "package e\n\nvar E = 1\n")
	c1 := a.commit(a.dir, "e1", "e.go")
	a.conversation(t, "conv-early2", "Also before", "s", "p", "f.go", "package f\n\nvar F = 1\n")
	c2 := a.commit(a.dir, "e2", "f.go")
	if out := a.convo(a.dir, "share", "on"); !strings.Contains(out, "2 notes written") {
		t.Errorf("share on:\n%s", out)
	}
	for _, c := range []string{c1, c2} {
		if a.noteText(notes.Ref, c) == "" {
			t.Errorf("share on wrote no note for the already linked %s", c[:8])
		}
	}
	if n := strings.TrimSpace(a.run(a.dir, "git", "rev-list", "--count", notes.Ref)); n != "1" {
		t.Errorf("share on wrote %s notes commits, want one batch", n)
	}
	// The remote refuses notes: the user's push still succeeds, the error is logged.
	os.WriteFile(filepath.Join(bare, "hooks", "pre-receive"), []byte("#!/bin/sh\nwhile read o n ref; do case $ref in refs/notes/*) echo no notes here >&2; exit 1;; esac; done\nexit 0\n"), 0o755)
	r := a.runEnv(a.dir, a.env, "", "git", "push", "-q", "origin", "main")
	if r.code != 0 || strings.Contains(r.stderr, "notes") {
		t.Errorf("git push with a failing notes push: exit %d, stderr %q", r.code, r.stderr)
	}
	if got := base.run(base.root, "git", "--git-dir="+bare, "rev-parse", "main"); strings.TrimSpace(got) != c2 {
		t.Errorf("the branch was not pushed: %s", got)
	}
	if st := a.convo(a.dir, "share", "status"); !strings.Contains(st, "last push failed") || !strings.Contains(st, "2 on refs/notes/convo") {
		t.Errorf("share status:\n%s", st)
	}
	if doc := a.runEnv(a.dir, a.env, "", "git", "convo", "doctor"); !strings.Contains(doc.stdout, "pushing notes to origin") {
		t.Errorf("doctor does not show the failed notes push:\n%s", doc.stdout)
	}
}

func TestSharePushRefreshesLateLinks(t *testing.T) {
	_, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	a.convo(a.dir, "share", "on")
	a.conversation(t, "conv-first", "First", "s", "p", "l.go", "package l\n\nvar L = 1\n")
	c := a.commit(a.dir, "l", "l.go")
	// A link that arrives after the commit was recorded, by a path that does
	// not write notes (as the agent's own commit, reported a moment later).
	db, err := sql.Open("sqlite3", "file:"+a.linksDB)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO links (conversationId, commitHash, matchedFiles, confidence, status, createdAt, reason, source, updatedAt)
VALUES ('conv-late', ?, '[]', 1.0, 'auto', '2026-11-22T00:00:00Z', 'committed by the agent', 'agent-commit', '2026-11-22T00:00:00Z')`, c); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if strings.Contains(a.noteText(notes.Ref, c), "conv-late") {
		t.Fatal("the late link is in the note already: the test proves nothing")
	}
	a.run(a.dir, "git", "push", "-q", "origin", "main")
	if note := a.noteText(notes.Ref, c); !strings.Contains(note, "conv-late") || !strings.Contains(note, "conv-first") {
		t.Errorf("after the push, the note lacks the late link:\n%s", note)
	}
}

// A teammate with no local data finds shared conversations with search,
// reads their metadata with conversation <id>, and the MCP tools that list
// a file's or a conversation's commits name them, from notes.
func TestShareTeammateSearchesAndAsksMCP(t *testing.T) {
	_, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	b := cloneAs(t, bare, "b")
	a.convo(a.dir, "share", "on")
	const conv = "77777777-2222-4333-8444-555555555555"
	a.conversation(t, conv, "Retry flaky uploads", "Added exponential backoff to the uploader.", "retry uploads", "upload.go",
		"package upload\n\nfunc Send(b []byte) error {\n\treturn withBackoff(b)\n}\n")
	c := a.commit(a.dir, "upload: retry", "upload.go")
	a.run(a.dir, "git", "push", "-q", "origin", "main")
	b.run(b.dir, "git", "pull", "-q", "--ff-only")

	var hit searchJSON
	if err := json.Unmarshal([]byte(b.convo(b.dir, "search", "--json", "backoff")), &hit); err != nil ||
		hit.ID != conv || hit.Title != "Retry flaky uploads" || hit.Origin != "notes" || hit.Commits != 1 {
		t.Errorf("B's search: %+v %v", hit, err)
	}
	if out := b.convo(b.dir, "search", "nothing-like-it"); strings.Contains(out, conv[:8]) {
		t.Errorf("B's search for other words:\n%s", out)
	}
	var meta struct {
		ID, Title, Summary, Origin string
		Commits                    []struct{ Hash string }
	}
	if err := json.Unmarshal([]byte(b.convo(b.dir, "conversation", "--json", conv[:8])), &meta); err != nil ||
		meta.ID != conv || meta.Title != "Retry flaky uploads" || meta.Summary == "" || meta.Origin != "notes" ||
		len(meta.Commits) != 1 || meta.Commits[0].Hash != c {
		t.Errorf("B's conversation --json: %+v %v", meta, err)
	}
	if out := b.convo(b.dir, "conversation", conv); !strings.Contains(out, "# Retry flaky uploads") || !strings.Contains(out, c[:7]) {
		t.Errorf("B's conversation:\n%s", out)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	session := b.mcpSession(ctx, b.dir)
	call := func(name string, args map[string]any) string {
		t.Helper()
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", name, err, res)
		}
		out, _ := json.Marshal(res.StructuredContent)
		return string(out)
	}
	var file mcpserver.FileOutput
	json.Unmarshal([]byte(call("get_file_context", map[string]any{"filePath": "upload.go", "keywords": []string{"backoff"}})), &file)
	if len(file.Conversations) != 1 || file.Conversations[0].ID != conv || file.Conversations[0].Origin != "notes" ||
		len(file.Commits) != 1 || file.Commits[0].Hash != c || len(file.Conversations[0].KeywordMatches) != 1 ||
		file.Conversations[0].KeywordMatches[0].Count == 0 {
		t.Errorf("B's get_file_context: %+v", file)
	}
	for _, args := range []map[string]any{{"conversationId": conv[:8]}, {}, {"filePath": "upload.go"}} {
		var list mcpserver.ListOutput
		json.Unmarshal([]byte(call("list_conversation_commits", args)), &list)
		if len(list.Conversations) != 1 || list.Conversations[0].Title != "Retry flaky uploads" || list.Conversations[0].Origin != "notes" ||
			len(list.Conversations[0].Commits) != 1 || list.Conversations[0].Commits[0].Hash != c {
			t.Errorf("B's list_conversation_commits %v: %+v", args, list)
		}
	}
}

// The agent's own git commit is reported by its shell hook after the commit
// was recorded: with sharing on, the commit's note names the conversation
// at once (the hook only reads git's config; a detached git-convo writes
// the note), not only after the next push's refresh.
func TestShareAgentCommitLinkUpdatesNote(t *testing.T) {
	for _, sync := range []bool{true, false} {
		t.Run(fmt.Sprintf("sync=%v", sync), func(t *testing.T) {
			_, bare := newTeam(t)
			a := cloneAs(t, bare, "a")
			a.convo(a.dir, "share", "on")
			const conv = "88888888-2222-4333-8444-555555555555"
			a.capture(a.dir, conv, "beforeSubmitPrompt", map[string]any{"prompt": "generate the table"})
			a.write(a.dir, "gen.txt", "generated\n")
			command := `git add gen.txt && git commit -m "chore: generated"`
			out := a.run(a.dir, "sh", "-c", command+" 2>&1") // recorded by post-commit: no link yet
			sha := strings.TrimSpace(a.run(a.dir, "git", "rev-parse", "HEAD"))
			if strings.Contains(a.noteText(notes.Ref, sha), conv) {
				t.Fatalf("the note names the conversation before the agent's shell reported the commit")
			}
			env := a.env
			if !sync {
				env = a.with("GIT_CONVO_SYNC=0")
			}
			payload, _ := json.Marshal(map[string]any{"conversation_id": conv, "generation_id": "g1", "hook_event_name": "afterShellExecution",
				"workspace_roots": []string{a.dir}, "cursor_version": "2.5.26", "cwd": a.dir, "command": command, "output": out})
			if r := a.runEnv(a.dir, env, string(payload), "git", "convo", "capture"); r.code != 0 {
				t.Fatalf("capture: %d %s", r.code, r.stderr)
			}
			deadline := time.Now().Add(20 * time.Second)
			for !strings.Contains(a.noteText(notes.Ref, sha), conv) {
				if sync || time.Now().After(deadline) {
					t.Fatalf("the agent's commit's note does not name its conversation: %q", a.noteText(notes.Ref, sha))
				}
				time.Sleep(100 * time.Millisecond)
			}
		})
	}
}

// TestPrePushOnlyWhileSharing: a repository that does not share has no
// pre-push block, so a push starts no process; share on adds it, share off
// and a later install take it away.
func TestPrePushOnlyWhileSharing(t *testing.T) {
	_, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	hook := filepath.Join(a.dir, ".git", "hooks", "pre-push")
	hasBlock := func() bool {
		b, err := os.ReadFile(hook)
		return err == nil && strings.Contains(string(b), "git-convo")
	}
	if hasBlock() {
		t.Error("install wrote a pre-push block with sharing off")
	}
	a.convo(a.dir, "share", "on")
	if !hasBlock() {
		t.Error("share on wrote no pre-push block")
	}
	a.run(a.dir, "git", "config", "convo.share", "false")
	a.convo(a.dir, "install", "--cursor=none")
	if hasBlock() {
		t.Error("install kept the pre-push block with sharing off")
	}
	a.convo(a.dir, "share", "on")
	a.convo(a.dir, "share", "off")
	if hasBlock() {
		t.Error("share off kept the pre-push block")
	}
	if d := a.convo(a.dir, "doctor"); strings.Contains(d, "pre-push") {
		t.Errorf("doctor reports pre-push with sharing off:\n%s", d)
	}
}
