package cursor

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func readJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s is not JSON: %v", path, err)
	}
	return m
}

func commands(m map[string]any, event string) []string {
	var out []string
	hooks, _ := m["hooks"].(map[string]any)
	list, _ := hooks[event].([]any)
	for _, e := range list {
		if o, ok := e.(map[string]any); ok {
			c, _ := o["command"].(string)
			out = append(out, c)
		}
	}
	return out
}

func TestInstallHooksJSONMerges(t *testing.T) {
	tests := []struct {
		name     string
		existing string // "" = no file
		wantRes  string
		check    func(t *testing.T, m map[string]any, raw string)
	}{
		{name: "absent file", wantRes: "created"},
		{name: "empty file", existing: "  \n", wantRes: "updated"},
		{name: "other tools and unknown keys kept in order", existing: `{"version":1,"x-team":{"keep":true},"hooks":{"stop":[{"command":"./other.sh","timeout":3,"extra":"kept"}],"beforeShellExecution":[{"command":"guard"}]}}`,
			wantRes: "updated", check: func(t *testing.T, m map[string]any, raw string) {
				if c := commands(m, "stop"); len(c) != 2 || c[0] != "./other.sh" {
					t.Errorf("stop = %v", c)
				}
				if c := commands(m, "beforeShellExecution"); len(c) != 1 {
					t.Errorf("another tool's event was dropped: %v", c)
				}
				if !strings.Contains(raw, `"extra": "kept"`) || strings.Index(raw, `"x-team"`) > strings.Index(raw, `"hooks"`) {
					t.Errorf("unknown keys lost or reordered:\n%s", raw)
				}
			}},
		{name: "our old entry with another path is replaced", existing: `{"version":1,"hooks":{"afterFileEdit":[{"command":"/old/bin/git-convo capture --event afterFileEdit"}]}}`,
			wantRes: "updated", check: func(t *testing.T, m map[string]any, raw string) {
				if c := commands(m, "afterFileEdit"); len(c) != 1 || !strings.HasPrefix(c[0], "'/new dir/git-convo' capture") {
					t.Errorf("afterFileEdit = %v", c)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), ".cursor", "hooks.json")
			if tt.existing != "" {
				os.MkdirAll(filepath.Dir(path), 0o755)
				os.WriteFile(path, []byte(tt.existing), 0o640)
			}
			res, err := InstallHooksJSON(path, "/new dir/git-convo", DefaultHookSpecs(), "")
			if err != nil || res != tt.wantRes {
				t.Fatalf("InstallHooksJSON = %q, %v; want %q", res, err, tt.wantRes)
			}
			raw, _ := os.ReadFile(path)
			m := readJSON(t, path)
			if m["version"] != float64(1) {
				t.Errorf("version = %v", m["version"])
			}
			for _, s := range DefaultHookSpecs() {
				found := 0
				for _, c := range commands(m, s.Event) {
					if strings.Contains(c, "capture --event "+s.Event) {
						found++
					}
				}
				if found != 1 {
					t.Errorf("%s: %d capture entries", s.Event, found)
				}
			}
			if tt.check != nil {
				tt.check(t, m, string(raw))
			}
			fi, _ := os.Stat(path)
			wantMode := os.FileMode(0o644)
			if tt.existing != "" {
				wantMode = 0o640
			}
			if fi.Mode().Perm() != wantMode {
				t.Errorf("mode = %v, want %v", fi.Mode().Perm(), wantMode)
			}
			if res, _ := InstallHooksJSON(path, "/new dir/git-convo", DefaultHookSpecs(), ""); res != "unchanged" {
				t.Errorf("second install: %q", res)
			}
			if again, _ := os.ReadFile(path); string(again) != string(raw) {
				t.Error("second install changed the bytes")
			}
			if _, err = UninstallHooksJSON(path, ""); err != nil {
				t.Fatal(err)
			}
			if _, statErr := os.Stat(path); statErr == nil {
				m := readJSON(t, path)
				for _, s := range DefaultHookSpecs() {
					for _, c := range commands(m, s.Event) {
						if strings.Contains(c, "git-convo") {
							t.Errorf("uninstall left %q", c)
						}
					}
				}
				if tt.name == "other tools and unknown keys kept in order" && len(commands(m, "stop")) != 1 {
					t.Errorf("uninstall removed another tool's hook")
				}
			} else if tt.existing != "" && strings.Contains(tt.existing, "other") {
				t.Error("uninstall deleted a file with other tools' hooks")
			}
		})
	}
}

