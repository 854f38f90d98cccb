package cli

// Fault tests: in every case the commit succeeds, Cursor's hook replies and
// exits 0, the data already recorded survives, and doctor says what happened.

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
	"syscall"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/util/errlog"
)

// captureOK runs one capture and checks Cursor gets its reply and exit 0.
func (sb *sandbox) captureOK(repo string, env []string, payload map[string]any) result {
	sb.t.Helper()
	b, _ := json.Marshal(payload)
	r := sb.runEnv(repo, env, string(b), "git", "convo", "capture")
	if r.code != 0 || !strings.HasPrefix(strings.TrimSpace(r.stdout), "{") {
		sb.t.Fatalf("capture: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	return r
}

func editPayload(repo, conv, file string) map[string]any {
	return map[string]any{"conversation_id": conv, "hook_event_name": "afterFileEdit", "workspace_roots": []string{repo},
		"file_path": filepath.Join(repo, file), "edits": []map[string]string{{"old_string": "", "new_string": "x := 1"}}}
}

func (sb *sandbox) filesOf(repo, conv string) []string {
	sb.t.Helper()
	out := sb.convo(repo, "conversations", "--json", "--all")
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var row conversationRowJSON
		if json.Unmarshal([]byte(line), &row) == nil && row.ID == conv {
			return row.Files
		}
	}
	return nil
}

// TestLockedDatabase: another process holds links.sqlite for 10 s. The commit
// is not slowed (the recorder works in the background and waits), captures
// reply at once and spool their events, and everything is recorded once the
// lock is gone.
func TestLockedDatabase(t *testing.T) {
	skipOnWindows(t)
	if testing.Short() {
		t.Skip("holds a lock for 10 s")
	}
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.convo(repo, "install", "--cursor=none")
	sb.captureOK(repo, sb.env, editPayload(repo, "conv-before", "before.go"))

	db, err := sql.Open("sqlite3", "file:"+sb.linksDB+"?_busy_timeout=1000")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, _ := db.Conn(context.Background())
	if _, err := conn.ExecContext(context.Background(), "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	released := make(chan struct{})
	go func() {
		time.Sleep(10 * time.Second)
		conn.ExecContext(context.Background(), "ROLLBACK")
		conn.Close()
		close(released)
	}()
	// Only busy: the event is kept, the log says so, the agent's hook
	// output stays clean.
	r := sb.captureOK(repo, sb.env, editPayload(repo, "conv-during", "during.go"))
	logged, _ := os.ReadFile(errlog.PathBeside(sb.linksDB))
	if r.stderr != "" || !strings.Contains(string(logged), "kept in the spool") {
		t.Errorf("capture under a lock: stderr %q, log %q", r.stderr, logged)
	}
	async := sb.with("GIT_CONVO_SYNC=0")
	sb.write(repo, "before.go", "package x\n")
	sb.run(repo, "git", "add", "before.go")
	if r := sb.runEnv(repo, async, "", "git", "commit", "-q", "-m", "during the lock"); r.code != 0 || r.stderr != "" {
		t.Fatalf("commit under a lock: exit %d %q", r.code, r.stderr)
	}
	<-released
	// The background recorder waited the lock out, and it or the next
	// capture replays the spool (whichever claims it first).
	sb.captureOK(repo, sb.env, map[string]any{"conversation_id": "conv-after", "hook_event_name": "sessionStart"})
	var s showJSON
	var files []string
	waitUntil(t, 40*time.Second, 200*time.Millisecond, func() bool {
		s, files = sb.showJSON(repo, "HEAD"), sb.filesOf(repo, "conv-during")
		return s.Commit.Recorded && len(s.Conversations) == 1 && s.Conversations[0].ID == "conv-before" && strings.Join(files, ",") == "during.go"
	}, func() string { return fmt.Sprintf("after the lock: commit %+v, spooled files %v", s, files) })
}

// waitUntil calls done every interval until it reports true; past timeout
// the test fails with what failed says.
func waitUntil(t *testing.T, timeout, interval time.Duration, done func() bool, failed func() string) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !done() {
		if time.Now().After(deadline) {
			t.Fatal(failed())
		}
		time.Sleep(interval)
	}
}

// TestBrokenDatabase: deleted, corrupted and read-only links databases.
func TestBrokenDatabase(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.convo(repo, "install", "--cursor=none")
	sb.captureOK(repo, sb.env, editPayload(repo, "conv-1", "a.go"))

	// Corrupt: the file is never reset, the event is spooled, doctor explains.
	good, garbage := sb.corruptDB()
	r := sb.captureOK(repo, sb.env, editPayload(repo, "conv-1", "b.go"))
	if logged, _ := os.ReadFile(errlog.PathBeside(sb.linksDB)); r.stderr != "" || !strings.Contains(string(logged), "corrupt") || !strings.Contains(string(logged), "spool") {
		t.Errorf("capture on a corrupt DB (prints nothing, logs why): %q\n%s", r.stderr, logged)
	}
	if got, _ := os.ReadFile(sb.linksDB); string(got) != string(garbage) {
		t.Fatal("a corrupt links DB was modified")
	}
	sb.write(repo, "a.go", "package a\n")
	sb.run(repo, "git", "add", "a.go")
	if r := sb.runEnv(repo, sb.env, "", "git", "commit", "-q", "-m", "on a corrupt DB"); r.code != 0 {
		t.Fatalf("commit on a corrupt DB: %d %q", r.code, r.stderr)
	}
	doc := sb.runEnv(repo, sb.env, "", "git", "convo", "doctor")
	if doc.code == 0 || !strings.Contains(doc.stdout, "corrupt") || !strings.Contains(doc.stdout, "spool") {
		t.Errorf("doctor on a corrupt DB:\n%s", doc.stdout)
	}
	// The user puts the good file back: the spooled event is recorded, nothing was lost.
	os.WriteFile(sb.linksDB, good, 0o600)
	sb.captureOK(repo, sb.env, map[string]any{"conversation_id": "conv-2", "hook_event_name": "sessionStart"})
	if files := sb.filesOf(repo, "conv-1"); strings.Join(files, ",") != "a.go,b.go" {
		t.Errorf("after repair: %v", files)
	}
	// The commit made while the file was corrupt was spooled too, and is recorded and linked now.
	if s := sb.showJSON(repo, "HEAD"); !s.Commit.Recorded || len(s.Conversations) != 1 || s.Conversations[0].ID != "conv-1" {
		t.Errorf("the commit made on a corrupt DB after repair: %+v", s)
	}

	// Deleted: the next hook starts a new database.
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(sb.linksDB + suffix)
	}
	sb.captureOK(repo, sb.env, editPayload(repo, "conv-3", "c.go"))
	if files := sb.filesOf(repo, "conv-3"); len(files) != 1 {
		t.Errorf("after deletion: %v", files)
	}
}

