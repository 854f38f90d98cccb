package cli

// Terminal tests: git convo and git itself run on a real pseudo-terminal
// (util-linux's script), with the same settings, and print the same
// decorations, colors and pager choices.

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// shQuote quotes s for sh.
func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// ttyEnv is the sandbox's environment for a terminal: no NO_COLOR, no
// GIT_PAGER (the tests choose the pager), TERM set, plus kvs.
func (sb *sandbox) ttyEnv(kvs ...string) []string {
	var env []string
	for _, kv := range sb.env {
		k, _, _ := strings.Cut(kv, "=")
		if k != "NO_COLOR" && k != "GIT_PAGER" && k != "TERM" && k != "PAGER" && k != "LESS" {
			env = append(env, kv)
		}
	}
	return append(append(env, "TERM=xterm"), kvs...)
}

// needScript skips the test without util-linux's script (a clone on a
// machine without it still passes).
func needScript(t *testing.T) {
	t.Helper()
	skipOnWindows(t)
	if _, err := exec.LookPath("script"); err != nil {
		t.Skip("script (util-linux) is not installed: no pseudo-terminal to test on (apt-get install bsdutils)")
	}
	if err := exec.Command("script", "-qec", "true", "/dev/null").Run(); err != nil {
		t.Skipf("script is not util-linux's (script -qec: %v)", err)
	}
}

// ttyShell runs the shell command line on a pseudo-terminal in dir and returns
// what the terminal showed, lines without the terminal's "\r" nor the
// reset git writes at the end of a line it paged.
func (sb *sandbox) ttyShell(dir string, env []string, cmdline string) string {
	sb.t.Helper()
	cmd := exec.Command("script", "-qec", cmdline, "/dev/null")
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		sb.t.Fatalf("%s: %v\n%s", cmdline, err, out)
	}
	return ttyLines(string(out))
}

