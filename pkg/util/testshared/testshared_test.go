package testshared

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFixtureAndPath(t *testing.T) {
	shared := t.TempDir()
	fixtures := filepath.Join(shared, "fixtures")
	if err := os.MkdirAll(filepath.Join(fixtures, "cursor"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(shared, "agent-trace"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, hide string
		get        func() (string, bool)
		want       string
	}{
		{"fixture through the env", "", func() (string, bool) { return Fixture("cursor") }, filepath.Join(fixtures, "cursor")},
		{"shared folder is the fixtures' parent", "", func() (string, bool) { return Path("agent-trace") }, filepath.Join(shared, "agent-trace")},
		{"absent", "", func() (string, bool) { return Fixture("gemini") }, ""},
		{"hidden fixture", "1", func() (string, bool) { return Fixture("cursor") }, ""},
		{"hidden path", "1", func() (string, bool) { return Path("agent-trace") }, ""},
		{"0 hides nothing", "0", func() (string, bool) { return Fixture("cursor") }, filepath.Join(fixtures, "cursor")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(FixturesEnv, fixtures)
			t.Setenv(NoSharedEnv, tc.hide)
			got, ok := tc.get()
			if got != tc.want || ok != (tc.want != "") {
				t.Errorf("got %q %v, want %q", got, ok, tc.want)
			}
		})
	}
}

func TestModuleRoot(t *testing.T) {
	root, err := ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Errorf("%s holds no go.mod", root)
	}
}