// corruptDB overwrites links.sqlite (and drops its -wal and -shm) with
// garbage; it returns the good contents and the garbage written.
func (sb *sandbox) corruptDB() (good, garbage []byte) {
	// The last captures are still in the log (no checkpoint at close):
	// move them into the file first, as a backup of it would.
	if db, err := sql.Open("sqlite3", sb.linksDB); err == nil {
		db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
		db.Close()
	}
	good, _ = os.ReadFile(sb.linksDB)
	os.Remove(sb.linksDB + "-wal")
	os.Remove(sb.linksDB + "-shm")
	garbage = []byte(strings.Repeat("garbage!", 4096))
	os.WriteFile(sb.linksDB, garbage, 0o600)
	return good, garbage
}

// readOnlyDB makes links.sqlite unwritable (chattr +i for root, whom file
// modes do not stop) until the returned function or the test's end.
func (sb *sandbox) readOnlyDB() (writable func()) {
	sb.t.Helper()
	if os.Geteuid() == 0 {
		if err := exec.Command("chattr", "+i", sb.linksDB).Run(); err != nil {
			sb.t.Skipf("root, and no chattr +i here: %v", err)
		}
		writable = func() { exec.Command("chattr", "-i", sb.linksDB).Run() }
	} else {
		os.Chmod(sb.linksDB, 0o400)
		writable = func() { os.Chmod(sb.linksDB, 0o600) }
	}
	sb.t.Cleanup(writable)
	return writable
}

