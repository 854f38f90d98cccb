package cli

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-convo/git-convo/hooks/templates"
	"github.com/git-convo/git-convo/pkg/util/sqliteuri"
	"github.com/git-convo/git-convo/pkg/write/queue"
)

// queued is the sandbox's environment for commits made as a user makes
// them: the hooks queue, nothing records in the foreground.
func (sb *sandbox) queued() []string { return sb.with("GIT_CONVO_SYNC=") }

func (sb *sandbox) runQueued(dir string, args ...string) string {
	sb.t.Helper()
	r := sb.runEnv(dir, sb.queued(), "", args...)
	if r.code != 0 {
		sb.t.Fatalf("%s exited %d: %s %s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
	}
	return r.stdout
}

func (sb *sandbox) queueDir() string { return queue.Dir(sb.linksDB) }

// queuedRecords counts the records waiting, claimed ones included.
func (sb *sandbox) queuedRecords() int { return queue.Waiting(sb.queueDir()) }

// openDB opens the sandbox's links database read-only, as it is on disk.
func (sb *sandbox) openDB() *sql.DB {
	sb.t.Helper()
	db, err := sql.Open("sqlite3", sqliteuri.ReadOnly(sb.linksDB, 0))
	if err != nil {
		sb.t.Fatal(err)
	}
	return db
}

// dbRows dumps what recording decides: commits with their branches, and
// links with their scores.
func (sb *sandbox) dbRows() string {
	sb.t.Helper()
	db := sb.openDB()
	defer db.Close()
	var b strings.Builder
	for _, q := range []string{
		"SELECT commitHash, ifnull(branch,'<null>'), parentCount FROM commits ORDER BY commitHash",
		"SELECT conversationId, commitHash, confidence, reason, writtenLines, addedLines FROM links ORDER BY conversationId, commitHash",
	} {
		rows, err := db.Query(q)
		if err != nil {
			sb.t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			rows.Scan(ptrs...)
			fmt.Fprintln(&b, vals...)
		}
		rows.Close()
	}
	return b.String()
}

func (sb *sandbox) branchOf(hash string) string {
	sb.t.Helper()
	db := sb.openDB()
	defer db.Close()
	var b sql.NullString
	if err := db.QueryRow("SELECT branch FROM commits WHERE commitHash = ?", hash).Scan(&b); err != nil {
		return "<not recorded>"
	}
	if !b.Valid {
		return "<null>"
	}
	return b.String
}

// A cherry-pick of 50 commits starts no recorder: the hook only queues. The
// next read command records every one of them, on the branch it was made
// on, even after HEAD moved to another branch.
func TestCherryPickQueuesAndRecordsBranches(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("picks")
	sb.convo(repo, "install", "--cursor=none")
	sb.run(repo, "git", "checkout", "-q", "-b", "topic")
	// An hour ago: a pick made in the same second as its original, onto
	// the same parent, would be the same commit (and was made on topic).
	earlier := "GIT_COMMITTER_DATE=" + time.Now().Add(-time.Hour).Format(time.RFC3339)
	for i := range 50 {
		sb.write(repo, fmt.Sprintf("f%02d.txt", i), fmt.Sprintf("line %d\n", i))
		sb.run(repo, "git", "add", "-A")
		sb.runEnv(repo, sb.with("GIT_CONVO=0", earlier), "", "git", "commit", "-q", "-m", fmt.Sprintf("c%d", i))
	}
	sb.run(repo, "git", "checkout", "-q", "-b", "picked", "main")
	sb.runQueued(repo, "git", "cherry-pick", "main..topic")
	if n := sb.queuedRecords(); n != 50 {
		t.Fatalf("%d queued records after a cherry-pick of 50, want 50", n)
	}
	if _, err := os.Stat(sb.linksDB); err == nil {
		if rows := sb.dbRows(); strings.Contains(rows, "picked") {
			t.Fatalf("commits were recorded by a process the hook started:\n%s", rows)
		}
	}
	sb.run(repo, "git", "checkout", "-q", "main") // HEAD moves before anything records
	picked := strings.Fields(sb.run(repo, "git", "rev-list", "main..picked"))
	sb.convo(repo, "log", "-n", "1")
	for _, h := range picked {
		if b := sb.branchOf(h); b != "picked" {
			t.Errorf("%s recorded on branch %s, want picked", h[:8], b)
		}
	}
	if n := sb.queuedRecords(); n != 0 {
		// A claimed file kept for late writers holds records already applied.
		sb.convo(repo, "record", "--hook=drain")
	}
}

// Replaying the queue twice, or draining it from two processes at once,
// records each commit once; a drain killed at any point loses nothing.
func TestQueueDrainsAreIdempotent(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("drains")
	sb.convo(repo, "install", "--cursor=none")
	sb.agentEdit(repo, "conv-q", "a.txt", "alpha\nbeta\n")
	var want []string
	for i := range 12 {
		sb.write(repo, fmt.Sprintf("a%d.txt", i), "x\n")
		if i == 0 {
			sb.write(repo, "a.txt", "alpha\nbeta\n")
		}
		sb.run(repo, "git", "add", "-A")
		sb.runQueued(repo, "git", "commit", "-q", "-m", fmt.Sprintf("q%d", i))
		want = append(want, strings.TrimSpace(sb.run(repo, "git", "rev-parse", "HEAD")))
	}
	q := filepath.Join(sb.queueDir(), queue.FileName)
	saved, err := os.ReadFile(q)
	if err != nil || len(queue.Parse(saved)) != 12 {
		t.Fatalf("queue: %d records, %v", len(queue.Parse(saved)), err)
	}

	// A drain killed at once, whatever it had done.
	cmd := exec.Command("git", "convo", "record", "--hook=drain")
	cmd.Dir, cmd.Env = repo, sb.env
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	cmd.Process.Kill()
	cmd.Wait()

	// Two drains at once.
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := exec.Command("git", "convo", "record", "--hook=drain")
			c.Dir, c.Env = repo, sb.env
			c.Run()
		}()
	}
	wg.Wait()
	for _, h := range want {
		if b := sb.branchOf(h); b != "main" {
			t.Fatalf("%s: branch %s after parallel drains", h[:8], b)
		}
	}
	first := sb.dbRows()
	if !strings.Contains(first, "conv-q") {
		t.Errorf("the agent's commit is not linked:\n%s", first)
	}

	// The same records again, from a claimed file a killed drain left.
	os.WriteFile(q+".00000000000000000001-1.claimed", saved, 0o600)
	sb.convo(repo, "record", "--hook=drain")
	if again := sb.dbRows(); again != first {
		t.Errorf("a replay changed the records:\n%s\nwant\n%s", again, first)
	}
	if logText, _ := os.ReadFile(filepath.Join(filepath.Dir(sb.linksDB), "errors.log")); len(logText) > 0 {
		t.Logf("log: %s", logText)
	}
}

