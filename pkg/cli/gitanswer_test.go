package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// bothPaths are the environments a read command is held to git's answer
// in: the in-process readers, and git for everything
// (GIT_CONVO_READ_WITH_GIT=1).
func bothPaths(env []string) map[string][]string {
	return map[string][]string{
		"in process": env,
		"with git":   append(env[:len(env):len(env)], "GIT_CONVO_READ_WITH_GIT=1"),
	}
}

// answerRepo is a small history: a branch, a side branch, a tag whose name
// is also an abbreviated hash.
func answerRepo(t *testing.T, sb *sandbox) string {
	t.Helper()
	repo := sb.repo("answer")
	sb.write(repo, "f.txt", "one\n")
	sb.commit(repo, "second", "f.txt")
	sb.run(repo, "git", "checkout", "-q", "-b", "side", "HEAD~1")
	sb.write(repo, "g.txt", "side\n")
	sb.commit(repo, "on side", "g.txt")
	sb.run(repo, "git", "checkout", "-q", "main")
	sb.write(repo, "f.txt", "one\ntwo\n")
	sb.commit(repo, "third", "f.txt")
	return repo
}

// TestErrorsAreGits: a git that fails speaks for itself, exit code and
// stderr as git's; a git that warns is heard.
func TestErrorsAreGits(t *testing.T) {
	sb := newSandbox(t)
	repo := answerRepo(t, sb)
	short := strings.TrimSpace(sb.run(repo, "git", "rev-parse", "--short", "HEAD~1"))
	sb.run(repo, "git", "tag", short, "HEAD") // a name git warns is ambiguous
	for path, env := range bothPaths(sb.env) {
		for _, c := range []struct{ convo, git []string }{
			{[]string{"show", "nope"}, []string{"show", "--no-patch", "nope"}},
			{[]string{"show", short}, []string{"show", "--no-patch", short}},
			{[]string{"log", "nope.."}, []string{"log", "nope.."}},
			{[]string{"log", "-1", short}, []string{"log", "-1", short}},
			{[]string{"blame", "nofile"}, []string{"blame", "nofile"}},
		} {
			got := sb.runEnv(repo, env, "", append([]string{"git", "convo"}, c.convo...)...)
			want := sb.runEnv(repo, env, "", append([]string{"git"}, c.git...)...)
			if got.code != want.code || got.stderr != want.stderr {
				t.Errorf("%s, %q: exit %d %q; git exit %d %q", path, c.convo, got.code, got.stderr, want.code, want.stderr)
			}
		}
	}
}

// TestLogOnelineIsGitsLine: log --oneline prints git's own line, colored
// once, with every part git's options add.
func TestLogOnelineIsGitsLine(t *testing.T) {
	sb := newSandbox(t)
	repo := answerRepo(t, sb)
	for path, env := range bothPaths(sb.env) {
		for _, args := range [][]string{
			{"-n3"},
			{"--decorate", "-n3"},
			{"--left-right", "main...side"},
			{"--boundary", "HEAD~1..HEAD"},
			{"--cherry-mark", "main...side"},
			{"--source", "--all"},
			{"--no-abbrev-commit", "-2"},
			{"--no-abbrev-commit", "--abbrev-commit", "-2"},
			{"--name-only", "-3"},
		} {
			for _, color := range []string{"never", "always"} {
				a := append([]string{"log", "--oneline", "--color=" + color}, args...)
				got := sb.runEnv(repo, env, "", append([]string{"git", "convo"}, a...)...)
				want := sb.runEnv(repo, env, "", append([]string{"git"}, a...)...)
				if got.code != 0 || got.stdout != want.stdout {
					t.Errorf("%s, %q: exit %d\n%q\ngit\n%q", path, a, got.code, got.stdout, want.stdout)
				}
			}
		}
	}
}

// TestShowHeaderIsGits: show's header is git show --no-patch's, notes
// and color as git decides them (color.diff before color.ui).
func TestShowHeaderIsGits(t *testing.T) {
	sb := newSandbox(t)
	repo := answerRepo(t, sb)
	sb.run(repo, "git", "notes", "add", "-m", "a note git shows", "HEAD")
	var plain []string // NO_COLOR, which git ignores, turns ours off too
	for _, kv := range sb.env {
		if !strings.HasPrefix(kv, "NO_COLOR=") {
			plain = append(plain, kv)
		}
	}
	for _, cfg := range []string{"", "color.diff=always", "color.ui=always", "color.ui=always color.diff=never"} {
		env := plain
		for i, kv := range strings.Fields(cfg) {
			k, v, _ := strings.Cut(kv, "=")
			env = append(env[:len(env):len(env)], "GIT_CONFIG_COUNT="+string(rune('0'+i+1)),
				"GIT_CONFIG_KEY_"+string(rune('0'+i))+"="+k, "GIT_CONFIG_VALUE_"+string(rune('0'+i))+"="+v)
		}
		for path, env := range bothPaths(env) {
			for _, rev := range []string{"HEAD", "HEAD~1"} {
				got := sb.runEnv(repo, env, "", "git", "convo", "show", rev)
				want := sb.runEnv(repo, env, "", "git", "show", "--no-patch", rev)
				if got.code != 0 || !strings.HasPrefix(got.stdout, want.stdout+"\n") {
					t.Errorf("%s, %s, %s: exit %d\n%q\ngit\n%q", cfg, path, rev, got.code, got.stdout, want.stdout)
				}
			}
		}
	}
}

