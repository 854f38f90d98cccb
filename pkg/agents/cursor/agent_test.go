package cursor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/agents/source"
)

// TestAgentHooks: Cursor's hooks.json and mcp.json through source.Agent, as
// install, doctor and uninstall use them.
func TestAgentHooks(t *testing.T) {
	root := t.TempDir()
	home, top := filepath.Join(root, "home"), filepath.Join(root, "repo")
	db := filepath.Join(root, "state.vscdb")
	env := source.HookEnv{Getenv: func(k string) string {
		return map[string]string{"HOME": home, "CURSOR_DB_PATH": db}[k]
	}, Executable: "/opt/git-convo", TopLevel: top, BackupDir: filepath.Join(root, "backup")}
	var a Agent
	hooks, more := a.CheckHooks(env)
	// A missing database is not an OK line (a warning, or information where the Cursor CLI keeps none).
	if hooks.State != source.CheckMissing || len(more) != 1 || more[0].Name != "cursor db" || more[0].State == source.CheckOK {
		t.Errorf("CheckHooks before install = %+v %+v", hooks, more)
	}
	env.Chosen = source.ScopeNone
	if _, more := a.CheckHooks(env); more[0].State != source.CheckInfo {
		t.Errorf("cursor db when the user chose none = %+v, want information", more[0])
	}
	env.Chosen = ""
	user := filepath.Join(home, ".cursor", "hooks.json")
	lines, err := a.InstallHooks(env, source.ScopeUser)
	if err != nil || len(lines) != 1 || !strings.HasPrefix(lines[0], user+": Cursor hooks ") {
		t.Fatalf("InstallHooks(user) = %q, %v", lines, err)
	}
	if b, _ := os.ReadFile(user); !strings.Contains(string(b), "/opt/git-convo capture --event stop") {
		t.Errorf("hooks.json does not name the binary:\n%s", b)
	}
	lines, err = a.InstallMCP(env, source.ScopeUser)
	if mcp := filepath.Join(home, ".cursor", "mcp.json"); err != nil || len(lines) != 1 || !strings.HasPrefix(lines[0], mcp+": MCP server ") {
		t.Fatalf("InstallMCP = %q, %v", lines, err)
	}
	if c, _ := a.CheckHooks(env); c.State != source.CheckOK || c.Detail != user {
		t.Errorf("CheckHooks after install = %+v", c)
	}
	// Without user, only the project's (absent) file is looked at.
	if lines, err := a.UninstallHooks(env, false); err != nil || len(lines) != 1 || !strings.Contains(lines[0], "not present") {
		t.Errorf("UninstallHooks(project) = %q, %v", lines, err)
	}
	lines, err = a.UninstallHooks(env, true)
	if err != nil || len(lines) != 3 || !strings.Contains(lines[2], "mcp.json: MCP server ") {
		t.Errorf("UninstallHooks(user) = %q, %v", lines, err)
	}
	if c, _ := a.CheckHooks(env); c.State != source.CheckMissing {
		t.Errorf("CheckHooks after uninstall = %+v, want missing", c)
	}
	if _, err := a.InstallHooks(source.HookEnv{Getenv: func(string) string { return "" }}, source.ScopeUser); err == nil || !strings.Contains(err.Error(), "--cursor=project") {
		t.Errorf("InstallHooks(user) without HOME: %v, want advice", err)
	}
}
