package cli_test

// A stand-in agent, defined here and nowhere else, plugs into git-convo with
// one registration line (the registry below) and is installed, captured,
// linked, read, checked by doctor and uninstalled: the proof that an agent
// is one package (docs/agents.md, "Adding an agent").

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/agents"
	"github.com/git-convo/git-convo/pkg/agents/builtin"
	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/cli"
)

// standIn is an agent whose hooks file is .standin/hooks.json (in the
// home directory or the repository) and whose payloads are
// {"session", "event", "cwd", "prompt", "file", "text"}.
type standIn struct{}

func (standIn) Name() string                                     { return "standin" }
func (standIn) Source(func(string) string) source.Source         { return standInSource{} }
func (standIn) DefaultScope(source.HookEnv) source.Scope         { return source.ScopeNone }
func (standIn) Store(getenv func(string) string) (string, error) { return "", source.ErrNotFound }
func (standIn) Words() source.Words {
	return source.Words{Display: "Stand-In", Worker: "the Stand-In agent", Reload: "Restart the Stand-In.",
		Install: "Stand-In: .standin/hooks.json.", InstallFlag: "where to install the Stand-In's hooks",
		UninstallFlag: "also the user's Stand-In hooks", Capture: "--agent standin: the Stand-In's payloads.",
		Store: "nowhere"}
}

func (standIn) file(env source.HookEnv, scope source.Scope) string {
	if scope == source.ScopeProject {
		return filepath.Join(env.TopLevel, ".standin", "hooks.json")
	}
	return filepath.Join(env.Getenv("HOME"), ".standin", "hooks.json")
}

func (a standIn) InstallHooks(env source.HookEnv, scope source.Scope) ([]string, error) {
	p := a.file(env, scope)
	b, _ := json.Marshal(map[string]string{"command": source.ShellQuote(env.Executable) + " capture --agent standin"})
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, err
	}
	return []string{p + ": Stand-In hooks installed"}, os.WriteFile(p, b, 0o644)
}

func (a standIn) UninstallHooks(env source.HookEnv, user bool) ([]string, error) {
	paths := []string{a.file(env, source.ScopeProject)}
	if user {
		paths = append(paths, a.file(env, source.ScopeUser))
	}
	var out []string
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			if _, ours := source.CaptureEntry(b); ours {
				out = append(out, p+": Stand-In hooks removed")
				if err := os.Remove(p); err != nil {
					return out, err
				}
			}
		}
	}
	return out, nil
}

func (a standIn) CheckHooks(env source.HookEnv) (source.Check, []source.Check) {
	for _, p := range []string{a.file(env, source.ScopeProject), a.file(env, source.ScopeUser)} {
		if b, err := os.ReadFile(p); err == nil {
			if _, ours := source.CaptureEntry(b); ours {
				return source.Check{Name: "standin hooks", Detail: p}, nil
			}
		}
	}
	return source.Check{Name: "standin hooks", State: source.CheckMissing, Detail: "no .standin/hooks.json", Fix: "git convo install --standin=user"}, nil
}

type standInSource struct{}

func (standInSource) Name() string { return "standin" }

func (standInSource) ParseHook(data []byte) (source.Activity, error) {
	var p struct{ Session, Event, Cwd, Prompt, File, Text string }
	if err := json.Unmarshal(data, &p); err != nil {
		return source.Activity{}, source.ErrBadPayload
	}
	a := source.Activity{ConversationID: p.Session, Event: p.Event, Prompt: p.Prompt, EndsTurn: p.Event == "stop"}
	if p.Cwd != "" {
		a.Roots = []string{p.Cwd}
	}
	if p.File != "" {
		a.Files, a.ToolEdit = []string{p.File}, true
		a.Added = map[string][]string{p.File: {p.Text}}
	}
	return a, nil
}

func (standInSource) ReadConversation(context.Context, string, source.Hint) (*source.Conversation, error) {
	return nil, source.ErrNotFound
}

func (standInSource) ListConversations(context.Context, []string) ([]source.Ref, error) {
	return nil, source.ErrNotFound
}

