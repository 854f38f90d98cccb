package gemini

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/agents/cursor/cursortest"
	"github.com/git-convo/git-convo/pkg/agents/source"
)

// TestInstallKeepsUsersSettings: install into a real settings.json (Entire's,
// registering every event, with "enabled": true), then uninstall gives it
// back byte for byte.
func TestInstallKeepsUsersSettings(t *testing.T) {
	user := "{\n  \"theme\": \"dark\"\n}\n"
	if p, ok := cursortest.SharedPath("gemini", "config", "entire-cli_.gemini_settings.json"); ok {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		user = string(b)
	}
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".gemini"), 0o700)
	path := filepath.Join(home, ".gemini", "settings.json")
	os.WriteFile(path, []byte(user), 0o600)
	env := source.HookEnv{Getenv: func(k string) string {
		if k == "GEMINI_CLI_HOME" {
			return home
		}
		return ""
	}, Executable: "/usr/local/bin/git-convo", TopLevel: t.TempDir(), BackupDir: t.TempDir()}
	a := Agent{}
	if a.DefaultScope(env) != source.ScopeUser {
		t.Fatal("default scope")
	}
	if _, err := a.InstallHooks(env, source.ScopeUser); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if !strings.Contains(string(b), `"enabled"`) || !strings.Contains(string(b), `"timeout": 5000`) && !strings.Contains(string(b), `"timeout":5000`) {
		t.Errorf("settings:\n%s", b)
	}
	if c, _ := a.CheckHooks(env); c.State != source.CheckOK {
		t.Errorf("%+v", c)
	}
	if _, err := a.UninstallHooks(env, true); err != nil {
		t.Fatal(err)
	}
	if back, _ := os.ReadFile(path); string(back) != user {
		t.Errorf("not restored:\n%s", back)
	}
}