func TestMalformedHooksJSONUntouched(t *testing.T) {
	for _, bad := range []string{`{"hooks": `, `[1,2]`, `{"hooks": []}`, `{"hooks": {"stop": {"command": "x"}}}`, `{"a":1} trailing`} {
		path := filepath.Join(t.TempDir(), "hooks.json")
		os.WriteFile(path, []byte(bad), 0o644)
		_, err := InstallHooksJSON(path, "git-convo", DefaultHookSpecs(), "")
		if !errors.Is(err, ErrMalformedHooksJSON) || !strings.Contains(err.Error(), path) {
			t.Errorf("%q: err = %v", bad, err)
		}
		if got, _ := os.ReadFile(path); string(got) != bad {
			t.Errorf("%q was overwritten with %q", bad, got)
		}
		_, _ = UninstallHooksJSON(path, "") // refuses, or finds nothing of ours
		if got, _ := os.ReadFile(path); string(got) != bad {
			t.Errorf("uninstall rewrote %q as %q", bad, got)
		}
	}
}

func TestRefusesBlockingEvents(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hooks.json")
	if _, err := InstallHooksJSON(path, "git-convo", []HookSpec{{"preToolUse", 5}}, ""); err == nil {
		t.Fatal("a blocking event was registered")
	}
	if _, err := os.Stat(path); err == nil {
		t.Error("a file was written")
	}
	for _, s := range DefaultHookSpecs() {
		if blockingEvent(s.Event) || s.Timeout <= 0 {
			t.Errorf("default spec %+v", s)
		}
	}
}

func TestCaptureCommand(t *testing.T) {
	if got := CaptureCommand("git-convo", "stop"); got != "git-convo capture --event stop" {
		t.Errorf("portable: %q", got)
	}
	if got := CaptureCommand("/opt/it's here/git-convo", "stop"); got != `'/opt/it'\''s here/git-convo' capture --event stop` {
		t.Errorf("quoted: %q", got)
	}
}

// TestUninstallRestoresBytes: uninstall gives back the exact bytes install
// found when nothing else changed meanwhile; after another change it keeps
// that change (and the kept copy is dropped).
func TestUninstallRestoresBytes(t *testing.T) {
	original := "{\n    \"version\": 1,\n    \"hooks\": {\n        \"stop\": [ { \"command\": \"other-tool --stop\" } ]\n    }\n}\n"
	for _, tt := range []struct {
		name   string
		change func(path string)
		exact  bool
	}{
		{"nothing else changed", func(string) {}, true},
		{"another tool added a hook", func(path string) {
			b, _ := os.ReadFile(path)
			os.WriteFile(path, []byte(strings.Replace(string(b), `"stop": [`, `"afterTabFileEdit": [{"command": "third --end"}], "stop": [`, 1)), 0o644)
		}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir, backups := t.TempDir(), t.TempDir()
			path := filepath.Join(dir, "hooks.json")
			os.WriteFile(path, []byte(original), 0o644)
			if res, err := InstallHooksJSON(path, "/bin/git-convo", DefaultHookSpecs(), backups); err != nil || res != "updated" {
				t.Fatalf("install: %q %v", res, err)
			}
			tt.change(path)
			if _, err := UninstallHooksJSON(path, backups); err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(path)
			if (string(got) == original) != tt.exact {
				t.Errorf("after uninstall (exact restore wanted: %v):\n%s", tt.exact, got)
			}
			if !tt.exact && (!strings.Contains(string(got), "third --end") || strings.Contains(string(got), "git-convo")) {
				t.Errorf("the other change was not kept:\n%s", got)
			}
			if left, _ := os.ReadDir(backups); len(left) != 0 {
				t.Errorf("kept copies left: %v", left)
			}
		})
	}
}
