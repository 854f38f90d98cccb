package cli

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPAdoptsPrototypeDB: the MCP server is the first git-convo process
// to open the prototype's links.sqlite (CURSOR_LINKS_DB_PATH): it adopts it
// in place, as every command does, instead of refusing, and answers from it.
func TestMCPAdoptsPrototypeDB(t *testing.T) {
	sb, repo, sha, proto := prototypeSandbox(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.Command("git", "convo", "mcp")
	cmd.Dir, cmd.Env = repo, sb.with("GIT_CONVO_DB=", "CURSOR_LINKS_DB_PATH="+proto)
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("the server on the prototype's database: %v", err)
	}
	defer session.Close()
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "get_commit_conversations", Arguments: map[string]any{"commitHash": sha}})
	if err != nil || res.IsError {
		t.Fatalf("get_commit_conversations: %v %+v", err, res)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var out struct {
		Conversations []struct {
			ID string `json:"id"`
		} `json:"conversations"`
	}
	json.Unmarshal(b, &out)
	var ids []string
	for _, c := range out.Conversations {
		ids = append(ids, c.ID)
	}
	sort.Strings(ids)
	if strings.Join(ids, ",") != "3f1c9a52-7d0e-4b8e-9a61-2c5d8e4f7a10,conv-123" {
		t.Errorf("the prototype's conversations of %s: %s", sha, b)
	}
	if _, err := os.Stat(proto + ".prototype-backup"); err != nil {
		t.Errorf("no backup beside the adopted database: %v", err)
	}
}
