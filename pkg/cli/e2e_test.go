package cli

// End-to-end tests: the real git-convo binary, real git repositories, real
// hooks firing on real commits, a real links.sqlite and a Cursor state.vscdb
// generated in Cursor's real schema (the real fixture where a test says so).
// Each test gets its own HOME, git config and databases.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/agents/cursor/cursortest"
)

// binPath is the git-convo binary TestMain builds once for the package's
// tests; it is set before any test runs and only read after.
var binPath string

func buildBinary() (string, func(), error) {
	dir, err := os.MkdirTemp("", "git-convo-bin-")
	if err != nil {
		return "", nil, err
	}
	bin := filepath.Join(dir, "git-convo")
	for _, name := range []string{"git-convo", "git-convo-mcp"} {
		cmd := exec.Command("go", "build", "-tags", "urfave_cli_no_docs", "-o", filepath.Join(dir, name), "github.com/git-convo/git-convo/cmd/"+name)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			os.RemoveAll(dir)
			return "", nil, fmt.Errorf("building %s: %v\n%s", name, err, out)
		}
	}
	return bin, func() { os.RemoveAll(dir) }, nil
}

func TestMain(m *testing.M) {
	bin, cleanup, err := buildBinary()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binPath = bin
	code := m.Run()
	cleanup()
	os.Exit(code)
}

// sandbox is an isolated user: HOME, git config, links DB, Cursor DB, PATH
// with git-convo first.
type sandbox struct {
	t        testing.TB
	root     string
	home     string
	env      []string
	cursorDB string
	linksDB  string
}

// fixtureConv is the conversation of the Cursor database every sandbox
// starts with: generated in Cursor's real schema (cursortest.Sample), with
// the id and title of the real fixture in ../shared/fixtures.
const fixtureConv = cursortest.SampleID
const fixtureTitle = cursortest.SampleTitle

func newSandbox(t testing.TB) *sandbox {
	t.Helper()
	bin := binPath
	root := t.TempDir()
	sb := &sandbox{t: t, root: root, home: filepath.Join(root, "home")}
	bindir := filepath.Join(root, "bin")
	for _, d := range []string{sb.home, bindir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"git-convo", "git-convo-mcp"} {
		if err := os.Symlink(filepath.Join(filepath.Dir(bin), name), filepath.Join(bindir, name)); err != nil {
			t.Fatal(err)
		}
	}
	gitconfig := filepath.Join(root, "gitconfig")
	os.WriteFile(gitconfig, []byte("[user]\n\tname = Ada Tester\n\temail = ada@example.com\n[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n"), 0o644)
	sb.linksDB = filepath.Join(root, "links.sqlite")
	sb.cursorDB = filepath.Join(sb.home, ".config", "Cursor", "User", "globalStorage", "state.vscdb")
	if err := cursortest.Write(sb.cursorDB, cursortest.Sample()); err != nil {
		t.Fatal(err)
	}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GIT_") || strings.HasPrefix(k, "CURSOR_") || k == "HOME" || k == "PATH" || k == "XDG_CONFIG_HOME" || k == "XDG_DATA_HOME" || k == "NO_COLOR" {
			continue
		}
		sb.env = append(sb.env, kv)
	}
	sb.env = append(sb.env,
		"HOME="+sb.home,
		"XDG_CONFIG_HOME="+filepath.Join(sb.home, ".config"),
		"XDG_DATA_HOME="+filepath.Join(sb.home, ".local", "share"),
		"GIT_CONFIG_GLOBAL="+gitconfig,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONVO_DB="+sb.linksDB,
		"CURSOR_DB_PATH="+sb.cursorDB,
		// Hooks record in the foreground: a capture is in links.sqlite when
		// it returns. Tests of the spool and the queue opt out (sb.with).
		"GIT_CONVO_SYNC=1",
		"PATH="+bindir+string(os.PathListSeparator)+os.Getenv("PATH"),
		"GIT_PAGER=cat",
		"NO_COLOR=1",
	)
	return sb
}

