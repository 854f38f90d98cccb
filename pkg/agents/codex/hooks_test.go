package codex

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/agents/cursor/cursortest"
	"github.com/git-convo/git-convo/pkg/agents/source"
)

// TestInstallKeepsUsersHooks installs into a real hooks.json (Entire's,
// from the shared fixtures, or one like it), and uninstall gives it back
// byte for byte; a second install changes nothing.
func TestInstallKeepsUsersHooks(t *testing.T) {
	user := `{"hooks":{"Stop":[{"matcher":null,"hooks":[{"type":"command","command":"notify-send done","timeout":30}]}]}}`
	if p, ok := cursortest.SharedPath("codex", "config", "entire-cli_.codex_hooks.json"); ok {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		user = string(b)
	}
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, "hooks.json"), []byte(user), 0o600)
	env := source.HookEnv{Getenv: func(k string) string {
		if k == "CODEX_HOME" {
			return home
		}
		return ""
	}, Executable: "/opt/git convo/git-convo", TopLevel: t.TempDir(), BackupDir: t.TempDir()}
	a := Agent{}
	if a.DefaultScope(env) != source.ScopeUser {
		t.Error("Codex present, but the default scope is not user")
	}
	lines, err := a.InstallHooks(env, source.ScopeUser)
	if err != nil || len(lines) != 1 || !strings.Contains(lines[0], "approve") {
		t.Fatalf("%v %v", lines, err)
	}
	path := filepath.Join(home, "hooks.json")
	first, _ := os.ReadFile(path)
	if !strings.Contains(string(first), `'/opt/git convo/git-convo' capture --agent codex`) {
		t.Errorf("no quoted capture command:\n%s", first)
	}
	if c, _ := a.CheckHooks(env); c.State != source.CheckOK {
		t.Errorf("check after install: %+v", c)
	}
	if lines, _ := a.InstallHooks(env, source.ScopeUser); !strings.Contains(lines[0], "unchanged") {
		t.Errorf("second install: %v", lines)
	}
	if again, _ := os.ReadFile(path); string(again) != string(first) {
		t.Error("a second install changed the file")
	}
	if l := (a.UserLeftovers(env)); len(l) != 1 {
		t.Errorf("leftovers %v", l)
	}
	if _, err := a.UninstallHooks(env, true); err != nil {
		t.Fatal(err)
	}
	if back, _ := os.ReadFile(path); string(back) != user {
		t.Errorf("uninstall did not restore the file byte for byte:\n%s", back)
	}
	if c, _ := a.CheckHooks(env); c.State != source.CheckMissing {
		t.Errorf("check after uninstall: %+v", c)
	}

	// The project's file: a portable command; a malformed file is untouched.
	if _, err := a.InstallHooks(env, source.ScopeProject); err != nil {
		t.Fatal(err)
	}
	proj, _ := os.ReadFile(filepath.Join(env.TopLevel, ".codex", "hooks.json"))
	if !strings.Contains(string(proj), `"git-convo capture --agent codex"`) {
		t.Errorf("project hooks:\n%s", proj)
	}
	os.WriteFile(path, []byte(`{"hooks": []}`), 0o600)
	if _, err := a.InstallHooks(env, source.ScopeUser); !errors.Is(err, ErrMalformed) {
		t.Errorf("malformed: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != `{"hooks": []}` {
		t.Error("a malformed file was changed")
	}
}

func TestNoCodex(t *testing.T) {
	env := source.HookEnv{Getenv: func(k string) string {
		if k == "HOME" {
			return t.TempDir()
		}
		return ""
	}, TopLevel: t.TempDir()}
	if (Agent{}).DefaultScope(env) != source.ScopeNone {
		t.Error("no ~/.codex, yet the default scope is not none")
	}
	if c, _ := (Agent{}).CheckHooks(env); c.State != source.CheckInfo {
		t.Errorf("%+v", c)
	}
}
