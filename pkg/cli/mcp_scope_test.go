package cli

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpClient starts `git convo mcp args...` in dir and returns a caller of
// its tools: the structured result (or {"error": text}) and whether the
// tool failed.
func mcpClient(t *testing.T, sb *sandbox, dir string, args ...string) func(string, map[string]any) (string, bool) {
	t.Helper()
	ctx, session := mcpSession(t, sb, dir, args...)
	return func(name string, in map[string]any) (string, bool) {
		t.Helper()
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: in})
		if err != nil {
			t.Fatalf("%s: protocol error %v", name, err)
		}
		if res.IsError {
			var msg []string
			for _, c := range res.Content {
				if tc, ok := c.(*mcp.TextContent); ok {
					msg = append(msg, tc.Text)
				}
			}
			return strings.Join(msg, " "), true
		}
		b, _ := json.Marshal(res.StructuredContent)
		return string(b), false
	}
}

// TestMCPConfinedToItsRepository: a server started in repository A (or one
// of its work trees) answers for A only: B's commits, files, conversations
// and paths are refused, and nothing is linked into B, until the user opts
// in with --all-repositories.
func TestMCPConfinedToItsRepository(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	a, b := sb.repo("alpha"), sb.repo("beta")
	sb.convo(a, "install", "--cursor=none")
	sb.convo(b, "install", "--cursor=none")
	sb.agentEdit(a, "conv-alpha-1", "a.go", "package a\n\nvar A = 1\n")
	shaA := sb.commit(a, "a", "a.go")
	sb.agentEdit(b, "conv-beta-1", "b.go", "package b\n\nvar B = 2\n")
	shaB := sb.commit(b, "b", "b.go")
	wt := filepath.Join(sb.root, "alpha-wt")
	sb.run(a, "git", "worktree", "add", "-q", "-b", "side", wt)

	call := mcpClient(t, sb, a)
	refused := []struct {
		tool string
		in   map[string]any
	}{
		{"get_commit_conversations", map[string]any{"commitHash": shaB, "repoPath": b}},
		{"get_file_context", map[string]any{"filePath": filepath.Join(b, "b.go")}},
		{"get_conversation", map[string]any{"conversationId": "conv-beta-1"}},
		{"get_conversation", map[string]any{"conversationId": "conv-beta"}}, // a prefix
		{"list_conversation_commits", map[string]any{"conversationId": "conv-beta-1"}},
		{"list_conversation_commits", map[string]any{"projectPath": b}},
		{"list_conversation_commits", map[string]any{"filePath": filepath.Join(b, "b.go")}},
		{"link_conversation_commit", map[string]any{"conversationId": "conv-alpha-1", "commitHash": shaB, "repoPath": b}},
		{"link_conversation_commit", map[string]any{"conversationId": "conv-beta-1", "commitHash": shaA}},
	}
	for _, r := range refused {
		out, isErr := call(r.tool, r.in)
		if !isErr || strings.Contains(out, shaB) || !strings.Contains(out, "--all-repositories") {
			t.Errorf("%s %v from A: %s", r.tool, r.in, out)
		}
	}
	if out, isErr := call("list_conversation_commits", map[string]any{}); isErr || !strings.Contains(out, "conv-alpha-1") || strings.Contains(out, "conv-beta-1") {
		t.Errorf("list_conversation_commits with no filter from A: %s", out)
	}
	for _, ok := range []struct {
		tool string
		in   map[string]any
	}{
		{"get_commit_conversations", map[string]any{"commitHash": shaA}},
		{"get_commit_conversations", map[string]any{"commitHash": shaA, "repoPath": wt}}, // A's work tree
		{"get_file_context", map[string]any{"filePath": filepath.Join(a, "a.go")}},
		{"get_file_context", map[string]any{"filePath": filepath.Join(wt, "a.go")}},
		{"get_conversation", map[string]any{"conversationId": "conv-alpha-1"}},
		{"link_conversation_commit", map[string]any{"conversationId": "new-conversation-1", "commitHash": shaA}},
	} {
		if out, isErr := call(ok.tool, ok.in); isErr {
			t.Errorf("%s %v from A is refused: %s", ok.tool, ok.in, out)
		}
	}
	if got := sb.convIDs(b, shaB); strings.Join(got, ",") != "conv-beta-1" {
		t.Errorf("B's commit links %v after A's server was asked to link into it", got)
	}
	// The opt-in.
	all := mcpClient(t, sb, a, "--all-repositories")
	if out, isErr := all("get_commit_conversations", map[string]any{"commitHash": shaB, "repoPath": b}); isErr || !strings.Contains(out, "conv-beta-1") {
		t.Errorf("--all-repositories: %s", out)
	}
	// Started outside any repository: it answers for none, unless opted in.
	outside := mcpClient(t, sb, sb.home)
	if out, isErr := outside("get_file_context", map[string]any{"filePath": filepath.Join(a, "a.go")}); !isErr || !strings.Contains(out, "outside any repository") {
		t.Errorf("outside a repository: %s", out)
	}
	if out, isErr := outside("list_conversation_commits", map[string]any{}); !isErr || strings.Contains(out, "conv-alpha-1") {
		t.Errorf("outside a repository, list: %s", out)
	}
}

func (sb *sandbox) convIDs(repo, rev string) []string { return convIDs(sb.showJSON(repo, rev)) }

// mcpSession is a client session with `git convo mcp args...` started in
// dir, closed when the test ends.
func mcpSession(t *testing.T, sb *sandbox, dir string, args ...string) (context.Context, *mcp.ClientSession) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	cmd := exec.Command("git", append([]string{"convo", "mcp"}, args...)...)
	cmd.Dir, cmd.Env = dir, sb.env
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { session.Close() })
	return ctx, session
}
