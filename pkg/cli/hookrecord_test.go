package cli

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestConversationFromHookRecord: a conversation Cursor's database does not
// have (deleted, another machine, database gone) is still readable from what
// the hooks recorded, marked as such, by `conversation`, `show --full` and the
// MCP server; and `search` finds words that are only in the agent's reply.
func TestConversationFromHookRecord(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.convo(repo, "install", "--cursor=none")
	const conv = "0c0ffee0-hook-only-conversation"
	sb.capture(repo, conv, "beforeSubmitPrompt", map[string]any{"prompt": "make the cache entries expire"})
	p := sb.write(repo, "cache.go", "package cache\n\nvar MaxAge = 60\n")
	sb.capture(repo, conv, "afterFileEdit", map[string]any{"file_path": p, "edits": []map[string]string{{"old_string": "", "new_string": "package cache\n\nvar MaxAge = 60\n"}}})
	sb.capture(repo, conv, "afterAgentResponse", map[string]any{"text": "I added MaxAge to the cache."})
	sb.capture(repo, conv, "stop", map[string]any{"status": "completed"})
	sb.commit(repo, "cache expiry", "cache.go")

	md := sb.convo(repo, "conversation", conv[:10])
	for _, want := range []string{"make the cache entries expire", "I added MaxAge to the cache.", "hook records", "cache.go", "## Message 2 (Assistant)"} {
		if !strings.Contains(md, want) {
			t.Errorf("conversation lacks %q:\n%s", want, md)
		}
	}
	var js map[string]any
	if err := json.Unmarshal([]byte(sb.convo(repo, "conversation", "--json", conv)), &js); err != nil || js["note"] == "" || len(js["messages"].([]any)) != 2 {
		t.Errorf("conversation --json: %v %v", js, err)
	}
	if full := sb.convo(repo, "show", "--full", "HEAD"); !strings.Contains(full, "I added MaxAge") {
		t.Errorf("show --full lacks the recorded reply:\n%s", full)
	}
	if out := sb.convo(repo, "search", "MaxAge"); !strings.Contains(out, conv[:8]) || !strings.Contains(out, "MaxAge") {
		t.Errorf("search for a word of the reply: %q", out)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	session := sb.mcpSession(ctx, repo)
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "get_conversation", Arguments: map[string]any{"conversationId": conv}})
	if err != nil || res.IsError {
		t.Fatalf("get_conversation: %v %+v", err, res)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var out struct {
		FilePath string `json:"filePath"`
	}
	json.Unmarshal(b, &out)
	if body, err := os.ReadFile(out.FilePath); err != nil || !strings.Contains(string(body), "I added MaxAge") || !strings.Contains(string(body), "hook records") {
		t.Errorf("context file %s: %v\n%s", out.FilePath, err, body)
	}
}

// mcpSession starts the real MCP server ("git convo mcp") in dir and
// connects the SDK's client to it; it is closed when the test ends.
func (sb *sandbox) mcpSession(ctx context.Context, dir string) *mcp.ClientSession {
	sb.t.Helper()
	cmd := exec.Command("git", "convo", "mcp")
	cmd.Dir, cmd.Env = dir, sb.env
	session, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		sb.t.Fatal(err)
	}
	sb.t.Cleanup(func() { session.Close() })
	return session
}
