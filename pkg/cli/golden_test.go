package cli

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// goldenSandbox builds a fully reproducible story: fixed clock, fixed commit
// dates, fixed ids, so every byte of output can be pinned.
func goldenSandbox(t *testing.T) (*sandbox, string) {
	sb := newSandbox(t)
	// The agent works at 08:50, the commits are made at 09:00, and the
	// output is read at 10:00.
	sb.env = append(sb.env, "TZ=UTC", "GIT_CONVO_NOW=2026-11-22T08:50:00Z",
		"GIT_AUTHOR_DATE=2026-11-22T09:00:00Z", "GIT_COMMITTER_DATE=2026-11-22T09:00:00Z")
	repo := sb.repo("project")
	sb.convo(repo, "install", "--cursor=none")
	// The fixture conversation writes two files; a second one edits one of them.
	sb.agentEdit(repo, fixtureConv, "src/query.rs", "fn one() {}\nfn two() {}\n")
	sb.capture(repo, "11111111-2222-3333-4444-555555555555", "beforeSubmitPrompt", map[string]any{"prompt": "Add a third function"})
	sb.commit(repo, "Add cursor queries", "src/query.rs")
	sb.write(repo, "docs/notes.md", "by hand\n")
	sb.commit(repo, "Notes written by hand", "docs/notes.md")
	sb.env = sb.with("GIT_CONVO_NOW=2026-11-22T10:00:00Z")
	return sb, repo
}

// checkGolden compares output with testdata/golden/name; the sandbox's
// temporary directory is written as <root>.
func checkGolden(t *testing.T, sb *sandbox, name, got string) {
	t.Helper()
	got = strings.ReplaceAll(got, sb.root, "<root>")
	path := filepath.Join("testdata", "golden", name)
	if *update {
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./pkg/cli -run Golden -update)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

// onTTY runs a command under a pseudo-terminal (util-linux script), as a
// person at a terminal would: color on by default, git's pager rules apply.
func (sb *sandbox) onTTY(dir string, env []string, args ...string) string {
	sb.t.Helper()
	if _, err := exec.LookPath("script"); err != nil {
		sb.t.Skip("no script(1) for a pseudo-terminal")
	}
	var quoted []string
	for _, a := range args {
		quoted = append(quoted, "'"+strings.ReplaceAll(a, "'", `'\''`)+"'")
	}
	cmd := exec.Command("script", "-qec", strings.Join(quoted, " "), "/dev/null")
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.Output()
	if err != nil {
		sb.t.Fatalf("%v on a TTY: %v\n%s", args, err, out)
	}
	return strings.ReplaceAll(string(out), "\r\n", "\n")
}

func TestGoldenOutput(t *testing.T) {
	skipOnWindows(t)
	sb, repo := goldenSandbox(t)
	piped := []struct {
		name string
		args []string
	}{
		{"show.txt", []string{"show", "HEAD~1"}},
		{"show-unlinked.txt", []string{"show"}},
		{"log.txt", []string{"log"}},
		{"log-only-linked.txt", []string{"log", "--only-linked"}},
		{"blame.txt", []string{"blame", "src/query.rs"}},
		{"blame-L.txt", []string{"blame", "-L", "2,2", "src/query.rs"}},
		{"conversations.txt", []string{"conversations"}},
		{"search.txt", []string{"search", "sqlite"}},
		{"show.json", []string{"show", "--json", "HEAD~1"}},
		{"log.json", []string{"log", "--json"}},
		{"blame.json", []string{"blame", "--json", "src/query.rs"}},
		{"conversations.json", []string{"conversations", "--json"}},
		{"show-color.txt", []string{"show", "--color=always", "HEAD~1"}},
		{"stats.txt", []string{"stats"}},
		{"stats.json", []string{"stats", "--json"}},
	}
	for _, tt := range piped {
		t.Run(tt.name, func(t *testing.T) {
			checkGolden(t, sb, tt.name, sb.convo(repo, tt.args...))
		})
	}
	// On a terminal: colors by default, unless NO_COLOR.
	var ttyEnv []string
	for _, kv := range sb.env {
		if !strings.HasPrefix(kv, "NO_COLOR=") && !strings.HasPrefix(kv, "TERM=") {
			ttyEnv = append(ttyEnv, kv)
		}
	}
	ttyEnv = append(ttyEnv, "TERM=xterm") // not the runner's: TERM=dumb turns color off, as git does
	for _, tt := range []struct{ name, cmd string }{{"show-tty.txt", "show"}, {"log-tty.txt", "log"}, {"blame-tty.txt", "blame"}} {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"git", "convo", tt.cmd}
			switch tt.cmd {
			case "show":
				args = append(args, "HEAD~1")
			case "blame":
				args = append(args, "src/query.rs")
			}
			out := sb.onTTY(repo, ttyEnv, args...)
			if !strings.Contains(out, "\x1b[") {
				t.Errorf("no color on a terminal:\n%s", out)
			}
			checkGolden(t, sb, tt.name, out)
			if plain := sb.onTTY(repo, append(ttyEnv, "NO_COLOR=1"), args...); strings.Contains(plain, "\x1b[") {
				t.Errorf("NO_COLOR ignored on a terminal:\n%s", plain)
			}
		})
	}
}

// TestPagerOnTTY checks git's pager rules: GIT_PAGER is used on a terminal,
// with LESS=FRX, and never when piped or with --no-pager.
func TestPagerOnTTY(t *testing.T) {
	skipOnWindows(t)
	sb, repo := goldenSandbox(t)
	mark := filepath.Join(sb.root, "paged")
	var env []string // LESS unset: git's pager gets LESS=FRX
	for _, kv := range sb.with("GIT_PAGER=cat > '" + mark + "'; echo \"LESS=$LESS\" >> '" + mark + "'") {
		if !strings.HasPrefix(kv, "LESS=") {
			env = append(env, kv)
		}
	}
	sb.onTTY(repo, env, "git", "convo", "log")
	got, err := os.ReadFile(mark)
	if err != nil || !strings.Contains(string(got), "Add cursor queries") || !strings.Contains(string(got), "LESS=FRX") {
		t.Fatalf("pager output: %q %v", got, err)
	}
	os.Remove(mark)
	sb.onTTY(repo, env, "git", "convo", "log", "--no-pager")
	sb.runEnv(repo, env, "", "git", "convo", "log")
	if _, err := os.Stat(mark); err == nil {
		t.Error("the pager ran with --no-pager or when piped")
	}
}
