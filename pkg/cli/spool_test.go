package cli

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-convo/git-convo/pkg/util/sqliteuri"
	"github.com/git-convo/git-convo/pkg/write/spool"
)

// TestParallelCapturesSpool: 100 edit events captured at once without
// GIT_CONVO_SYNC reply at once and open no database: they wait in the
// spool, which doctor calls normal. Two reads at once then record each of
// them: all 100 files, each once, and the spool is gone.
func TestParallelCapturesSpool(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.convo(repo, "install", "--cursor=none")
	sb.agentEdit(repo, "conv-first", "first.go", "package first\n") // the database exists, as in use
	async := sb.with("GIT_CONVO_SYNC=")
	var wg sync.WaitGroup
	errs := make(chan string, 100)
	for i := range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body, _ := json.Marshal(editPayload(repo, "conv-par", fmt.Sprintf("f%03d.go", i)))
			r := sb.runEnv(repo, async, string(body), "git", "convo", "capture")
			if r.code != 0 || strings.TrimSpace(r.stdout) != "{}" || r.stderr != "" {
				errs <- fmt.Sprintf("capture %d: exit %d, stdout %q, stderr %q", i, r.code, r.stdout, r.stderr)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if n := sqlCount(t, sb.linksDB, `SELECT COUNT(*) FROM conversation_files WHERE conversationId = 'conv-par'`); n != 0 {
		t.Errorf("%d files recorded by the captures themselves; want them spooled", n)
	}
	if waiting, _ := spool.Pending(spool.Dir(sb.linksDB)); len(waiting) != 100 {
		t.Fatalf("%d events spooled; want 100", len(waiting))
	}
	checks := sb.doctorChecks(repo)
	if c := checks["spool"]; len(c) != 1 || !c[0].OK || c[0].Warn || !strings.Contains(c[0].Detail, "100 hook event(s)") {
		t.Errorf("doctor on a spool in use: %+v", c)
	}

	var reads sync.WaitGroup
	for range 2 {
		reads.Add(1)
		go func() {
			defer reads.Done()
			if r := sb.runEnv(repo, async, "", "git", "convo", "conversations", "--all"); r.code != 0 {
				t.Errorf("read: exit %d %s", r.code, r.stderr)
			}
		}()
	}
	reads.Wait()
	if n := sqlCount(t, sb.linksDB, `SELECT COUNT(*) FROM conversation_files WHERE conversationId = 'conv-par'`); n != 100 {
		t.Errorf("%d of 100 spooled files recorded", n)
	}
	if _, err := os.Stat(spool.Dir(sb.linksDB)); !os.IsNotExist(err) {
		t.Errorf("the spool is left after the reads: %v", err)
	}
}

// TestDoctorOldSpool: events waiting for more than an hour are a problem
// doctor names, with the command that records them.
func TestDoctorOldSpool(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.convo(repo, "install", "--cursor=none")
	then := time.Now().Add(-2 * time.Hour).UTC().Format(time.RFC3339)
	sb.captureOK(repo, sb.with("GIT_CONVO_SYNC=", "GIT_CONVO_NOW="+then), editPayload(repo, "conv-old", "a.go"))
	c := sb.doctorChecks(repo)["spool"]
	if len(c) != 1 || !c[0].Warn || !strings.Contains(c[0].Detail, "since "+then) || !strings.Contains(c[0].Fix, "--replay-spool") {
		t.Fatalf("doctor on a spool waiting 2 h: %+v", c)
	}
	if out := sb.convo(repo, "doctor", "--replay-spool"); !strings.Contains(out, "replayed 1; 0 still waiting") {
		t.Errorf("doctor --replay-spool:\n%s", out)
	}
	if files := sb.filesOf(repo, "conv-old"); strings.Join(files, ",") != "a.go" {
		t.Errorf("files after the replay: %v", files)
	}
}

func sqlCount(t *testing.T, db, q string) int {
	t.Helper()
	d, err := sql.Open("sqlite3", sqliteuri.ReadOnly(db, 0))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var n int
	if err := d.QueryRow(q).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestMCPRecordsTheSpool: an MCP tool answers with the events the agent's
// captures spooled a moment before (the server drains when the spool holds
// something, even with no commit queued).
func TestMCPRecordsTheSpool(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.convo(repo, "install", "--cursor=none")
	sb.agentEdit(repo, "conv-first", "first.go", "package first\n")
	sb.captureOK(repo, sb.with("GIT_CONVO_SYNC="), editPayload(repo, "conv-spooled", "a.go"))
	if !spool.Waiting(spool.Dir(sb.linksDB)) {
		t.Fatal("the edit was not spooled")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	session := sb.mcpSession(ctx, repo)
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "get_file_context", Arguments: map[string]any{"filePath": "a.go"}})
	if err != nil || res.IsError {
		t.Fatalf("get_file_context: %v %+v", err, res)
	}
	if b, _ := json.Marshal(res.StructuredContent); !strings.Contains(string(b), "conv-spooled") {
		t.Errorf("the MCP answer lacks the spooled edit's conversation: %s", b)
	}
}