func TestMergeIsRecorded(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("merges")
	sb.convo(repo, "install", "--cursor=none")
	sb.run(repo, "git", "checkout", "-q", "-b", "side")
	off := sb.with("GIT_CONVO=0")
	sb.agentEdit(repo, "conv-side", "s.txt", "side one\nside two\nside three\n")
	sb.runEnv(repo, off, "", "git", "add", "s.txt")
	sb.runEnv(repo, off, "", "git", "commit", "-q", "-m", "side")
	side := strings.TrimSpace(sb.run(repo, "git", "rev-parse", "HEAD"))
	sb.convo(repo, "record", side)
	if !has(convIDs(sb.showJSON(repo, side)), "conv-side") {
		t.Fatal("the side commit the conversation wrote is not linked")
	}
	sb.run(repo, "git", "checkout", "-q", "main")
	sb.write(repo, "m.txt", "main\n")
	sb.runEnv(repo, off, "", "git", "add", "m.txt")
	sb.runEnv(repo, off, "", "git", "commit", "-q", "-m", "main")
	sb.runQueued(repo, "git", "merge", "-q", "--no-edit", "side")
	merge := strings.TrimSpace(sb.run(repo, "git", "rev-parse", "HEAD"))
	if sb.queuedRecords() != 1 {
		t.Fatalf("the merge queued %d records, want 1", sb.queuedRecords())
	}
	shown := sb.showJSON(repo, "HEAD")
	if b := sb.branchOf(merge); b != "main" {
		t.Errorf("merge recorded on %s, want main", b)
	}
	// Recorded, and linked to nothing by itself: the lines it brings in
	// are the side commit's.
	if !shown.Commit.Recorded || len(shown.Conversations) != 0 {
		t.Errorf("show of the merge: recorded %v, conversations %v", shown.Commit.Recorded, convIDs(shown))
	}
}

