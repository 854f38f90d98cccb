package copilot

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/agents/source"
)

func gitRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"config", "user.email", "a@example.com"}, {"config", "user.name", "A"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	return dir
}

// TestUserScopeNeverCommitted: user scope names this machine's git-convo in
// .github/hooks/git-convo.json and excludes it, so git status never shows
// it; a file the team tracks gets a portable command only; uninstall takes
// both back, byte for byte.
func TestUserScopeNeverCommitted(t *testing.T) {
	top := gitRepo(t)
	env := source.HookEnv{Getenv: func(string) string { return "" }, Executable: "/home/ada/bin/git-convo", TopLevel: top, BackupDir: t.TempDir()}
	ex := filepath.Join(top, ".git", "info", "exclude")
	before, _ := os.ReadFile(ex)
	lines, err := Agent{}.InstallHooks(env, source.ScopeUser)
	if err != nil || !strings.Contains(lines[0], "excluded from git") {
		t.Fatalf("%v %v", lines, err)
	}
	b, _ := os.ReadFile(HooksFile(top))
	if !strings.Contains(string(b), `"version": 1`) || !strings.Contains(string(b), "/home/ada/bin/git-convo capture --agent copilot --event postToolUse") {
		t.Errorf("hooks file:\n%s", b)
	}
	if st, _ := git(top, "status", "--porcelain", "--untracked-files=all"); st != "" {
		t.Errorf("git status shows the machine's hooks file: %q", st)
	}
	if c, _ := (Agent{}).CheckHooks(env); c.State != source.CheckOK {
		t.Errorf("check: %+v", c)
	}
	if _, err := (Agent{}).UninstallHooks(env, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(HooksFile(top)); !os.IsNotExist(err) {
		t.Error("uninstall left the file it made")
	}
	if after, _ := os.ReadFile(ex); string(after) != string(before) {
		t.Errorf("exclude not restored:\n%s", after)
	}

	// A tracked file of the team's, with its own hook: a portable command.
	team := "{\n  \"version\": 1,\n  \"hooks\": {\n    \"sessionStart\": [\n      {\n        \"type\": \"command\",\n        \"bash\": \"./scripts/lint.sh\"\n      }\n    ]\n  }\n}\n"
	os.MkdirAll(filepath.Dir(HooksFile(top)), 0o755)
	os.WriteFile(HooksFile(top), []byte(team), 0o644)
	git(top, "add", ".")
	git(top, "commit", "-qm", "hooks")
	lines, err = Agent{}.InstallHooks(env, source.ScopeUser)
	if err != nil || !strings.Contains(lines[0], "tracked by git") {
		t.Fatalf("%v %v", lines, err)
	}
	b, _ = os.ReadFile(HooksFile(top))
	if strings.Contains(string(b), "/home/ada") || !strings.Contains(string(b), "./scripts/lint.sh") || !strings.Contains(string(b), `"git-convo capture --agent copilot --event agentStop"`) {
		t.Errorf("tracked file:\n%s", b)
	}
	if _, err := (Agent{}).UninstallHooks(env, false); err != nil {
		t.Fatal(err)
	}
	if back, _ := os.ReadFile(HooksFile(top)); string(back) != team {
		t.Errorf("not restored:\n%s", back)
	}
}

// TestMachinePathWarned: a hooks file naming a machine's git-convo that
// git would commit is doctor's warning.
func TestMachinePathWarned(t *testing.T) {
	top := gitRepo(t)
	env := source.HookEnv{Getenv: func(string) string { return "" }, Executable: "/opt/git-convo", TopLevel: top, BackupDir: t.TempDir()}
	if _, err := install(HooksFile(top), "/opt/git-convo", env.BackupDir); err != nil {
		t.Fatal(err)
	}
	if c, _ := (Agent{}).CheckHooks(env); c.State != source.CheckWarn || !strings.Contains(c.Detail, "would commit") {
		t.Errorf("%+v", c)
	}
}