// TestReadOnlyDatabase: a links database that cannot be written (chmod, or
// for root, which ignores modes, the immutable attribute): captures reply,
// spool their events, doctor names the fix, and the data is kept.
func TestReadOnlyDatabase(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.captureOK(repo, sb.env, editPayload(repo, "conv-1", "a.go"))
	sb.convo(repo, "record") // checkpoints nothing special; the DB has data
	writable := sb.readOnlyDB()
	r := sb.captureOK(repo, sb.env, editPayload(repo, "conv-1", "b.go"))
	if logged, _ := os.ReadFile(errlog.PathBeside(sb.linksDB)); r.stderr != "" || !strings.Contains(string(logged), "spool") {
		t.Errorf("capture on a read-only DB (prints nothing, logs the spooling): %q\n%s", r.stderr, logged)
	}
	doc := sb.runEnv(repo, sb.env, "", "git", "convo", "doctor")
	if !strings.Contains(doc.stdout, "spool") {
		t.Errorf("doctor on a read-only DB:\n%s", doc.stdout)
	}
	writable()
	sb.captureOK(repo, sb.env, map[string]any{"conversation_id": "conv-2", "hook_event_name": "sessionStart"})
	if files := sb.filesOf(repo, "conv-1"); strings.Join(files, ",") != "a.go,b.go" {
		t.Errorf("after making it writable again: %v", files)
	}
}

// TestDiskFull: writes fail with EFBIG under a file-size limit (ulimit -f);
// the hook still replies and exits 0 and recorded data survives.
func TestDiskFull(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.captureOK(repo, sb.env, editPayload(repo, "conv-1", "a.go"))
	big := strings.Repeat("a long prompt that does not fit ", 20000)
	body, _ := json.Marshal(map[string]any{"conversation_id": "conv-1", "hook_event_name": "beforeSubmitPrompt", "prompt": big})
	cmd := exec.Command("sh", "-c", "ulimit -f 16; exec git convo capture")
	cmd.Dir, cmd.Env, cmd.Stdin = repo, sb.env, strings.NewReader(string(body))
	out, err := cmd.Output()
	if err != nil || strings.TrimSpace(string(out)) != `{"continue":true}` {
		t.Fatalf("capture with the disk full: %v %q", err, out)
	}
	if files := sb.filesOf(repo, "conv-1"); len(files) != 1 {
		t.Errorf("recorded data did not survive: %v", files)
	}
}

// TestCursorDatabaseMissing: stop still records the hook data; doctor warns.
func TestCursorDatabaseMissing(t *testing.T) {
	sb := newSandbox(t)
	repo := sb.repo("project")
	env := sb.with("CURSOR_DB_PATH=" + filepath.Join(sb.root, "no-cursor", "state.vscdb"))
	sb.captureOK(repo, env, editPayload(repo, fixtureConv, "a.go"))
	sb.captureOK(repo, env, map[string]any{"conversation_id": fixtureConv, "hook_event_name": "stop", "status": "completed"})
	if files := sb.filesOf(repo, fixtureConv); len(files) != 1 {
		t.Errorf("hook data lost: %v", files)
	}
	if _, err := os.Stat(filepath.Join(sb.root, "no-cursor")); err == nil {
		t.Error("a missing Cursor database was created")
	}
	doc := sb.runEnv(repo, env, "", "git", "convo", "doctor")
	if !strings.Contains(doc.stdout, "not found") {
		t.Errorf("doctor: %s", doc.stdout)
	}
}