// TestShowHeaderDumbTerminal: on a terminal with TERM unset git colors
// nothing: neither does show's header.
func TestShowHeaderDumbTerminal(t *testing.T) {
	needScript(t)
	sb := newSandbox(t)
	repo := answerRepo(t, sb)
	var env []string
	for _, kv := range sb.ttyEnv("GIT_PAGER=cat") {
		if !strings.HasPrefix(kv, "TERM=") {
			env = append(env, kv)
		}
	}
	want := strings.SplitN(sb.ttyShell(repo, env, "git show --no-patch HEAD"), "\n", 2)[0]
	if strings.Contains(want, "\x1b[") {
		t.Fatalf("git colored with TERM unset: %q", want)
	}
	for path, env := range bothPaths(env) {
		if got := strings.SplitN(sb.ttyShell(repo, env, "git convo show HEAD"), "\n", 2)[0]; got != want {
			t.Errorf("%s: %q, git %q", path, got, want)
		}
	}
}

// TestDubiousOwnershipIsRefused: a repository git refuses for its owner
// (GIT_TEST_ASSUME_DIFFERENT_OWNER makes git, and git-convo, take it for
// someone else's) is refused as git refuses it, before its pager runs; with
// safe.directory it is read.
func TestDubiousOwnershipIsRefused(t *testing.T) {
	sb := newSandbox(t)
	repo := answerRepo(t, sb)
	marker := filepath.Join(sb.root, "pager-ran")
	sb.run(repo, "git", "config", "core.pager", "touch "+shQuote(marker)+"; cat")
	var base []string
	for _, kv := range sb.env {
		if !strings.HasPrefix(kv, "GIT_PAGER=") {
			base = append(base, kv)
		}
	}
	base = append(base, "GIT_TEST_ASSUME_DIFFERENT_OWNER=1")
	for path, env := range bothPaths(base) {
		for _, args := range [][]string{{"show"}, {"log"}, {"blame", "f.txt"}} {
			got := sb.runEnv(repo, env, "", append([]string{"git", "convo"}, args...)...)
			git := []string{"git", args[0]}
			if args[0] == "show" {
				git = append(git, "--no-patch")
			}
			want := sb.runEnv(repo, env, "", append(git, args[1:]...)...)
			if want.code != 128 || got.code != want.code || got.stderr != want.stderr || got.stdout != "" {
				t.Errorf("%s, %q: exit %d %q %q; git exit %d %q", path, args, got.code, got.stdout, got.stderr, want.code, want.stderr)
			}
		}
		trusted := append(env[:len(env):len(env)], "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=safe.directory", "GIT_CONFIG_VALUE_0=*")
		if r := sb.runEnv(repo, trusted, "", "git", "convo", "show", "--no-pager"); r.code != 0 || !strings.Contains(r.stdout, "third") {
			t.Errorf("%s, safe.directory=*: exit %d %q %q", path, r.code, r.stdout, r.stderr)
		}
	}
	if _, err := exec.LookPath("script"); err == nil && runtime.GOOS != "windows" {
		// On a terminal, where a pager would run: none does.
		env := append(sb.ttyEnv(), "GIT_TEST_ASSUME_DIFFERENT_OWNER=1")
		for path, env := range bothPaths(env) {
			for _, cmd := range []string{"git convo log", "git convo show", "git convo blame f.txt"} {
				out := sb.ttyShell(repo, env, cmd+"; echo rc=$?")
				if !strings.Contains(out, "dubious ownership") || !strings.Contains(out, "rc=128") {
					t.Errorf("%s, %s on a terminal: %q", path, cmd, out)
				}
			}
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the untrusted repository's core.pager ran")
	}
}

// TestBlameHashColumnAsGit: the hash column is as wide as git blame's,
// boundary lines included, for every core.abbrev.
func TestBlameHashColumnAsGit(t *testing.T) {
	sb := newSandbox(t)
	repo := answerRepo(t, sb)
	column := func(out string) []string {
		var col []string
		for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			h, _, _ := strings.Cut(l, " ")
			col = append(col, h)
		}
		return col
	}
	for _, abbrev := range []string{"4", "5", "6", "7", "12", "no", "40"} {
		env := append(sb.env[:len(sb.env):len(sb.env)], "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=core.abbrev", "GIT_CONFIG_VALUE_0="+abbrev)
		for path, env := range bothPaths(env) {
			for _, rev := range [][]string{nil, {"HEAD~1.."}} {
				args := append(append([]string{"blame"}, rev...), "--", "f.txt")
				got := sb.runEnv(repo, env, "", append([]string{"git", "convo"}, args...)...)
				want := sb.runEnv(repo, env, "", append([]string{"git"}, args...)...)
				if g, w := strings.Join(column(got.stdout), " "), strings.Join(column(want.stdout), " "); got.code != 0 || g != w {
					t.Errorf("core.abbrev=%s, %s, %q: %q, git %q", abbrev, path, rev, g, w)
				}
			}
		}
	}
}

