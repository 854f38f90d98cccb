package hookrun

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"github.com/git-convo/git-convo/pkg/agents/builtin"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"

	"github.com/git-convo/git-convo/pkg/agents/claude"
	"github.com/git-convo/git-convo/pkg/agents/cursor"
	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/util/errlog"
	"github.com/git-convo/git-convo/pkg/util/sqliteuri"
	"github.com/git-convo/git-convo/pkg/write/ingest"
	"github.com/git-convo/git-convo/pkg/write/queue"
	"github.com/git-convo/git-convo/pkg/write/spool"
)

// rig is a hook's environment in a temporary directory: a real
// links.sqlite path, a real git repository, and what the hook printed,
// logged and started in the background.
type rig struct {
	t              testing.TB
	o              Options
	repo           string
	stdout, stderr bytes.Buffer
	env            map[string]string
	spawned        [][]string
}

func newRig(t testing.TB) *rig {
	t.Helper()
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	git(t, dir, "init", "-q", repo)
	git(t, repo, "commit", "-q", "--allow-empty", "-m", "initial")
	db := filepath.Join(dir, "data", "links.sqlite")
	if err := os.MkdirAll(filepath.Dir(db), 0o700); err != nil {
		t.Fatal(err)
	}
	r := &rig{t: t, repo: repo, env: map[string]string{
		"CURSOR_DB_PATH":    filepath.Join(dir, "no-cursor", "state.vscdb"),
		"CLAUDE_CONFIG_DIR": filepath.Join(dir, "no-claude"),
		"GIT_CONVO_SYNC":    "1",
	}}
	getenv := func(k string) string { return r.env[k] }
	r.o = Options{DBPath: db, Now: time.Now, Getenv: getenv, Stderr: &r.stderr,
		Log: errlog.Log{Path: errlog.PathBeside(db), Now: time.Now},
		Writer: func(ctx context.Context, s *store.Store) ingest.Writer {
			return ingest.Writer{Store: s, Now: time.Now, Getenv: getenv, Agents: builtin.Registry(), Config: ingest.NewConfigCache(ctx, getenv).Get}
		},
		Recorder: func(ctx context.Context, repo *gitx.Repo, s *store.Store) *ingest.Recorder {
			return r.o.Writer(ctx, s).Recorder(repo)
		},
		Spawn: func(args ...string) error { r.spawned = append(r.spawned, args); return nil },
	}
	return r
}

func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=T", "-c", "user.email=t@example.com"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v %s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// capture runs one hook event of src and returns its stdout.
func (r *rig) capture(src source.Source, event string, payload map[string]any) string {
	r.t.Helper()
	b, _ := json.Marshal(payload)
	return r.captureRaw(src, event, string(b))
}

func (r *rig) captureRaw(src source.Source, event, payload string) string {
	r.t.Helper()
	r.stdout.Reset()
	r.o.Capture(context.Background(), src, event, strings.NewReader(payload), &r.stdout)
	return r.stdout.String()
}

