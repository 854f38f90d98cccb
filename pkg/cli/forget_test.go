package cli

import (
	"context"
	"database/sql"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-convo/git-convo/pkg/write/spool"
)

// TestForgetLeavesNoTrace: a conversation whose prompts hold a secret (one
// of 10 KB, one of 300 KB: both far over a page) is recorded, rendered into
// an MCP context file and spooled while the database is locked; after
// `forget`, no file git-convo owns holds a byte of the secret.
func TestForgetLeavesNoTrace(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.convo(repo, "install", "--cursor=none")
	const conv = "conv-secret-0001"
	secret := "sk-live-4f9c2e7a1b8d3f6e0a5c"
	pad := strings.Repeat("lorem ipsum ", 800)
	sb.capture(repo, conv, "beforeSubmitPrompt", map[string]any{"prompt": pad + secret + pad})
	agentDir := filepath.Join(sb.root, "agent") // the agent's transcript: not git-convo's file
	os.MkdirAll(agentDir, 0o700)
	transcript := filepath.Join(agentDir, "t.jsonl")
	line, _ := json.Marshal(map[string]any{"role": "user", "message": map[string]any{"content": []map[string]string{{"type": "text", "text": "use " + secret}}}})
	os.WriteFile(transcript, append(line, '\n'), 0o600)
	sb.capture(repo, conv, "beforeSubmitPrompt", map[string]any{"prompt": strings.Repeat(pad+secret, 30), "transcript_path": transcript, "generation_id": "gen-2"})
	sb.capture(repo, conv, "afterAgentResponse", map[string]any{"text": "stored " + secret})
	sb.agentEdit(repo, conv, "a.go", "package a\n")
	sb.commit(repo, "a", "a.go")
	sb.agentEdit(repo, "conv-other-0001", "b.go", "package b\n")

	// The MCP server writes the conversation to a context file.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	session := sb.mcpSession(ctx, repo)
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "get_conversation", Arguments: map[string]any{"conversationId": conv}})
	session.Close()
	if err != nil || res.IsError {
		t.Fatalf("get_conversation: %v %+v", err, res)
	}

	// A Claude Code session, forgotten with it.
	const claudeConv = "claude-secret-0001"
	claudeEdit := func(env []string) {
		payload, _ := json.Marshal(map[string]any{"session_id": claudeConv, "cwd": repo, "hook_event_name": "PostToolUse", "tool_name": "Write",
			"tool_input": map[string]any{"file_path": filepath.Join(repo, "c.go"), "content": "key := \"" + secret + "\"\n"}})
		if r := sb.runEnv(repo, env, string(payload), "git", "convo", "capture", "--agent", "claude"); r.code != 0 {
			t.Fatalf("claude capture: %+v", r)
		}
	}
	claudeEdit(sb.env)

	// A prompt spooled while another process holds the database.
	db, err := sql.Open("sqlite3", "file:"+sb.linksDB+"?_busy_timeout=1000")
	if err != nil {
		t.Fatal(err)
	}
	conn, _ := db.Conn(ctx)
	if _, err := conn.ExecContext(ctx, "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	sb.captureOK(repo, sb.env, map[string]any{"conversation_id": conv, "hook_event_name": "beforeSubmitPrompt", "prompt": "again " + secret})
	conn.ExecContext(ctx, "ROLLBACK")
	conn.Close()
	db.Close()

	// Edit events spooled as every one is without GIT_CONVO_SYNC, of Cursor
	// and of the Claude Code session.
	async := sb.with("GIT_CONVO_SYNC=")
	edit := "key := \"" + secret + "\"\n"
	sb.captureOK(repo, async, map[string]any{"conversation_id": conv, "hook_event_name": "afterFileEdit", "workspace_roots": []string{repo},
		"file_path": filepath.Join(repo, "a.go"), "edits": []map[string]string{{"old_string": "", "new_string": edit}}})
	claudeEdit(async)
	if waiting, _ := spool.Pending(spool.Dir(sb.linksDB)); len(waiting) != 3 {
		t.Fatalf("%d events spooled; want the locked-out prompt and two edits", len(waiting))
	}

	owned := func() []string { // every file git-convo keeps
		var files []string
		for _, root := range []string{sb.root, filepath.Join(sb.home, ".cache", "git-convo")} {
			filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return nil
				}
				if d.IsDir() && p != root && root == sb.root && d.Name() != "spool" && d.Name() != "set-aside" {
					return filepath.SkipDir // the repositories, the agent's and Cursor's files
				}
				if !d.IsDir() {
					files = append(files, p)
				}
				return nil
			})
		}
		return files
	}
	holding := func() []string {
		var out []string
		for _, f := range owned() {
			if b, _ := os.ReadFile(f); strings.Contains(string(b), secret) {
				out = append(out, f)
			}
		}
		return out
	}
	before := strings.Join(holding(), " ")
	for _, want := range []string{"links.sqlite", "spool", ".cache"} {
		if !strings.Contains(before, want) {
			t.Fatalf("the setup put no secret in %s: %s", want, before)
		}
	}
	sb.convo(repo, "forget", conv, claudeConv)
	if left := holding(); len(left) > 0 {
		t.Errorf("the secret survived forget in %v", left)
	}
	for _, f := range owned() {
		if b, _ := os.ReadFile(f); strings.Contains(f, "git-convo.log") && strings.Contains(string(b), conv) {
			t.Errorf("%s still names the forgotten conversation", f)
		}
	}
	if files := sb.filesOf(repo, "conv-other-0001"); len(files) != 1 {
		t.Errorf("forget touched another conversation: %v", files)
	}
}
