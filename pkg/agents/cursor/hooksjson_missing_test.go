package cursor

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestMissingHooks(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hooks.json")
	specs := []HookSpec{{"postToolUse", 5}, {"afterShellExecution", 5}, {"stop", 10}}
	// An older install, beside another tool's hook for the new event.
	os.WriteFile(path, []byte(`{"version":1,"hooks":{"postToolUse":[{"command":"/bin/git-convo capture --event postToolUse"}],
	"afterShellExecution":[{"command":"./audit.sh"}],"stop":"not a list"}}`), 0o644)
	missing, err := MissingHooks(path, specs)
	if err != nil || !reflect.DeepEqual(missing, []string{"afterShellExecution", "stop"}) {
		t.Errorf("MissingHooks = %v, %v", missing, err)
	}
	os.Remove(path)
	if _, err := InstallHooksJSON(path, "git-convo", specs, ""); err != nil {
		t.Fatal(err)
	}
	if missing, err := MissingHooks(path, specs); err != nil || len(missing) != 0 {
		t.Errorf("after install: %v, %v", missing, err)
	}
	os.WriteFile(path, []byte("{"), 0o644)
	if _, err := MissingHooks(path, specs); err == nil {
		t.Error("a malformed hooks.json: no error")
	}
}
