package cli

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/write/queue"
)

// TestMCPRunsNoGitConvo: the MCP server records the queued commits in its
// own process before a tool answers, and link_conversation_commit has the
// effects of `git convo link` (here: the conversation's title read from its
// agent); the only git-convo on PATH is a stand-in that leaves a mark if
// anything starts it, and none sits beside the server's binary.
func TestMCPRunsNoGitConvo(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.convo(repo, "install", "--cursor=none")

	fake, server := t.TempDir(), filepath.Join(t.TempDir(), "git-convo-mcp")
	mark := filepath.Join(sb.root, "git-convo-ran")
	if err := os.WriteFile(filepath.Join(fake, "git-convo"), []byte("#!/bin/sh\necho \"$@\" >> '"+mark+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(filepath.Dir(binPath), "git-convo-mcp"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(server, b, 0o755); err != nil {
		t.Fatal(err)
	}
	// The commit hook only queues (no GIT_CONVO_SYNC).
	env := sb.with("GIT_CONVO_SYNC=", "PATH="+fake+string(os.PathListSeparator)+os.Getenv("PATH"))
	sb.write(repo, "a.txt", "a\n")
	sb.runEnv(repo, env, "", "git", "add", "a.txt")
	if r := sb.runEnv(repo, env, "", "git", "commit", "-q", "-m", "a"); r.code != 0 {
		t.Fatalf("commit: %s", r.stderr)
	}
	if !queue.Pending(queue.Dir(sb.linksDB)) {
		t.Fatal("the commit was not queued")
	}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.Command(server)
	cmd.Dir, cmd.Env = repo, env
	session, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	call := mcpCaller(t, ctx, session)
	// A read records the queued commit first.
	head := sb.run(repo, "git", "rev-parse", "HEAD")[:40]
	call("get_commit_conversations", map[string]any{"commitHash": "HEAD"})
	st, err := store.Open(ctx, sb.linksDB, store.Options{MustExist: true})
	if err != nil {
		t.Fatal(err)
	}
	done, err := st.RecordedCommits(ctx, []string{head})
	st.Close()
	if err != nil || !done[head] {
		t.Errorf("the queued commit was not recorded before the tool answered: %v %v", done, err)
	}
	// The Cursor conversation of the sandbox's database, unknown to the store.
	call("link_conversation_commit", map[string]any{"conversationId": fixtureConv, "commitHash": "HEAD"})
	out := call("get_commit_conversations", map[string]any{"commitHash": "HEAD"})
	convs, _ := out["conversations"].([]any)
	if len(convs) != 1 || convs[0].(map[string]any)["title"] != fixtureTitle {
		t.Errorf("after link_conversation_commit, the conversation's title is not read from its agent: %v", out)
	}
	if b, err := os.ReadFile(mark); err == nil {
		t.Errorf("the MCP server started git-convo: %s", b)
	}
}

// mcpCaller calls a tool of session and returns its structured answer,
// failing the test on an error.
func mcpCaller(t *testing.T, ctx context.Context, session *mcp.ClientSession) func(name string, args map[string]any) map[string]any {
	return func(name string, args map[string]any) map[string]any {
		t.Helper()
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", name, err, res)
		}
		b, _ := json.Marshal(res.StructuredContent)
		var out map[string]any
		json.Unmarshal(b, &out)
		return out
	}
}