// TestBinaryGoneAndBareEnvironment: the hook names a binary that is gone and
// git-convo is not on PATH: the commit succeeds silently. Then a GUI's bare
// environment (no TTY, minimal PATH, no HOME-derived settings): still fine.
func TestBinaryGoneAndBareEnvironment(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	copyBin := filepath.Join(sb.root, "moving", "git-convo")
	os.MkdirAll(filepath.Dir(copyBin), 0o755)
	b, _ := os.ReadFile(binPath)
	os.WriteFile(copyBin, b, 0o755)
	r := sb.runEnv(repo, sb.env, "", copyBin, "install", "--cursor=none")
	if r.code != 0 {
		t.Fatal(r.stderr)
	}
	sb.agentEdit(repo, "conv-bare", "a.go", "package a\n")
	// A bare environment: what a GUI app gives its git: no TTY, PATH without git-convo.
	bare := []string{"HOME=" + sb.home, "PATH=/usr/bin:/bin", "GIT_CONFIG_GLOBAL=" + filepath.Join(sb.root, "gitconfig"),
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONVO_DB=" + sb.linksDB, "GIT_CONVO_SYNC=1"}
	sb.write(repo, "a.go", "package a\n")
	sb.run(repo, "git", "add", "a.go")
	cmd := exec.Command("git", "commit", "-q", "-m", "bare")
	cmd.Dir, cmd.Env = repo, bare
	if out, err := cmd.CombinedOutput(); err != nil || len(out) != 0 {
		t.Fatalf("commit in a bare environment: %v %q", err, out)
	}
	if s := sb.showJSON(repo, "HEAD"); len(s.Conversations) != 1 {
		t.Errorf("the hook did not record in a bare environment: %+v", s)
	}
	os.Remove(copyBin)
	sb.write(repo, "b.go", "package b\n")
	sb.run(repo, "git", "add", "b.go")
	cmd = exec.Command("git", "commit", "-q", "-m", "binary gone")
	cmd.Dir, cmd.Env = repo, bare
	if out, err := cmd.CombinedOutput(); err != nil || len(out) != 0 {
		t.Fatalf("commit with the binary gone: %v %q", err, out)
	}
	doc := sb.runEnv(repo, sb.with("PATH=/usr/bin:/bin"), "", binPath, "doctor")
	if doc.code == 0 || !strings.Contains(doc.stdout, "gone") {
		t.Errorf("doctor with the binary gone:\n%s", doc.stdout)
	}
}

// TestRecorderKilled kills the recorder at random moments: the database stays
// consistent and the next record works.
func TestRecorderKilled(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	for i := range 30 {
		sb.write(repo, fmt.Sprintf("f%d.go", i), "package f\n")
	}
	sb.run(repo, "git", "add", "-A")
	sb.run(repo, "git", "commit", "-q", "-m", "many files")
	for i := range 12 {
		// The binary itself, not `git convo`: killing git would leave its
		// git-convo child running past the test (and the kill untested).
		cmd := exec.Command(binPath, "record", "HEAD")
		cmd.Dir, cmd.Env = repo, sb.env
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(i) * 3 * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
	}
	out := sb.convo(repo, "record", "HEAD")
	if !strings.Contains(out, "recorded") {
		t.Fatalf("record after kills: %s", out)
	}
	db, err := sql.Open("sqlite3", "file:"+sb.linksDB)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var check string
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check: %q %v", check, err)
	}
	var files int
	db.QueryRow("SELECT COUNT(*) FROM commit_files f JOIN commits c USING (commitHash) WHERE c.message = 'many files'").Scan(&files)
	if files != 30 {
		t.Errorf("%d files recorded for the commit, want 30", files)
	}
}