// A commit that waits in the queue for days is linked exactly as one
// recorded at once: recency against the commit's time, from the evidence up
// to that time, though the conversation went on meanwhile.
func TestOldQueueLinksAsRecordedAtOnce(t *testing.T) {
	skipOnWindows(t)
	const t0 = "2026-01-05T10:00:00Z"
	scenario := func(queuedForDays bool) string {
		sb := newSandbox(t)
		sb.env = sb.with("GIT_AUTHOR_DATE="+t0, "GIT_COMMITTER_DATE="+t0, "GIT_CONVO_NOW="+t0)
		repo := sb.repo("same")
		sb.convo(repo, "install", "--cursor=none")
		sb.env = sb.with("GIT_CONVO_NOW=2026-01-05T10:05:00Z")
		sb.capture(repo, "conv-old", "beforeSubmitPrompt", map[string]any{"prompt": "write a.txt"})
		p := sb.write(repo, "a.txt", "one\ntwo\nthree\n")
		sb.capture(repo, "conv-old", "afterFileEdit", map[string]any{"file_path": p, "edits": []map[string]string{{"old_string": "", "new_string": "one\ntwo\nthree\n"}}})
		sb.write(repo, "b.txt", "by hand\n")
		const commitAt = "2026-01-05T12:00:00Z"
		env := sb.with("GIT_AUTHOR_DATE="+commitAt, "GIT_COMMITTER_DATE="+commitAt, "GIT_CONVO_NOW="+commitAt)
		if queuedForDays {
			env = sb.with("GIT_AUTHOR_DATE="+commitAt, "GIT_COMMITTER_DATE="+commitAt, "GIT_CONVO_SYNC=")
		}
		sb.runEnv(repo, env, "", "git", "add", "-A")
		if r := sb.runEnv(repo, env, "", "git", "commit", "-q", "-m", "agent work"); r.code != 0 {
			t.Fatal(r.stderr)
		}
		// The conversation goes on two days later, in the same file.
		sb.env = sb.with("GIT_CONVO_NOW=2026-01-07T09:00:00Z")
		sb.capture(repo, "conv-old", "beforeSubmitPrompt", map[string]any{"prompt": "more"})
		sb.capture(repo, "conv-old", "afterFileEdit", map[string]any{"file_path": p, "edits": []map[string]string{{"old_string": "three\n", "new_string": "three\nfour\n"}}})
		sb.env = sb.with("GIT_CONVO_NOW=2026-01-10T09:00:00Z")
		sb.convo(repo, "record", "--hook=drain")
		return sb.dbRows()
	}
	atOnce, later := scenario(false), scenario(true)
	if !strings.Contains(atOnce, "conv-old") {
		t.Fatalf("not linked even at once:\n%s", atOnce)
	}
	if later != atOnce {
		t.Errorf("recorded days later:\n%s\nrecorded at once:\n%s", later, atOnce)
	}
}

