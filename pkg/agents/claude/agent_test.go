package claude

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/agents/source"
)

// TestAgentHooks: Claude Code's hooks through source.Agent, as install,
// doctor and uninstall use them: the default scope follows Claude Code's
// presence, a project install is found by the check, and uninstall gives
// the file back.
func TestAgentHooks(t *testing.T) {
	root := t.TempDir()
	top, cfg := filepath.Join(root, "repo"), filepath.Join(root, "claude-config")
	env := source.HookEnv{Getenv: func(k string) string {
		return map[string]string{"CLAUDE_CONFIG_DIR": cfg, "HOME": root}[k]
	}, Executable: "/opt/git-convo", TopLevel: top, BackupDir: filepath.Join(root, "backup")}
	var a Agent
	if got := a.DefaultScope(env); got != source.ScopeNone {
		t.Errorf("DefaultScope without Claude Code = %s, want none", got)
	}
	if c, _ := a.CheckHooks(env); c.State != source.CheckInfo || c.Hooked() {
		t.Errorf("CheckHooks without Claude Code = %+v, want information", c)
	}
	if err := os.MkdirAll(cfg, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := a.DefaultScope(env); got != source.ScopeUser {
		t.Errorf("DefaultScope with Claude Code = %s, want user", got)
	}
	if c, _ := a.CheckHooks(env); c.State != source.CheckMissing {
		t.Errorf("CheckHooks before install = %+v, want missing", c)
	}
	project := filepath.Join(top, ".claude", "settings.json")
	lines, err := a.InstallHooks(env, source.ScopeProject)
	if err != nil || len(lines) != 1 || !strings.HasPrefix(lines[0], project+": Claude Code hooks ") {
		t.Fatalf("InstallHooks(project) = %q, %v", lines, err)
	}
	if b, _ := os.ReadFile(project); !strings.Contains(string(b), `"git-convo capture --agent claude"`) {
		t.Errorf("the project's settings name no portable command:\n%s", b)
	}
	if c, _ := a.CheckHooks(env); c.State != source.CheckOK || c.Detail != project || !c.Hooked() {
		t.Errorf("CheckHooks after install = %+v", c)
	}
	lines, err = a.InstallHooks(env, source.ScopeUser)
	if user := filepath.Join(cfg, "settings.json"); err != nil || len(lines) != 1 || !strings.HasPrefix(lines[0], user) {
		t.Fatalf("InstallHooks(user) = %q, %v", lines, err)
	}
	if b, _ := os.ReadFile(filepath.Join(cfg, "settings.json")); !strings.Contains(string(b), "/opt/git-convo capture --agent claude") {
		t.Errorf("the user's settings do not name the binary:\n%s", b)
	}
	// Without user, the user's file stays.
	if lines, err := a.UninstallHooks(env, false); err != nil || len(lines) != 1 || !strings.HasPrefix(lines[0], project) {
		t.Errorf("UninstallHooks(project) = %q, %v", lines, err)
	}
	if c, _ := a.CheckHooks(env); c.Detail != filepath.Join(cfg, "settings.json") {
		t.Errorf("CheckHooks after the project's uninstall = %+v, want the user's file", c)
	}
	if _, err := a.UninstallHooks(env, true); err != nil {
		t.Fatal(err)
	}
	if c, _ := a.CheckHooks(env); c.State != source.CheckMissing {
		t.Errorf("CheckHooks after uninstall = %+v, want missing", c)
	}
}