// query returns the first column of q's rows in links.sqlite, joined by ",".
func (r *rig) query(q string, args ...any) string {
	r.t.Helper()
	db, err := sql.Open("sqlite3", sqliteuri.ReadOnly(r.o.DBPath, 0))
	if err != nil {
		r.t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(q, args...)
	if err != nil {
		r.t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v sql.NullString
		if err := rows.Scan(&v); err != nil {
			r.t.Fatal(err)
		}
		out = append(out, v.String)
	}
	return strings.Join(out, ",")
}

func (r *rig) logged() string {
	b, _ := os.ReadFile(r.o.Log.Path)
	return string(b)
}

// TestCaptureReplies: each agent gets the reply its hooks expect, whatever
// the payload: Cursor's on every event (even one that cannot be read),
// nothing for Claude Code's own events, {} for a payload of Cursor's that
// reached Claude Code's hook. Problems go to stderr and the log; a good
// event is recorded as its agent's.
func TestCaptureReplies(t *testing.T) {
	cur, cl := cursor.Source{Getenv: os.Getenv}, claude.Source{Dir: t.TempDir()}
	for _, tc := range []struct {
		name     string
		src      source.Source
		event    string
		payload  string
		reply    string
		problem  string // in stderr and the log; "": none
		recorded string // conversation id recorded; "": none
	}{
		{"cursor prompt", cur, "beforeSubmitPrompt", `{"conversation_id":"c1","prompt":"hi","workspace_roots":["REPO"]}`, `{"continue":true}` + "\n", "", "c1"},
		{"cursor stop", cur, "stop", `{"conversation_id":"c2","status":"completed","workspace_roots":["REPO"]}`, "{}\n", "", "c2"},
		{"cursor not json", cur, "beforeSubmitPrompt", `{"conversation_id":`, `{"continue":true}` + "\n", "not a JSON object", ""},
		{"cursor no id", cur, "afterFileEdit", `{"file_path":"a.go"}`, "{}\n", "cursor afterFileEdit payload has no conversation id", ""},
		{"claude prompt", cl, "", `{"session_id":"s1","hook_event_name":"UserPromptSubmit","prompt":"hi","cwd":"REPO"}`, "", "", "s1"},
		{"claude not json", cl, "", `[1,2]`, "", "not a JSON object", ""},
		{"claude no id", cl, "", `{"hook_event_name":"Stop"}`, "", "claude Stop payload has no conversation id", ""},
		{"cursor's payload in claude's hook", cl, "", `{"conversation_id":"c3","hook_event_name":"stop","cursor_version":"2.5.26"}`, "{}\n", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			got := r.captureRaw(tc.src, tc.event, strings.ReplaceAll(tc.payload, "REPO", r.repo))
			if got != tc.reply {
				t.Errorf("reply %q; want %q", got, tc.reply)
			}
			if tc.problem == "" && r.stderr.Len() > 0 {
				t.Errorf("stderr %q; want nothing", r.stderr.String())
			}
			if tc.problem != "" && (!strings.Contains(r.stderr.String(), tc.problem) || !strings.Contains(r.logged(), tc.problem)) {
				t.Errorf("stderr %q, log %q; want %q in both", r.stderr.String(), r.logged(), tc.problem)
			}
			if tc.recorded == "" {
				if _, err := os.Stat(r.o.DBPath); err == nil {
					if got := r.query(`SELECT conversationId FROM conversations`); got != "" {
						t.Errorf("recorded %q; want nothing", got)
					}
				}
				return
			}
			if got := r.query(`SELECT agent FROM conversations WHERE conversationId = ?`, tc.recorded); got != tc.src.Name() {
				t.Errorf("%s recorded with agent %q; want %q", tc.recorded, got, tc.src.Name())
			}
		})
	}
}

// TestRoots: Cursor's workspace roots are stored as sent (a folder opened
// inside the repository names the project); Claude Code's working
// directory becomes its work tree's top level.
func TestRoots(t *testing.T) {
	r := newRig(t)
	sub := filepath.Join(r.repo, "web")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	r.capture(cursor.Source{Getenv: r.o.Getenv}, "beforeSubmitPrompt", map[string]any{"conversation_id": "c1", "prompt": "hi", "workspace_roots": []string{sub}})
	r.capture(claude.Source{Dir: r.env["CLAUDE_CONFIG_DIR"]}, "", map[string]any{"session_id": "s1", "hook_event_name": "UserPromptSubmit", "prompt": "hi", "cwd": sub})
	top := git(t, sub, "rev-parse", "--show-toplevel")
	for id, want := range map[string]string{"c1": sub + ",web", "s1": top + "," + filepath.Base(top)} {
		got := r.query(`SELECT workspaceRoot FROM conversations WHERE conversationId = ?`, id) + "," +
			r.query(`SELECT projectName FROM conversations WHERE conversationId = ?`, id)
		if got != want {
			t.Errorf("%s: root and project %q; want %q", id, got, want)
		}
	}
}

// TestReadAgain: Cursor (source.LateWriter) has its conversation read again
// in the background after stop, unless GIT_CONVO_SYNC=1; Claude Code's is
// read once.
func TestReadAgain(t *testing.T) {
	for _, tc := range []struct {
		name string
		sync string
		src  func(r *rig) source.Source
		want string
	}{
		{"cursor", "", func(r *rig) source.Source { return cursor.Source{Getenv: r.o.Getenv} }, "enrich --delay=10s c1"},
		{"cursor, sync", "1", func(r *rig) source.Source { return cursor.Source{Getenv: r.o.Getenv} }, ""},
		{"claude", "", func(r *rig) source.Source { return claude.Source{Dir: r.env["CLAUDE_CONFIG_DIR"]} }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			r.env["GIT_CONVO_SYNC"] = tc.sync
			event := map[string]string{cursor.Name: "stop", claude.Name: "Stop"}[tc.src(r).Name()]
			r.capture(tc.src(r), "", map[string]any{"conversation_id": "c1", "session_id": "c1", "hook_event_name": event,
				"workspace_roots": []string{r.repo}, "cwd": r.repo})
			var got []string
			for _, args := range r.spawned {
				got = append(got, strings.Join(args, " "))
			}
			if strings.Join(got, ";") != tc.want {
				t.Errorf("started %q; want %q", got, tc.want)
			}
			// No Cursor database here (as with the Cursor CLI): the
			// hooks' record stays, and a missing optional source is no
			// error to log (doctor says so once).
			if strings.Contains(r.logged(), "reading cursor conversation") {
				t.Errorf("log: %q", r.logged())
			}
		})
	}
}