// TestShowOddRepositoriesAsGit: on repositories git reads otherwise than
// the obvious way, or refuses, show answers as git show --no-patch, both
// in process and with git: the same exit code and stderr, git's header.
func TestShowOddRepositoriesAsGit(t *testing.T) {
	sb := newSandbox(t)
	for _, c := range []struct {
		name  string
		setup func(repo string) string // returns the revision to show
	}{
		{"loose ref without a space over a stale packed one", func(repo string) string {
			sb.run(repo, "git", "branch", "topic", "HEAD~1")
			sb.run(repo, "git", "pack-refs", "--all")
			sb.write(repo, ".git/refs/heads/topic", "ref:refs/heads/main\n")
			return "topic"
		}},
		{"empty loose ref", func(repo string) string {
			sb.run(repo, "git", "branch", "topic", "HEAD~1")
			sb.run(repo, "git", "pack-refs", "--all")
			sb.write(repo, ".git/refs/heads/topic", "")
			return "topic"
		}},
		{"HEAD a symlink out of the repository", func(repo string) string {
			head := strings.TrimSpace(sb.run(repo, "git", "rev-parse", "HEAD"))
			out := sb.write(sb.root, "outside/HEAD", head+"\n")
			os.Remove(filepath.Join(repo, ".git", "HEAD"))
			if err := os.Symlink(out, filepath.Join(repo, ".git", "HEAD")); err != nil {
				t.Skip(err)
			}
			return "HEAD"
		}},
		{"packed-refs garbage line", func(repo string) string {
			sb.run(repo, "git", "pack-refs", "--all")
			p := filepath.Join(repo, ".git", "packed-refs")
			b, _ := os.ReadFile(p)
			os.WriteFile(p, append(b, "garbage\n"...), 0o644)
			return "main"
		}},
		{"missing tree", func(repo string) string {
			cmd := exec.Command("git", "hash-object", "-t", "commit", "-w", "--literally", "--stdin")
			cmd.Dir, cmd.Env = repo, sb.env
			cmd.Stdin = strings.NewReader("tree " + strings.Repeat("2", 40) + "\nauthor A <a@b> 1700000000 +0000\ncommitter C <c@d> 1 +0000\n\nno tree\n")
			out, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			return strings.TrimSpace(string(out))
		}},
		{"missing second parent", func(repo string) string {
			cmd := exec.Command("git", "hash-object", "-t", "commit", "-w", "--literally", "--stdin")
			cmd.Dir, cmd.Env = repo, sb.env
			tree := strings.TrimSpace(sb.run(repo, "git", "rev-parse", "HEAD^{tree}"))
			head := strings.TrimSpace(sb.run(repo, "git", "rev-parse", "HEAD"))
			cmd.Stdin = strings.NewReader("tree " + tree + "\nparent " + head + "\nparent " + strings.Repeat("1", 40) +
				"\nauthor A <a@b> 1700000000 +0000\ncommitter C <c@d> 1 +0000\n\nmerge\n")
			out, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			return strings.TrimSpace(string(out))
		}},
		{"notes", func(repo string) string {
			sb.run(repo, "git", "notes", "add", "-m", "a note", "HEAD")
			return "HEAD"
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			repo := sb.repo(strings.ReplaceAll(c.name, " ", "-"))
			sb.write(repo, "f.txt", "1\n")
			sb.commit(repo, "second", "f.txt")
			rev := c.setup(repo)
			want := sb.runEnv(repo, sb.env, "", "git", "show", "--no-patch", rev)
			for path, env := range bothPaths(sb.env) {
				got := sb.runEnv(repo, env, "", "git", "convo", "show", rev)
				if got.code != want.code || got.stderr != want.stderr || !strings.HasPrefix(got.stdout, want.stdout) ||
					got.code != 0 && got.stdout != want.stdout {
					t.Errorf("%s: exit %d %q %q\ngit: exit %d %q %q", path, got.code, got.stdout, got.stderr, want.code, want.stdout, want.stderr)
				}
			}
		})
	}
}

// TestLogPagesNothingGitRefuses: on a terminal, a revision git refuses
// starts no pager, as with git log itself; commits do.
func TestLogPagesNothingGitRefuses(t *testing.T) {
	needScript(t)
	sb := newSandbox(t)
	repo := answerRepo(t, sb)
	marker := filepath.Join(sb.root, "paged")
	env := sb.ttyEnv("GIT_PAGER=touch " + shQuote(marker) + "; cat")
	for _, c := range []struct {
		cmd   string
		paged bool
	}{{"git log nope..", false}, {"git convo log nope..", false}, {"git log -1", true}, {"git convo log -1", true}} {
		os.Remove(marker)
		out := sb.ttyShell(repo, env, c.cmd+"; echo rc=$?")
		if _, err := os.Stat(marker); (err == nil) != c.paged {
			t.Errorf("%s: paged %v, want %v\n%s", c.cmd, err == nil, c.paged, out)
		}
	}
}
