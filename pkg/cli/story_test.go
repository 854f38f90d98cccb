package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

func TestStoryLinkShowLogBlame(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.convo(repo, "install")
	sb.agentEdit(repo, fixtureConv, "src/query.rs", "fn one() {}\nfn two() {}\n")
	sha := sb.commit(repo, "Add cursor queries", "src/query.rs")

	show := sb.showJSON(repo, "HEAD")
	if show.Commit.Hash != sha || len(show.Conversations) != 1 {
		t.Fatalf("show --json = %+v", show)
	}
	c := show.Conversations[0]
	if c.ID != fixtureConv || c.Title != fixtureTitle || c.Status != "auto" || c.Confidence < 0.2 || c.Confidence > 1 ||
		!has(c.MatchedFiles, "src/query.rs") || c.Reason == "" {
		t.Errorf("conversation = %+v", c)
	}

	// A human commit that shares no file is not linked.
	sb.write(repo, "docs/unrelated.md", "nothing\n")
	sb.commit(repo, "Unrelated docs", "docs/unrelated.md")
	if ids := convIDs(sb.showJSON(repo, "HEAD")); len(ids) != 0 {
		t.Errorf("unrelated commit linked to %v", ids)
	}

	var rows []showJSON
	for _, line := range strings.Split(strings.TrimSpace(sb.convo(repo, "log", "--json")), "\n") {
		var r showJSON
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r)
	}
	if len(rows) != 3 || rows[1].Commit.Hash != sha || !has(convIDs(rows[1]), fixtureConv) {
		t.Fatalf("log --json = %+v", rows)
	}
	only := strings.TrimSpace(sb.convo(repo, "log", "--json", "--only-linked"))
	if strings.Count(only, "\n") != 0 || !strings.Contains(only, sha) {
		t.Errorf("log --only-linked = %s", only)
	}

	var lines []blameLineJSON
	for _, line := range strings.Split(strings.TrimSpace(sb.convo(repo, "blame", "--json", "src/query.rs")), "\n") {
		var l blameLineJSON
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, l)
	}
	if len(lines) != 2 || lines[0].Commit != sha || len(lines[0].Conversations) != 1 || lines[0].Conversations[0].ID != fixtureConv || lines[1].Text != "fn two() {}" {
		t.Fatalf("blame --json = %+v", lines)
	}
	// Paths are relative to the current directory, like git's.
	sub := filepath.Join(repo, "src")
	if out := sb.convo(sub, "blame", "--json", "query.rs"); !strings.Contains(out, fixtureConv) {
		t.Errorf("blame from a subdirectory: %s", out)
	}
}

func TestCaptureBadInputKeepsData(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.convo(repo, "install")
	sb.agentEdit(repo, fixtureConv, "src/query.rs", "fn main() {}\n")
	for _, bad := range []string{"this is not json", "", "[1,2]", `{"hook_event_name": "afterFileEdit"}`, "\ufeff{\"conversation_id\": 5}"} {
		r := sb.runEnv(repo, sb.env, bad, "git", "convo", "capture")
		if r.code != 0 || strings.TrimSpace(r.stdout) != "{}" {
			t.Errorf("capture %q: exit %d, stdout %q (want 0 and {})", bad, r.code, r.stdout)
		}
		if strings.Count(strings.TrimSpace(r.stderr), "\n") > 0 {
			t.Errorf("capture %q: stderr is not one line: %q", bad, r.stderr)
		}
	}
	sha := sb.commit(repo, "Add cursor queries", "src/query.rs")
	if !has(convIDs(sb.showJSON(repo, sha)), fixtureConv) {
		t.Fatal("data recorded before bad payloads was lost")
	}
	if r := sb.runEnv(repo, sb.env, "", "git", "convo", "doctor"); !strings.Contains(r.stdout, "capture") {
		t.Errorf("doctor does not show the capture errors:\n%s", r.stdout)
	}
}

