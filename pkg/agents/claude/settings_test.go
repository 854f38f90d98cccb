package claude

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// userSettings is a real-looking user settings file: other keys, a user's own
// PostToolUse hook with a timeout and an unknown handler field, 4-space
// indentation and no final newline.
const userSettings = `{
    "model": "opus",
    "permissions": {
        "allow": ["Bash(npm test:*)"],
        "deny": []
    },
    "hooks": {
        "PostToolUse": [
            {
                "matcher": "Write|Edit",
                "hooks": [
                    {"type": "command", "command": "prettier --write \"$CLAUDE_FILE\"", "timeout": 30, "statusMessage": "formatting"}
                ]
            }
        ]
    },
    "statusLine": {"type": "command", "command": "~/bin/status"}
}`

func TestInstallUninstallKeepsUserSettings(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	backups := filepath.Join(dir, "backups")
	if err := os.WriteFile(path, []byte(userSettings), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := CaptureCommand("/opt/my bin/git-convo")
	res, err := Install(path, cmd, DefaultHookSpecs(), backups)
	if err != nil || res != "updated" {
		t.Fatalf("install: %q, %v", res, err)
	}
	first, _ := os.ReadFile(path)
	checkInstalled(t, first, cmd)
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600 kept", fi.Mode().Perm())
	}
	res, err = Install(path, cmd, DefaultHookSpecs(), backups)
	if err != nil || res != "unchanged" {
		t.Fatalf("second install: %q, %v", res, err)
	}
	if again, _ := os.ReadFile(path); string(again) != string(first) {
		t.Fatal("a second install changed the file")
	}
	if have, missing, err := Installed(path, DefaultHookSpecs()); err != nil || len(missing) != 0 || len(have) != len(DefaultHookSpecs()) {
		t.Errorf("Installed: %v %v %v", have, missing, err)
	}
	res, err = Uninstall(path, backups)
	if err != nil || !strings.HasPrefix(res, "restored") {
		t.Fatalf("uninstall: %q, %v", res, err)
	}
	if got, _ := os.ReadFile(path); string(got) != userSettings {
		t.Errorf("uninstall did not restore the file byte for byte:\n%s", got)
	}
}