func TestStandInAgentPlugsIn(t *testing.T) {
	root := t.TempDir()
	home, repo := filepath.Join(root, "home"), filepath.Join(root, "repo")
	gitconfig := filepath.Join(root, "gitconfig")
	if err := os.WriteFile(gitconfig, []byte("[user]\n\tname = Ada\n\temail = ada@example.com\n[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{"HOME": home, "GIT_CONFIG_GLOBAL": gitconfig, "GIT_CONFIG_NOSYSTEM": "1",
		"GIT_CONVO_DB": filepath.Join(root, "links.sqlite"), "XDG_CONFIG_HOME": filepath.Join(home, ".config"),
		"CURSOR_DB_PATH": filepath.Join(root, "no-cursor.vscdb"), "CLAUDE_CONFIG_DIR": filepath.Join(root, "no-claude"),
		"NO_COLOR": "1"} {
		t.Setenv(k, v)
	}
	for _, k := range []string{"GIT_CONVO_SYNC", "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"} {
		t.Setenv(k, "") // restored after the test
		os.Unsetenv(k)
	}
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	git("init", "-q")
	t.Chdir(repo)
	// git-convo, as the hooks name it: this test binary, never run (the git
	// hooks queue, the next command records; captures run in process).
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(root, "bin", "git-convo")
	if err := os.MkdirAll(filepath.Dir(exe), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(self, exe); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}

	// The one registration line.
	reg := agents.New(append(builtin.Agents(), standIn{})...)

	run := func(stdin string, args ...string) (code int, stdout, stderr string) {
		t.Helper()
		var out, errb bytes.Buffer
		env := &cli.Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Now: time.Now, Executable: exe, Agents: reg,
			// Captures record at once (the turn's events are not spooled).
			Getenv: func(k string) string {
				if k == "GIT_CONVO_SYNC" {
					return "1"
				}
				return os.Getenv(k)
			}}
		code = cli.Run(append([]string{"git-convo"}, args...), env)
		return code, out.String(), errb.String()
	}

	if _, help, _ := run("", "install", "--help"); !strings.Contains(help, "--standin value") || !strings.Contains(help, "Stand-In: .standin/hooks.json.") {
		t.Errorf("install --help does not offer the stand-in:\n%s", help)
	}
	code, out, errs := run("", "install", "--cursor=none", "--claude=none", "--standin=user")
	hooksFile := filepath.Join(home, ".standin", "hooks.json")
	if code != 0 || !strings.Contains(out, hooksFile+": Stand-In hooks installed") || !strings.Contains(out, "Work with the Stand-In agent and commit") {
		t.Fatalf("install: exit %d\n%s%s", code, out, errs)
	}

	// Captured: a prompt, an edit, the end of the turn.
	file := filepath.Join(repo, "area.py")
	for _, p := range []map[string]string{
		{"session": "si-1", "event": "prompt", "cwd": repo, "prompt": "compute circle areas"},
		{"session": "si-1", "event": "edit", "cwd": repo, "file": file, "text": "def area(r):\n    return 3.14159 * r * r\n"},
		{"session": "si-1", "event": "stop", "cwd": repo},
	} {
		b, _ := json.Marshal(p)
		if code, out, errs := run(string(b), "capture", "--agent", "standin"); code != 0 || out != "" || errs != "" {
			t.Fatalf("capture %s: exit %d %q %q", p["event"], code, out, errs)
		}
	}
	// Linked: the commit holding the lines it wrote is its conversation's.
	if err := os.WriteFile(file, []byte("def area(r):\n    return 3.14159 * r * r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "area.py")
	git("commit", "-q", "-m", "areas")
	code, out, errs = run("", "show", "--json", "HEAD")
	var shown struct {
		Conversations []struct {
			ID, Agent    string
			WrittenLines int `json:"writtenLines"`
		} `json:"conversations"`
	}
	if err := json.Unmarshal([]byte(out), &shown); code != 0 || err != nil || len(shown.Conversations) != 1 ||
		shown.Conversations[0].ID != "si-1" || shown.Conversations[0].Agent != "standin" || shown.Conversations[0].WrittenLines != 2 {
		t.Fatalf("show HEAD: exit %d %v\n%s%s", code, err, out, errs)
	}
	// Read: the stand-in keeps no store, so the hook record stands in.
	if code, out, _ := run("", "conversation", "si-1"); code != 0 || !strings.Contains(out, "compute circle areas") || !strings.Contains(out, "| Agent | standin |") {
		t.Errorf("conversation si-1: exit %d\n%s", code, out)
	}

	// Checked by doctor.
	code, out, errs = run("", "doctor", "--json")
	var doc struct {
		Checks []struct {
			Name, Detail string
			OK           bool
			Warn         bool `json:"warning"`
		} `json:"checks"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("doctor --json: %v\n%s%s", err, out, errs)
	}
	found := false
	for _, c := range doc.Checks {
		if c.Name == "standin hooks" {
			found = c.OK && !c.Warn && c.Detail == hooksFile
		}
	}
	if code != 0 || !found {
		t.Errorf("doctor: exit %d, standin hooks not ok:\n%s", code, out)
	}

	// Uninstalled: the file goes, and doctor says so.
	if code, out, _ := run("", "uninstall", "--standin"); code != 0 || !strings.Contains(out, hooksFile+": Stand-In hooks removed") {
		t.Errorf("uninstall: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(hooksFile); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("uninstall left %s: %v", hooksFile, err)
	}
	if _, out, _ := run("", "doctor"); !strings.Contains(out, "FAIL standin hooks") {
		t.Errorf("doctor after uninstall, with no agent hooked:\n%s", out)
	}

	// An agent no one registered: capture tells, and still exits 0.
	if code, out, errs := run(`{"session":"x"}`, "capture", "--agent", "nope"); code != 0 || out != "" || !strings.Contains(errs, `unknown agent "nope": the agents are cursor, claude, `) || !strings.HasSuffix(strings.TrimSpace(errs), ", standin") {
		t.Errorf("capture --agent nope: exit %d %q %q", code, out, errs)
	}
}