// A repository with the block of an older version: doctor says so, install
// upgrades it to the queueing block (and adds post-merge), and commits are
// queued from then on.
func TestInstallUpgradesTheOldBlock(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("upgrade")
	old, err := templates.RenderVersion("v1", "post-commit", binPath, "")
	if err != nil {
		t.Fatal(err)
	}
	hook := filepath.Join(repo, ".git", "hooks", "post-commit")
	os.WriteFile(hook, []byte("#!/bin/sh\n"+old+"echo mine\n"), 0o755)
	r := sb.runEnv(repo, sb.env, "", "git", "convo", "doctor")
	if !strings.Contains(r.stdout+r.stderr, "an older block version") {
		t.Errorf("doctor does not report the old block:\n%s%s", r.stdout, r.stderr)
	}
	out := sb.convo(repo, "install", "--cursor=none")
	if !strings.Contains(out, "post-commit: upgraded") || !strings.Contains(out, "post-merge: created") {
		t.Errorf("install:\n%s", out)
	}
	content, _ := os.ReadFile(hook)
	if !strings.Contains(string(content), "gcq1") || !strings.HasSuffix(string(content), "echo mine\n") {
		t.Errorf("upgraded hook:\n%s", content)
	}
	sb.write(repo, "x.txt", "x\n")
	sb.run(repo, "git", "add", "x.txt")
	sb.runQueued(repo, "git", "commit", "-q", "-m", "x")
	if n := sb.queuedRecords(); n != 1 {
		t.Errorf("%d records queued after the upgrade, want 1", n)
	}
	r = sb.runEnv(repo, sb.env, "", "git", "convo", "doctor")
	if strings.Contains(r.stdout+r.stderr, "older block") {
		t.Errorf("doctor after the upgrade:\n%s", r.stdout)
	}
}

// An MCP tool call and an agent's capture record the queued commits before
// they answer (capture: after its reply, here in the foreground with
// GIT_CONVO_SYNC=1; detached otherwise).
func TestMCPAndCaptureDrainTheQueue(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("mcpdrain")
	sb.convo(repo, "install", "--cursor=none")
	sb.agentEdit(repo, fixtureConv, "lib.go", "package lib\n")
	sb.run(repo, "git", "add", "lib.go")
	sb.runQueued(repo, "git", "commit", "-q", "-m", "queued")
	head := strings.TrimSpace(sb.run(repo, "git", "rev-parse", "HEAD"))
	if b := sb.branchOf(head); b != "<not recorded>" {
		t.Fatalf("recorded before any drain: %s", b)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.Command("git", "convo", "mcp")
	cmd.Dir, cmd.Env = repo, sb.env
	session, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "get_commit_conversations", Arguments: map[string]any{"commitHash": head}})
	if err != nil || res.IsError {
		t.Fatalf("get_commit_conversations: %v %+v", err, res)
	}
	b, _ := json.Marshal(res.StructuredContent)
	if !strings.Contains(string(b), fixtureConv) {
		t.Errorf("the MCP answer lacks the queued commit's conversation: %s", b)
	}

	sb.write(repo, "two.go", "package lib\n")
	sb.run(repo, "git", "add", "two.go")
	sb.runQueued(repo, "git", "commit", "-q", "-m", "queued too")
	two := strings.TrimSpace(sb.run(repo, "git", "rev-parse", "HEAD"))
	sb.capture(repo, "conv-later", "beforeSubmitPrompt", map[string]any{"prompt": "hi"})
	if b := sb.branchOf(two); b != "main" {
		t.Errorf("after a capture the queued commit is %s", b)
	}

	// Without GIT_CONVO_SYNC the capture replies and a detached process
	// records (polled for: it outlives the capture).
	sb.write(repo, "three.go", "package lib\n")
	sb.run(repo, "git", "add", "three.go")
	sb.runQueued(repo, "git", "commit", "-q", "-m", "queued three")
	three := strings.TrimSpace(sb.run(repo, "git", "rev-parse", "HEAD"))
	body, _ := json.Marshal(map[string]any{"conversation_id": "conv-later", "hook_event_name": "afterAgentResponse", "text": "ok", "workspace_roots": []string{repo}})
	if r := sb.runEnv(repo, sb.queued(), string(body), "git", "convo", "capture"); r.code != 0 || strings.TrimSpace(r.stdout) != "{}" {
		t.Fatalf("capture: %d %q %s", r.code, r.stdout, r.stderr)
	}
	waitUntil(t, 30*time.Second, 50*time.Millisecond, func() bool { return sb.branchOf(three) == "main" },
		func() string { return "the detached drain never recorded the queued commit" })
}