// checkInstalled checks every event has our handler, the user's hook and
// other keys are kept in order.
func checkInstalled(t *testing.T, b []byte, cmd string) {
	t.Helper()
	s := string(b)
	for _, want := range []string{`"model": "opus"`, `"statusLine"`, `"statusMessage": "formatting"`, `"timeout": 30`, `prettier --write`} {
		if !strings.Contains(s, want) {
			t.Errorf("lost %s:\n%s", want, s)
		}
	}
	if strings.Index(s, `"model"`) > strings.Index(s, `"permissions"`) || strings.Index(s, `"hooks"`) > strings.Index(s, `"statusLine"`) {
		t.Errorf("keys reordered:\n%s", s)
	}
	var parsed struct {
		Hooks map[string][]struct {
			Matcher *string `json:"matcher"`
			Hooks   []struct {
				Type    string `json:"type"`
				Command string `json:"command"`
				Timeout int    `json:"timeout"`
				Async   bool   `json:"async"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(b, &parsed); err != nil {
		t.Fatal(err)
	}
	for _, spec := range DefaultHookSpecs() {
		groups := parsed.Hooks[spec.Event]
		found := 0
		for _, g := range groups {
			for _, h := range g.Hooks {
				if h.Command == cmd {
					found++
					if h.Type != "command" || h.Timeout != spec.Timeout || h.Async != spec.Async {
						t.Errorf("%s: handler %+v", spec.Event, h)
					}
					if (g.Matcher != nil) != (spec.Matcher != "") || (g.Matcher != nil && *g.Matcher != spec.Matcher) {
						t.Errorf("%s: matcher %v", spec.Event, g.Matcher)
					}
				}
			}
		}
		if found != 1 {
			t.Errorf("%s: %d git-convo handlers, want 1", spec.Event, found)
		}
	}
	if len(parsed.Hooks["PostToolUse"]) != 2 {
		t.Errorf("PostToolUse groups: %d, want the user's and ours", len(parsed.Hooks["PostToolUse"]))
	}
}

func TestUninstallAfterOtherChangesRemovesOnlyOurs(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	backups := filepath.Join(dir, "backups")
	if err := os.WriteFile(path, []byte(userSettings), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Install(path, CaptureCommand("git-convo"), DefaultHookSpecs(), backups); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	// The user (or Claude Code's /config) changes something else meanwhile.
	b = []byte(strings.Replace(string(b), `"model": "opus"`, `"model": "sonnet"`, 1))
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Uninstall(path, backups)
	if err != nil || res != "removed" {
		t.Fatalf("uninstall: %q, %v", res, err)
	}
	got, _ := os.ReadFile(path)
	if strings.Contains(string(got), "git-convo") || !strings.Contains(string(got), `"model": "sonnet"`) ||
		!strings.Contains(string(got), "prettier") || strings.Contains(string(got), "Stop") {
		t.Errorf("after uninstall:\n%s", got)
	}
	if res, _ := Uninstall(path, backups); res != "unchanged" {
		t.Errorf("second uninstall: %q", res)
	}
}

func TestInstallCreatesAndUninstallDeletes(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".claude", "settings.json")
	if res, err := Install(path, CaptureCommand("git-convo"), DefaultHookSpecs(), dir); err != nil || res != "created" {
		t.Fatalf("install: %q, %v", res, err)
	}
	if res, err := Uninstall(path, dir); err != nil || !strings.HasPrefix(res, "removed") {
		t.Fatalf("uninstall: %q %v", res, err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Error("the file git-convo created is still there")
	}
	if res, _ := Uninstall(path, dir); res != "not present" {
		t.Errorf("uninstall of nothing: %q", res)
	}
}

func TestMalformedSettingsUntouched(t *testing.T) {
	for _, content := range []string{`{"hooks": [`, `[]`, `{"hooks": []}`, `{"hooks": {"Stop": {}}}`, `{"hooks": {"Stop": [1]}}`, `{"hooks": {"Stop": [{"hooks": {}}]}}`} {
		dir := t.TempDir()
		path := filepath.Join(dir, "settings.json")
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Install(path, CaptureCommand("git-convo"), DefaultHookSpecs(), dir)
		if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: err %v, want ErrMalformed naming the file", content, err)
		}
		if _, err := Uninstall(path, dir); !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: uninstall err %v", content, err)
		}
		if got, _ := os.ReadFile(path); string(got) != content {
			t.Errorf("%s: file changed to %s", content, got)
		}
	}
}

func TestConfigDir(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if got := ConfigDir(env(map[string]string{"HOME": "/h"})); got != filepath.Join("/h", ".claude") {
		t.Errorf("got %s", got)
	}
	if got := ConfigDir(env(map[string]string{"HOME": "/h", "CLAUDE_CONFIG_DIR": "/c"})); got != "/c" {
		t.Errorf("got %s", got)
	}
}

// FuzzInstallUninstall: whatever the settings file holds, install either
// refuses and leaves it untouched, or merges; uninstall then gives the
// original bytes back.
func FuzzInstallUninstall(f *testing.F) {
	f.Add([]byte(userSettings))
	f.Add([]byte(`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"git-convo capture --agent claude"}]}]}}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, content []byte) {
		dir := t.TempDir()
		path := filepath.Join(dir, "settings.json")
		if err := os.WriteFile(path, content, 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := Install(path, CaptureCommand("git-convo"), DefaultHookSpecs(), dir)
		if err != nil {
			if got, _ := os.ReadFile(path); string(got) != string(content) {
				t.Fatalf("a refused install changed the file: %v", err)
			}
			return
		}
		if _, err := Uninstall(path, dir); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if len(content) == 0 && os.IsNotExist(err) {
			return
		}
		if res == "unchanged" { // it held exactly git-convo's hooks already
			if _, missing, _ := Installed(path, DefaultHookSpecs()); len(missing) != len(DefaultHookSpecs()) {
				t.Fatalf("uninstall left git-convo's hooks: %s", got)
			}
			return
		}
		if string(got) != string(content) {
			t.Fatalf("uninstall did not restore %q: got %q", content, got)
		}
	})
}
