package cli

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-convo/git-convo/pkg/agents/cursor/cursortest"
)

// TestMCPServer starts the real server (`git convo mcp`) as a subprocess and
// drives it with the SDK's client, against a database built by real captures
// and commits.
func TestMCPServer(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.convo(repo, "install", "--cursor=none")
	sb.agentEdit(repo, fixtureConv, "src/query.rs", "fn one() {}\nfn two() {}\n")
	sha := sb.commit(repo, "Add cursor queries", "src/query.rs")

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.Command("git", "convo", "mcp")
	cmd.Dir, cmd.Env = repo, sb.env
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()

	var names []string
	for _, tool := range mcpTools(t, ctx, session) {
		names = append(names, tool.Name)
		if len(tool.Description) < 40 || tool.InputSchema == nil {
			t.Errorf("%s: description %q, schema %v", tool.Name, tool.Description, tool.InputSchema)
		}
	}
	sort.Strings(names)
	if strings.Join(names, ",") != "get_commit_conversations,get_conversation,get_file_context,link_conversation_commit,list_conversation_commits,pr_summary" {
		t.Fatalf("tools: %v", names)
	}

	call := func(name string, args map[string]any) (map[string]any, bool) {
		t.Helper()
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
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
			return map[string]any{"error": strings.Join(msg, " ")}, true
		}
		b, _ := json.Marshal(res.StructuredContent)
		var out map[string]any
		json.Unmarshal(b, &out)
		return out, false
	}

	out, isErr := call("get_commit_conversations", map[string]any{"commitHash": sha[:8]})
	convs, _ := out["conversations"].([]any)
	if isErr || len(convs) != 1 || convs[0].(map[string]any)["id"] != fixtureConv || !strings.Contains(out["hint"].(string), "High confidence") {
		t.Errorf("get_commit_conversations: %v", out)
	}
	out, isErr = call("get_file_context", map[string]any{"filePath": "src/query.rs", "keywords": []string{"sqlite", "nothing-like-this"}})
	convs, _ = out["conversations"].([]any)
	if isErr || len(convs) != 1 {
		t.Fatalf("get_file_context: %v", out)
	}
	fc := convs[0].(map[string]any)
	km, _ := fc["keywordMatches"].([]any)
	if fc["relevance"] != "direct" || len(km) != 2 || km[0].(map[string]any)["count"].(float64) < 1 || len(out["commits"].([]any)) != 1 {
		t.Errorf("get_file_context: %v", out)
	}
	out, isErr = call("list_conversation_commits", map[string]any{"filePath": filepath.Join(repo, "src", "query.rs")})
	if list, _ := out["conversations"].([]any); isErr || len(list) != 1 || len(list[0].(map[string]any)["commits"].([]any)) != 1 {
		t.Errorf("list_conversation_commits: %v", out)
	}
	out, isErr = call("get_conversation", map[string]any{"conversationId": fixtureConv[:8]})
	if isErr {
		t.Fatalf("get_conversation: %v", out)
	}
	path, _ := out["filePath"].(string)
	md, err := os.ReadFile(path)
	if err != nil || !strings.HasPrefix(string(md), "# Conversation: Retrieve SQLite cursor queries") || !strings.HasPrefix(path, sb.home) {
		t.Errorf("context file %s: %v", path, err)
	}
	if stats, _ := out["stats"].(map[string]any); stats["messageCount"].(float64) != float64(len(cursortest.Sample().Messages)) || out["guidance"] == "" {
		t.Errorf("get_conversation stats: %v", out)
	}
	out, isErr = call("link_conversation_commit", map[string]any{"conversationId": "not-yet-known-conv", "commitHash": "HEAD"})
	if isErr || out["status"] != "manual" || out["commitHash"] != sha {
		t.Errorf("link_conversation_commit: %v", out)
	}

	// Bad arguments are tool errors, never a crash.
	for name, args := range map[string]map[string]any{
		"get_commit_conversations":  {"commitHash": "no-such-rev"},
		"get_file_context":          {"filePath": "/etc/passwd"},
		"get_conversation":          {"conversationId": "../../etc/passwd"},
		"link_conversation_commit":  {"conversationId": "x"},
		"list_conversation_commits": {"conversationId": "zzzz-unknown"},
	} {
		if out, isErr := call(name, args); !isErr || out["error"] == "" {
			t.Errorf("%s %v: want a tool error, got %v", name, args, out)
		}
	}
	// link_conversation_commit validates like `git convo link`: no all-zero
	// hash (it would credit every uncommitted blame line), no control characters.
	for _, args := range []map[string]any{
		{"conversationId": "not-yet-known-conv", "commitHash": strings.Repeat("0", 40)},
		{"conversationId": "conv-\x1b[2J-evil", "commitHash": "HEAD"},
	} {
		if out, isErr := call("link_conversation_commit", args); !isErr {
			t.Errorf("link_conversation_commit %q: accepted: %v", args, out)
		}
	}
	// The SDK validates input against each tool's schema: a wrong type is refused.
	if res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "get_file_context", Arguments: map[string]any{"filePath": 5}}); err == nil && !res.IsError {
		t.Error("a filePath of the wrong type was accepted")
	}
	// The server is still alive after the bad calls.
	if _, isErr := call("get_commit_conversations", map[string]any{"commitHash": "HEAD"}); isErr {
		t.Error("the server did not survive bad arguments")
	}
}