func TestCaptureReply(t *testing.T) {
	sb := newSandbox(t)
	repo := sb.repo("project")
	if out := strings.TrimSpace(sb.capture(repo, "c1", "beforeSubmitPrompt", map[string]any{"prompt": "hi"})); out != `{"continue":true}` {
		t.Errorf("beforeSubmitPrompt reply = %q", out)
	}
	for _, ev := range []string{"afterFileEdit", "stop", "sessionStart", "somethingNew"} {
		if out := strings.TrimSpace(sb.capture(repo, "c1", ev, nil)); out != "{}" {
			t.Errorf("%s reply = %q", ev, out)
		}
	}
}

// TestCaptureParallel runs 100 capture processes at once on one conversation,
// as Cursor does when the agent edits many files: no file may be lost.
func TestCaptureParallel(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	const n = 100
	var wg sync.WaitGroup
	errs := make(chan string, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := filepath.Join(repo, "src", "f"+strings.Repeat("x", i%3)+string(rune('a'+i%26))+"-"+strconv.Itoa(i)+".go")
			body, _ := json.Marshal(map[string]any{"conversation_id": "conv-par", "hook_event_name": "afterFileEdit",
				"workspace_roots": []string{repo}, "file_path": p, "edits": []map[string]string{{"old_string": "", "new_string": "x"}}})
			r := sb.runEnv(repo, sb.env, string(body), "git", "convo", "capture")
			if r.code != 0 || r.stderr != "" {
				errs <- r.stderr
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("capture failed: %s", e)
	}
	// An event that could not get the database within 2 s waits in the
	// spool; the next hook replays it. Either way nothing may be lost.
	sb.capture(repo, "another-conversation", "sessionStart", nil)
	if files := sb.filesOf(repo, "conv-par"); len(files) != n {
		t.Fatalf("%d files recorded, want %d", len(files), n)
	}
}

func TestRewriteCarriesLinks(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.convo(repo, "install")
	sb.agentEdit(repo, "conv-a", "a.go", "package a\n")
	first := sb.commit(repo, "add a", "a.go")
	sb.convo(repo, "link", "conv-manual-1234", first)

	// Amend: the new commit carries the auto and the manual link.
	sb.run(repo, "git", "commit", "-q", "--amend", "-m", "add a (amended)")
	amended := strings.TrimSpace(sb.run(repo, "git", "rev-parse", "HEAD"))
	ids := convIDs(sb.showJSON(repo, amended))
	if !has(ids, "conv-a") || !has(ids, "conv-manual-1234") {
		t.Fatalf("after amend: %v", ids)
	}
	if old := sb.showJSON(repo, first); len(old.Conversations) != 2 || old.Commit.RewrittenTo != amended {
		t.Errorf("old commit after amend: %+v", old)
	}

	// A non-interactive rebase onto a new base carries them again.
	sb.run(repo, "git", "checkout", "-q", "-b", "topic")
	sb.run(repo, "git", "checkout", "-q", "main")
	sb.run(repo, "git", "reset", "-q", "--hard", "HEAD~1")
	sb.write(repo, "base.txt", "base\n")
	sb.commit(repo, "base", "base.txt")
	sb.run(repo, "git", "checkout", "-q", "topic")
	sb.run(repo, "git", "rebase", "-q", "main")
	rebased := strings.TrimSpace(sb.run(repo, "git", "rev-parse", "HEAD"))
	if rebased == amended {
		t.Fatal("rebase did not rewrite")
	}
	ids = convIDs(sb.showJSON(repo, rebased))
	if !has(ids, "conv-a") || !has(ids, "conv-manual-1234") {
		t.Fatalf("after rebase: %v", ids)
	}
}

// TestReadBeforeFirstRecord: right after install in a repository with
// history, with no links database yet, or with one that never saw this
// repository, every read command answers as git does, with no
// conversations: exit 0, nothing on stderr unless it is a terminal, and no
// database file created.
func TestReadBeforeFirstRecord(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.write(repo, "f.go", "package f\n\nfunc F() {}\n")
	sha := sb.commit(repo, "add F", "f.go")
	sb.convo(repo, "install", "--cursor=none")
	reads := [][]string{{"show"}, {"show", "--json", "HEAD~1"}, {"log"}, {"log", "--json", "-n1"}, {"blame", "f.go"},
		{"blame", "--json", "f.go"}, {"stats"}, {"conversations"}, {"conversations", "--json"}, {"search", "queries"}}
	check := func(when string) {
		t.Helper()
		for _, args := range reads {
			r := sb.runEnv(repo, sb.env, "", append([]string{"git", "convo"}, args...)...)
			if r.code != 0 || r.stderr != "" {
				t.Errorf("%s: %v: exit %d, stderr %q", when, args, r.code, r.stderr)
			}
		}
		if out := sb.convo(repo, "show"); !strings.HasPrefix(out, "commit "+sha+"\n") || !strings.Contains(out, "add F") {
			t.Errorf("%s: show:\n%s", when, out)
		}
		if out := sb.convo(repo, "log"); !strings.Contains(out, "add F") || !strings.Contains(out, "initial") {
			t.Errorf("%s: log:\n%s", when, out)
		}
		if out := sb.convo(repo, "blame", "f.go"); strings.Count(out, "\n") != 3 || !strings.Contains(out, "func F() {}") {
			t.Errorf("%s: blame:\n%s", when, out)
		}
	}
	check("no database")
	// show answers with no database as with one that links nothing here
	// (below), though it opens no SQLite to say so.
	shows := [][]string{{"show"}, {"show", "--json"}, {"show", "--json", "HEAD~1"}, {"show", "HEAD", "HEAD~1"}}
	var before []string
	for _, args := range shows {
		before = append(before, sb.convo(repo, args...))
	}
	if _, err := os.Stat(sb.linksDB); !os.IsNotExist(err) {
		t.Fatalf("a read command created the database: %v", err)
	}
	// On a terminal, one line of hint, once.
	for _, args := range [][]string{{"show", "--no-pager"}, {"conversations", "--no-pager"}} {
		out := sb.onTTY(repo, sb.env, append([]string{"git", "convo"}, args...)...)
		if strings.Count(out, "hint: no conversations recorded yet") != 1 || strings.Contains(out, "No conversations recorded for this") {
			t.Errorf("%v on a terminal:\n%s", args, out)
		}
	}
	// A database that has only seen another repository.
	other := sb.repo("other")
	sb.capture(other, "c-other", "sessionStart", nil)
	if _, err := os.Stat(sb.linksDB); err != nil {
		t.Fatal(err)
	}
	check("another repository's database")
	for i, args := range shows {
		if out := sb.convo(repo, args...); out != before[i] {
			t.Errorf("%v with no database:\n%s\nwith one that links nothing here:\n%s", args, before[i], out)
		}
	}
	if out := sb.convo(repo, "show"); !strings.Contains(out, "No linked conversation") {
		t.Errorf("show with another repository's database:\n%s", out)
	}
}

func TestReadErrors(t *testing.T) {
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.capture(repo, "c1", "sessionStart", nil) // creates the DB
	r := sb.runEnv(repo, sb.env, "", "git", "convo", "show", "no-such-rev")
	if r.code == 0 || !strings.Contains(r.stderr, "no-such-rev") {
		t.Errorf("bad revision: exit %d, %q", r.code, r.stderr)
	}
	r = sb.runEnv(repo, sb.env, "", "git", "convo", "blame", "missing.go")
	if r.code == 0 || !strings.Contains(r.stderr, "missing.go") {
		t.Errorf("blame of a missing file: exit %d, %q", r.code, r.stderr)
	}
	r = sb.runEnv(sb.root, sb.env, "", "git", "convo", "log")
	if r.code == 0 || !strings.Contains(strings.ToLower(r.stderr), "not a git repository") {
		t.Errorf("outside a repository: exit %d, %q", r.code, r.stderr)
	}
}