// TestLoad: 200 capture processes across 20 conversations race a loop of 50
// commits. Every file and every commit is there at the end.
func TestLoad(t *testing.T) {
	skipOnWindows(t)
	if testing.Short() {
		t.Skip("load test")
	}
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.convo(repo, "install", "--cursor=none")
	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan string, 300)
	sem := make(chan struct{}, 200) // all 200 at once
	for i := range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			conv := fmt.Sprintf("load-conv-%02d", i%20)
			b, _ := json.Marshal(editPayload(repo, conv, fmt.Sprintf("src/c%02d/f%03d.go", i%20, i)))
			r := sb.runEnv(repo, sb.env, string(b), "git", "convo", "capture")
			if r.code != 0 {
				errs <- r.stderr
			}
		}()
	}
	commitsDone := make(chan struct{})
	go func() {
		defer close(commitsDone)
		for i := range 50 {
			name := fmt.Sprintf("human/h%02d.txt", i)
			os.MkdirAll(filepath.Join(repo, "human"), 0o755)
			os.WriteFile(filepath.Join(repo, name), []byte(fmt.Sprint(i)), 0o644)
			cmd := exec.Command("sh", "-c", "git add -- '"+name+"' && git commit -q -m 'human "+fmt.Sprint(i)+"'")
			cmd.Dir, cmd.Env = repo, sb.env
			if out, err := cmd.CombinedOutput(); err != nil {
				errs <- fmt.Sprintf("commit %d: %v %s", i, err, out)
			}
		}
	}()
	wg.Wait()
	<-commitsDone
	elapsed := time.Since(start)
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	sb.captureOK(repo, sb.env, map[string]any{"conversation_id": "drain", "hook_event_name": "sessionStart"}) // replays any spool
	total := 0
	for c := range 20 {
		total += len(sb.filesOf(repo, fmt.Sprintf("load-conv-%02d", c)))
	}
	if total != 200 {
		t.Errorf("%d of 200 edited files recorded", total)
	}
	var recorded int
	for _, line := range strings.Split(strings.TrimSpace(sb.convo(repo, "log", "--json", "-n", "50")), "\n") {
		var s showJSON
		json.Unmarshal([]byte(line), &s)
		if s.Commit.Hash != "" {
			recorded++
		}
	}
	if recorded != 50 {
		t.Errorf("%d of 50 commits in the log", recorded)
	}
	db, _ := sql.Open("sqlite3", "file:"+sb.linksDB)
	defer db.Close()
	var commits int
	db.QueryRow("SELECT COUNT(*) FROM commits WHERE message LIKE 'human %'").Scan(&commits)
	if commits != 50 {
		t.Errorf("%d of 50 commits recorded", commits)
	}
	t.Logf("load: 200 captures and 50 commits in %v (%.0f captures/s with the commits racing)", elapsed, 200/elapsed.Seconds())
}

// TestPayloadsCannotWriteElsewhere: paths in payloads are recorded, never
// written; nothing a payload says reaches the log as text.
func TestPayloadsCannotWriteElsewhere(t *testing.T) {
	sb := newSandbox(t)
	repo := sb.repo("project")
	victimDir := filepath.Join(sb.root, "victim")
	os.MkdirAll(victimDir, 0o755)
	victim := filepath.Join(victimDir, "precious.txt")
	os.WriteFile(victim, []byte("keep me"), 0o644)
	secret := "sk-live-SECRET-TOKEN-1234"
	payloads := []map[string]any{
		{"conversation_id": "evil", "hook_event_name": "afterFileEdit", "file_path": victim,
			"edits": []map[string]string{{"old_string": "keep me", "new_string": secret}}},
		{"conversation_id": "evil", "hook_event_name": "afterFileEdit", "workspace_roots": []string{repo}, "file_path": "../../victim/precious.txt"},
		{"conversation_id": "evil", "hook_event_name": "postToolUse", "tool_name": "ApplyPatch", "workspace_roots": []string{repo},
			"tool_input": map[string]any{"patch": "*** Add File: " + filepath.Join(victimDir, "new.txt") + "\n+" + secret}},
		{"conversation_id": "../../../../tmp/evil", "hook_event_name": "stop", "transcript_path": victim},
		{"conversation_id": "evil", "hook_event_name": "beforeSubmitPrompt", "prompt": "my key is " + secret},
	}
	for _, p := range payloads {
		sb.captureOK(repo, sb.env, p)
	}
	sb.runEnv(repo, sb.env, "not json but "+secret, "git", "convo", "capture")
	if b, _ := os.ReadFile(victim); string(b) != "keep me" {
		t.Errorf("a payload changed %s: %q", victim, b)
	}
	if entries, _ := os.ReadDir(victimDir); len(entries) != 1 {
		t.Errorf("a payload created files in %s: %v", victimDir, entries)
	}
	logFile := filepath.Join(filepath.Dir(sb.linksDB), "git-convo.log")
	if b, err := os.ReadFile(logFile); err != nil || strings.Contains(string(b), secret) || strings.Contains(string(b), "my key is") {
		t.Errorf("the log holds payload text (or is missing: %v):\n%s", err, b)
	}
	if fi, err := os.Stat(logFile); err == nil && fi.Mode().Perm() != 0o600 {
		t.Errorf("log mode %v", fi.Mode().Perm())
	}
}