// with returns the sandbox's environment with variables replaced or added.
func (sb *sandbox) with(kvs ...string) []string {
	out := append([]string{}, sb.env...)
	for _, kv := range kvs {
		k, _, _ := strings.Cut(kv, "=")
		for i, old := range out {
			if strings.HasPrefix(old, k+"=") {
				out = append(out[:i], out[i+1:]...)
				break
			}
		}
		out = append(out, kv)
	}
	return out
}

type result struct {
	stdout, stderr string
	code           int
	peakRSS        int64 // of it and the children it waited for (runBounded on Linux; else -1)
}

func (sb *sandbox) runEnv(dir string, env []string, stdin string, args ...string) result {
	sb.t.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir, cmd.Env = dir, env
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := result{stdout: out.String(), stderr: errb.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		sb.t.Fatalf("%v: %v", args, err)
	}
	return r
}

// run runs a command in dir and fails the test if it fails.
func (sb *sandbox) run(dir string, args ...string) string {
	sb.t.Helper()
	r := sb.runEnv(dir, sb.env, "", args...)
	if r.code != 0 {
		sb.t.Fatalf("%s exited %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
	}
	return r.stdout
}

func (sb *sandbox) convo(dir string, args ...string) string {
	sb.t.Helper()
	return sb.run(dir, append([]string{"git", "convo"}, args...)...)
}

// repo makes a repository with one commit.
func (sb *sandbox) repo(name string) string {
	sb.t.Helper()
	dir := filepath.Join(sb.root, name)
	os.MkdirAll(dir, 0o755)
	sb.run(dir, "git", "init", "-q")
	sb.write(dir, "README.md", "# demo\n")
	sb.run(dir, "git", "add", "-A")
	sb.run(dir, "git", "commit", "-q", "-m", "initial")
	return dir
}

func (sb *sandbox) write(repo, rel, body string) string {
	sb.t.Helper()
	p := filepath.Join(repo, rel)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		sb.t.Fatal(err)
	}
	return p
}

func (sb *sandbox) commit(repo, msg string, paths ...string) string {
	sb.t.Helper()
	sb.run(repo, append([]string{"git", "add", "--"}, paths...)...)
	sb.run(repo, "git", "commit", "-q", "-m", msg)
	return strings.TrimSpace(sb.run(repo, "git", "rev-parse", "HEAD"))
}

// capture sends one hook payload for conv through `git convo capture`.
func (sb *sandbox) capture(repo, conv, event string, fields map[string]any) string {
	sb.t.Helper()
	payload := map[string]any{"conversation_id": conv, "generation_id": "gen-1", "hook_event_name": event,
		"workspace_roots": []string{repo}, "model": "gpt-5", "cursor_version": "2.5.26", "user_email": nil, "transcript_path": nil}
	for k, v := range fields {
		payload[k] = v
	}
	body, _ := json.Marshal(payload)
	r := sb.runEnv(repo, sb.env, string(body), "git", "convo", "capture")
	if r.code != 0 {
		sb.t.Fatalf("capture %s exited %d: %s", event, r.code, r.stderr)
	}
	return r.stdout
}

// agentEdit is a prompt, an edit of rel and a stop, as Cursor's agent sends them.
func (sb *sandbox) agentEdit(repo, conv, rel, body string) {
	sb.t.Helper()
	sb.capture(repo, conv, "beforeSubmitPrompt", map[string]any{"prompt": "please write " + rel})
	p := sb.write(repo, rel, body)
	sb.capture(repo, conv, "afterFileEdit", map[string]any{"file_path": p, "edits": []map[string]string{{"old_string": "", "new_string": body}}})
	sb.capture(repo, conv, "stop", map[string]any{"status": "completed", "loop_count": 0})
}

func (sb *sandbox) showJSON(repo, rev string) showJSON {
	sb.t.Helper()
	var out showJSON
	if err := json.Unmarshal([]byte(sb.convo(repo, "show", "--json", rev)), &out); err != nil {
		sb.t.Fatal(err)
	}
	return out
}

func convIDs(s showJSON) []string {
	var ids []string
	for _, c := range s.Conversations {
		ids = append(ids, c.ID)
	}
	return ids
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func skipOnWindows(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX hooks")
	}
}