func TestInstallMCP(t *testing.T) {
	sb := newSandbox(t)
	repo := sb.repo("project")
	mcpJSON := filepath.Join(repo, ".cursor", "mcp.json")
	os.MkdirAll(filepath.Dir(mcpJSON), 0o755)
	os.WriteFile(mcpJSON, []byte(`{"mcpServers": {"other": {"command": "other-server"}}}`), 0o644)
	sb.convo(repo, "install", "--cursor=project", "--mcp")
	b, _ := os.ReadFile(mcpJSON)
	var cfg struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal(b, &cfg); err != nil || cfg.MCPServers["other"].Command != "other-server" ||
		cfg.MCPServers["git-convo"].Command != "git-convo" || strings.Join(cfg.MCPServers["git-convo"].Args, " ") != "mcp" {
		t.Fatalf("mcp.json: %s %v", b, err)
	}
	sb.convo(repo, "install", "--cursor=project", "--mcp")
	if again, _ := os.ReadFile(mcpJSON); string(again) != string(b) {
		t.Error("a second install changed mcp.json")
	}
	sb.convo(repo, "uninstall")
	b, _ = os.ReadFile(mcpJSON)
	if strings.Contains(string(b), "git-convo") || !strings.Contains(string(b), "other-server") {
		t.Errorf("after uninstall: %s", b)
	}
}

// TestMCPOutsideRepository: a user-level mcp.json may start the server
// anywhere; an absolute filePath names its own repository.
func TestMCPOutsideRepository(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.convo(repo, "install", "--cursor=none")
	sb.agentEdit(repo, "conv-abs-path", "lib.go", "package lib\n")
	sb.commit(repo, "lib", "lib.go")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.Command("git", "convo", "mcp", "--all-repositories") // outside a repository: only with the opt-in (mcp_scope_test.go)
	cmd.Dir, cmd.Env = sb.home, sb.env
	session, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "get_file_context", Arguments: map[string]any{"filePath": filepath.Join(repo, "lib.go")}})
	if err != nil || res.IsError {
		t.Fatalf("get_file_context outside a repository: %v %+v", err, res)
	}
	b, _ := json.Marshal(res.StructuredContent)
	if !strings.Contains(string(b), "conv-abs-path") {
		t.Errorf("result: %s", b)
	}
}

// mcpTools is the tools session's server lists.
func mcpTools(t *testing.T, ctx context.Context, session *mcp.ClientSession) []*mcp.Tool {
	t.Helper()
	tools, err := session.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	return tools.Tools
}