// Read commands read color and pager settings in process: no `git config`
// or `git var` runs, piped or on a terminal's behalf.
func TestReadCommandsAskGitNoConfig(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("noconfig")
	sb.convo(repo, "install", "--cursor=none")
	sb.agentEdit(repo, fixtureConv, "a.txt", "a\n")
	sb.commit(repo, "a", "a.txt")
	real, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	wrap := filepath.Join(sb.root, "wrap")
	os.MkdirAll(wrap, 0o755)
	logf := filepath.Join(sb.root, "git-calls")
	os.WriteFile(filepath.Join(wrap, "git"), []byte("#!/bin/sh\nprintf '%s\\n' \"$*\" >> '"+logf+"'\nexec '"+real+"' \"$@\"\n"), 0o755)
	var path string
	for _, kv := range sb.env {
		if strings.HasPrefix(kv, "PATH=") {
			path = kv[len("PATH="):]
		}
	}
	env := sb.with("PATH="+wrap+string(os.PathListSeparator)+path, "NO_COLOR=", "GIT_PAGER=")
	for _, args := range [][]string{{"log", "-n", "1"}, {"conversations"}, {"blame", "a.txt"}, {"stats"}} {
		os.Remove(logf)
		// The binary itself: git would put its exec-path before the wrapper.
		r := sb.runEnv(repo, env, "", append([]string{filepath.Join(sb.root, "bin", "git-convo")}, args...)...)
		if r.code != 0 {
			t.Fatalf("%v: %d %s", args, r.code, r.stderr)
		}
		calls, _ := os.ReadFile(logf)
		for _, line := range strings.Split(string(calls), "\n") {
			if strings.HasPrefix(line, "config") || strings.HasPrefix(line, "var") {
				t.Errorf("git convo %s ran git %s", strings.Join(args, " "), line)
			}
		}
	}
}

// The hooks cannot create the queue's directory: any git-convo command puts
// it back where the database lives, so the next commit is queued again.
func TestQueueDirectoryComesBack(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("qdir")
	sb.convo(repo, "install", "--cursor=none")
	os.RemoveAll(sb.queueDir())
	sb.convo(repo, "log", "-n", "1")
	sb.write(repo, "b.txt", "b\n")
	sb.run(repo, "git", "add", "b.txt")
	sb.runQueued(repo, "git", "commit", "-q", "-m", "b")
	if n := sb.queuedRecords(); n != 1 {
		t.Errorf("%d records queued after the directory was removed and a command ran, want 1", n)
	}
}

// post-rewrite records what is queued before it carries links to the
// rewritten commits: a queued commit amended at once keeps its links.
func TestPostRewriteDrainsTheQueue(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("amend")
	sb.convo(repo, "install", "--cursor=none")
	sb.agentEdit(repo, "conv-amend", "a.txt", "one\ntwo\n")
	sb.run(repo, "git", "add", "a.txt")
	sb.runQueued(repo, "git", "commit", "-q", "-m", "first")
	first := strings.TrimSpace(sb.run(repo, "git", "rev-parse", "HEAD"))
	sb.run(repo, "git", "commit", "-q", "--amend", "-m", "first, amended") // GIT_CONVO_SYNC=1
	amended := strings.TrimSpace(sb.run(repo, "git", "rev-parse", "HEAD"))
	if b := sb.branchOf(first); b != "main" {
		t.Errorf("the queued commit: %s", b)
	}
	if !has(convIDs(sb.showJSON(repo, amended)), "conv-amend") {
		t.Error("the amended commit lost its conversation")
	}
}
