package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// TestUninstallCursorRestoresBytes: `uninstall --cursor` gives the user's
// hooks.json back byte for byte when nothing else changed.
func TestUninstallCursorRestoresBytes(t *testing.T) {
	sb := newSandbox(t)
	repo := sb.repo("project")
	user := filepath.Join(sb.home, ".cursor", "hooks.json")
	os.MkdirAll(filepath.Dir(user), 0o755)
	original := "{\"version\":1,\"hooks\":{\"stop\":[{\"command\":\"other-tool --stop\",\"timeout\":3}]}}"
	os.WriteFile(user, []byte(original), 0o640)
	sb.convo(repo, "install")
	if b, _ := os.ReadFile(user); string(b) == original {
		t.Fatal("install did not add the hooks")
	}
	sb.convo(repo, "uninstall", "--cursor")
	if b, _ := os.ReadFile(user); string(b) != original {
		t.Errorf("hooks.json after uninstall --cursor:\n%s\nwant:\n%s", b, original)
	}
}