func ttyLines(s string) string {
	lines := strings.Split(strings.ReplaceAll(s, "\r", ""), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\x1b[m")
	}
	return strings.Join(lines, "\n")
}

// decoratedRepo is a history with every kind of decoration: HEAD on a
// branch, another branch, light and annotated tags, a remote branch and
// a stash.
func decoratedRepo(sb *sandbox) string {
	dir := sb.repo("deco")
	sb.convo(dir, "install", "--cursor=none") // commits are recorded: no hint that nothing is
	sb.run(dir, "git", "tag", "v1")
	sb.run(dir, "git", "tag", "-a", "v2", "-m", "annotated")
	sb.run(dir, "git", "branch", "topic")
	sb.write(dir, "a.txt", "a\n")
	sb.commit(dir, "second", "a.txt")
	sb.run(dir, "git", "update-ref", "refs/remotes/origin/main", "HEAD~1")
	sb.write(dir, "a.txt", "changed\n")
	sb.run(dir, "git", "stash", "-q")
	sb.write(dir, "b.txt", "b\n")
	sb.commit(dir, "third", "b.txt")
	return dir
}

// TestTerminalLogOnelineAsGit: on a terminal, in git's pager and on a pipe,
// git convo log --oneline shows the lines git log --oneline shows (nothing
// is linked here), decorations and their colors included, for every
// decoration and color setting.
func TestTerminalLogOnelineAsGit(t *testing.T) {
	needScript(t)
	sb := newSandbox(t)
	dir := decoratedRepo(sb)
	env := sb.ttyEnv("GIT_PAGER=cat")
	tests := []struct{ git, args string }{
		{"", ""},
		{"-c log.decorate=no", ""},
		{"-c log.decorate=false", ""},
		{"-c log.decorate", ""},
		{"-c log.decorate=full", ""},
		{"-c log.decorate=short", "--decorate=full"},
		{"-c log.decorate=no", "--decorate"},
		{"-c log.decorate=no", "--decorate=auto"},
		{"-c log.decorate=bogus", ""},
		{"", "--no-decorate"},
		{"", "--decorate=no"},
		{"", "--decorate=short --no-decorate --decorate"},
		{"", "--decorate-refs=tags"},
		{"", "--decorate-refs-exclude=refs/remotes --decorate-refs-exclude=refs/stash"},
		{"", "--clear-decorations"},
		{"-c log.excludeDecoration=refs/tags", ""},
		{"-c log.initialDecorationSet=all", ""},
		{"-c color.ui=never", ""},
		{"-c color.ui=never -c color.convo=always", ""},
		{"-c color.convo=never -c color.diff=never", ""},
		{"-c color.diff.commit='bold #ff8000' -c color.decorate.branch=blue -c color.decorate.remoteBranch='ul red'", ""},
		{"-c color.decorate.tag=208 -c color.decorate.HEAD='reverse cyan' -c color.decorate.stash=nobold", ""},
		{"-c color.diff.commit=normal", ""},
	}
	for _, tt := range tests {
		// color.convo is ours: git's line is colored as git's log
		// colors it (color.diff, color.ui), whatever color.convo says.
		gitCfg := tt.git
		for _, where := range []string{"terminal", "pager", "pipe"} {
			run := func(cfg, cmd string) string {
				line := "git " + cfg + " " + cmd + " --oneline " + tt.args
				switch where {
				case "pager": // git's pager runs, git-convo writes to it
					line = "git -c core.pager='sed s/^/P:/' " + cfg + " -p " + cmd + " --oneline " + tt.args
				case "pipe":
					line += " | cat"
				}
				return sb.ttyShell(dir, env, line)
			}
			want, got := run(gitCfg, "log"), run(tt.git, "convo log")
			if got != want {
				t.Errorf("%s, %s %s:\ngit log shows\n%q\ngit convo log shows\n%q", where, tt.git, tt.args, want, got)
			}
		}
	}
}

// TestTerminalPagerAsGit: git convo pages as git does: core.pager and
// GIT_PAGER, git --no-pager and pager.convo=false (git says GIT_PAGER=cat),
// --no-pager, LESS=FRX unless LESS is set, and output colored in the pager
// unless color.pager is false.
func TestTerminalPagerAsGit(t *testing.T) {
	needScript(t)
	sb := newSandbox(t)
	dir := decoratedRepo(sb)
	pager := "-c core.pager='sed s/^/P:/'"
	tests := []struct {
		name, env, git, args string
		paged                bool
	}{
		{"core.pager", "", pager, "", true},
		{"GIT_PAGER beats core.pager", "GIT_PAGER='sed s/^/P:/'", "-c core.pager=false", "", true},
		{"git --no-pager", "", pager + " --no-pager", "", false},
		{"--no-pager", "", pager, "--no-pager", false},
		{"pager.convo=false", "", pager + " -c pager.convo=false -c pager.log=false", "", false},
		{"pager.convo=true", "", pager + " -c pager.convo=true -c pager.log=true", "", true},
		{"git -p", "", pager + " -p", "", true},
		{"color.pager=false", "", pager + " -c color.pager=false", "", true},
		{"TERM=dumb", "TERM=dumb", pager, "", true},
		{"PAGER", "PAGER='sed s/^/P:/'", "", "", true},
		{"GIT_PAGER set empty", "GIT_PAGER=", pager, "", false},
		{"core.pager set empty", "PAGER='sed s/^/P:/'", "-c core.pager=", "", false},
		{"PAGER set empty", "PAGER=", "", "", false},
	}
	for _, tt := range tests {
		run := func(git, cmd, args string) string {
			return sb.ttyShell(dir, sb.ttyEnv(), tt.env+" git "+git+" "+cmd+" --oneline "+args)
		}
		got := run(tt.git, "convo log", tt.args)
		gitGit, gitArgs := tt.git, tt.args
		if tt.args == "--no-pager" { // git log has no --no-pager of its own
			gitGit, gitArgs = tt.git+" --no-pager", ""
		}
		want := run(gitGit, "log", gitArgs)
		if strings.HasPrefix(got, "P:") != tt.paged {
			t.Errorf("%s: paged %v, want %v:\n%q", tt.name, !tt.paged, tt.paged, got)
		}
		if got != want {
			t.Errorf("%s:\ngit log shows\n%q\ngit convo log shows\n%q", tt.name, want, got)
		}
	}
	// The pager gets LESS=FRX and LV=-c as git's does, unless set (even empty).
	for _, tt := range []struct{ env, want string }{{"", "[FRX] [-c]"}, {"LESS=X LV=-x", "[X] [-x]"}, {"LESS= LV=", "[] []"}} {
		got := sb.ttyShell(dir, sb.ttyEnv(), tt.env+` git -c core.pager='echo "[$LESS] [$LV]"; cat >/dev/null' convo log`)
		if strings.TrimSpace(got) != tt.want {
			t.Errorf("pager environment with %q: %q, want %q", tt.env, got, tt.want)
		}
	}
}

// TestTerminalNoColor: NO_COLOR turns git convo's color off (git itself
// ignores it); --color=always still wins.
func TestTerminalNoColor(t *testing.T) {
	needScript(t)
	sb := newSandbox(t)
	dir := decoratedRepo(sb)
	env := sb.ttyEnv("GIT_PAGER=cat", "NO_COLOR=1")
	if got := sb.ttyShell(dir, env, "git convo log --oneline"); strings.Contains(got, "\x1b[") || !strings.Contains(got, "(HEAD -> main)") {
		t.Errorf("NO_COLOR on a terminal: %q", got)
	}
	if got := sb.ttyShell(dir, env, "git convo log --oneline --color=always"); !strings.Contains(got, "\x1b[33m") {
		t.Errorf("NO_COLOR with --color=always: %q", got)
	}
}

// Keep the helpers honest: a pseudo-terminal is a terminal.
func TestOnTTYIsATerminal(t *testing.T) {
	needScript(t)
	sb := newSandbox(t)
	dir := t.TempDir()
	if got := sb.ttyShell(dir, sb.ttyEnv(), "test -t 1 && echo tty"); got != "tty\n" {
		t.Errorf("script gave no terminal: %q", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "typescript")); err == nil {
		t.Error("script wrote a typescript file")
	}
}

// TestTerminalShowAsGit: on a terminal, git convo show's commit line is git
// show's, decorations and colors included, whether git-convo reads the
// commit itself (settings in the repository's config) or asks git (-c).
func TestTerminalShowAsGit(t *testing.T) {
	needScript(t)
	sb := newSandbox(t)
	dir := decoratedRepo(sb)
	env := sb.ttyEnv("GIT_PAGER=cat")
	commitLines := func(out string) string {
		var keep []string
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(stripANSI(l), "commit ") || strings.HasPrefix(stripANSI(l), "tag ") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	settings := [][]string{
		nil,
		{"color.diff.commit", "bold #ff8000", "color.decorate.branch", "blue", "color.decorate.remoteBranch", "ul red",
			"color.decorate.tag", "208", "color.decorate.HEAD", "reverse cyan"},
		{"log.decorate", "full"},
		{"log.decorate", "no"},
		{"color.ui", "never"},
	}
	for _, kv := range settings {
		for _, viaFile := range []bool{true, false} {
			cfg := ""
			for i := 0; i < len(kv); i += 2 {
				if viaFile {
					sb.run(dir, "git", "config", kv[i], kv[i+1])
				} else {
					cfg += " -c " + shQuote(kv[i]+"="+kv[i+1])
				}
			}
			for _, rev := range []string{"", "HEAD~1", "HEAD~2", "v2", "HEAD~1 HEAD"} {
				want := commitLines(sb.ttyShell(dir, env, "git"+cfg+" show --no-patch "+rev))
				got := commitLines(sb.ttyShell(dir, env, "git"+cfg+" convo show "+rev))
				if got != want {
					t.Errorf("%q (in the config file %v), show %s:\ngit\n%q\ngit convo\n%q", kv, viaFile, rev, want, got)
				}
			}
			for i := 0; viaFile && i < len(kv); i += 2 {
				sb.run(dir, "git", "config", "--unset", kv[i])
			}
		}
	}
}

// sgr matches a color escape (ESC [ ... m).
var sgr = regexp.MustCompile("\x1b\\[[0-9;]*m")

// stripANSI drops color escapes.
func stripANSI(s string) string { return sgr.ReplaceAllString(s, "") }