// TestSpoolKeepsEvents: while links.sqlite is corrupt, capture still
// replies, and keeps the event in the spool; the next capture that can
// write records it first, at the time it arrived.
func TestSpoolKeepsEvents(t *testing.T) {
	r := newRig(t)
	if err := os.WriteFile(r.o.DBPath, bytes.Repeat([]byte("not sqlite "), 500), 0o600); err != nil {
		t.Fatal(err)
	}
	cur := cursor.Source{Getenv: r.o.Getenv}
	arrived := time.Now().Add(-time.Hour)
	r.o.Now = func() time.Time { return arrived }
	if out := r.capture(cur, "beforeSubmitPrompt", map[string]any{"conversation_id": "c1", "prompt": "kept", "workspace_roots": []string{r.repo}}); out != `{"continue":true}`+"\n" {
		t.Errorf("reply %q", out)
	}
	if r.stderr.String() != "" || !strings.Contains(r.logged(), "kept in the spool") {
		t.Errorf("stderr %q (want nothing) log %q", r.stderr.String(), r.logged())
	}
	if waiting, _ := spool.Pending(spool.Dir(r.o.DBPath)); len(waiting) != 1 {
		t.Fatalf("%d events in the spool; want 1", len(waiting))
	}
	// The spool cannot take it either (a full disk): the event is lost,
	// which the log says; the hook still prints nothing.
	spoolDir := spool.Dir(r.o.DBPath)
	if err := os.Rename(spoolDir, spoolDir+".kept"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(spoolDir, nil, 0o600); err != nil { // a file where the directory goes
		t.Fatal(err)
	}
	r.capture(cur, "beforeSubmitPrompt", map[string]any{"conversation_id": "c9", "prompt": "lost", "workspace_roots": []string{r.repo}})
	if r.stderr.String() != "" || !strings.Contains(r.logged(), "the beforeSubmitPrompt event is lost") {
		t.Errorf("spool unavailable: stderr %q (want nothing) log %q", r.stderr.String(), r.logged())
	}
	os.Remove(spoolDir)
	if err := os.Rename(spoolDir+".kept", spoolDir); err != nil {
		t.Fatal(err)
	}
	os.Remove(r.o.DBPath)
	r.o.Now = time.Now
	r.capture(cur, "beforeSubmitPrompt", map[string]any{"conversation_id": "c2", "prompt": "after", "workspace_roots": []string{r.repo}})
	if got := r.query(`SELECT conversationId || ':' || text FROM prompts ORDER BY atMs`); got != "c1:kept,c2:after" {
		t.Errorf("prompts %q; want the spooled one first", got)
	}
	if got := r.query(`SELECT atMs FROM prompts WHERE conversationId = 'c1'`); got != strconv.FormatInt(arrived.UnixMilli(), 10) {
		t.Errorf("spooled prompt at %s; want %d (when it arrived)", got, arrived.UnixMilli())
	}
	if waiting, _ := spool.Pending(spool.Dir(r.o.DBPath)); len(waiting) != 0 {
		t.Errorf("%d events left in the spool", len(waiting))
	}
}

// TestCaptureDrainsTheQueue: after any agent's reply, the commits the git
// hooks queued are recorded: here with GIT_CONVO_SYNC=1, else by a
// detached `git convo record --hook=drain`.
func TestCaptureDrainsTheQueue(t *testing.T) {
	for _, sync := range []string{"1", ""} {
		r := newRig(t)
		r.env["GIT_CONVO_SYNC"] = sync
		head := git(t, r.repo, "rev-parse", "HEAD")
		if err := os.MkdirAll(queue.Dir(r.o.DBPath), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := queue.Append(queue.Dir(r.o.DBPath), queue.Record{Hook: "post-commit", Dir: r.repo}); err != nil {
			t.Fatal(err)
		}
		if out := r.capture(claude.Source{Dir: r.env["CLAUDE_CONFIG_DIR"]}, "", map[string]any{"session_id": "s1", "hook_event_name": "UserPromptSubmit", "prompt": "hi", "cwd": r.repo}); out != "" {
			t.Errorf("Claude Code's reply %q; want nothing", out)
		}
		if sync == "1" {
			if recorded := r.query(`SELECT commitHash FROM commits`); recorded != head || queue.Waiting(queue.Dir(r.o.DBPath)) != 0 {
				t.Errorf("sync: recorded %q, %d records queued; want %s recorded and the queue empty", recorded, queue.Waiting(queue.Dir(r.o.DBPath)), head)
			}
			continue
		}
		// In the background the prompt is spooled and the capture opens no
		// database: the drain it started records both.
		if _, err := os.Stat(r.o.DBPath); !os.IsNotExist(err) || !spool.Waiting(spool.Dir(r.o.DBPath)) || len(r.spawned) != 1 || strings.Join(r.spawned[0], " ") != "record --hook=drain" {
			t.Errorf("background: database %v, spooled %v, started %q; want the drain started, nothing recorded here", err, spool.Waiting(spool.Dir(r.o.DBPath)), r.spawned)
		}
	}
}

// TestRecordHookSpoolsCommits: a post-commit whose database is corrupt
// keeps the commit in the spool (the log says so; the commit is not
// slowed); the next hook that can write records it.
func TestRecordHookSpoolsCommits(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	if err := os.WriteFile(r.o.DBPath, bytes.Repeat([]byte("not sqlite "), 500), 0o600); err != nil {
		t.Fatal(err)
	}
	first := git(t, r.repo, "rev-parse", "HEAD")
	r.o.RecordHook(ctx, "post-commit", r.repo, strings.NewReader(""))
	if !strings.Contains(r.logged(), "post-commit: links database unavailable") || !strings.Contains(r.logged(), "kept in the spool") {
		t.Errorf("log: %q", r.logged())
	}
	if r.stderr.Len() > 0 {
		t.Errorf("stderr %q: a git hook prints nothing", r.stderr.String())
	}
	os.Remove(r.o.DBPath)
	git(t, r.repo, "commit", "-q", "--allow-empty", "-m", "second")
	second := git(t, r.repo, "rev-parse", "HEAD")
	r.o.RecordHook(ctx, "post-commit", r.repo, strings.NewReader(""))
	if got, want := r.query(`SELECT commitHash FROM commits ORDER BY committedAt, commitHash`), []string{first, second}; !sameSet(strings.Split(got, ","), want) {
		t.Errorf("recorded %q; want %q", got, want)
	}
	r.o.RecordHook(ctx, "pre-push", r.repo, strings.NewReader(""))
	if !strings.Contains(r.logged(), `pre-push: unknown hook "pre-push"`) {
		t.Errorf("log: %q", r.logged())
	}
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[string]int{}
	for _, x := range a {
		seen[x]++
	}
	for _, x := range b {
		if seen[x]--; seen[x] < 0 {
			return false
		}
	}
	return true
}

// A database only busy (another writer holds it past the hook's wait)
// keeps the event in the spool and says so in the log, not on stderr:
// hooks waiting on each other is normal, and nothing is lost.
func TestBusyDatabaseKeepsQuietly(t *testing.T) {
	r := newRig(t)
	cur := cursor.Source{Getenv: r.o.Getenv}
	r.capture(cur, "beforeSubmitPrompt", map[string]any{"conversation_id": "c1", "prompt": "first", "workspace_roots": []string{r.repo}})
	db, err := sql.Open("sqlite3", "file:"+r.o.DBPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	r.stderr.Reset()
	if out := r.capture(cur, "beforeSubmitPrompt", map[string]any{"conversation_id": "c1", "prompt": "while busy", "workspace_roots": []string{r.repo}}); out != `{"continue":true}`+"\n" {
		t.Errorf("reply %q", out)
	}
	if _, err := db.Exec("ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	if r.stderr.String() != "" || !strings.Contains(r.logged(), "kept in the spool") {
		t.Errorf("stderr %q log %q", r.stderr.String(), r.logged())
	}
	if waiting, _ := spool.Pending(spool.Dir(r.o.DBPath)); len(waiting) != 1 {
		t.Fatalf("%d events in the spool; want 1", len(waiting))
	}
}
