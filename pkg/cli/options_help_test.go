package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHelpCommand: "git convo help" is the top-level help, as "git help" is,
// and "git convo help <command>" a command's.
func TestHelpCommand(t *testing.T) {
	sb := newSandbox(t)
	dir := sb.root
	if out := sb.convo(dir, "help"); !strings.Contains(out, "COMMANDS:") || !strings.Contains(out, "show ") {
		t.Errorf("git convo help:\n%s", out)
	}
	if out := sb.convo(dir, "help", "search"); !strings.Contains(out, "git convo search -") || !strings.Contains(out, "--since") {
		t.Errorf("git convo help search:\n%s", out)
	}
	if r := sb.runEnv(dir, sb.env, "", "git", "convo", "help", "nope"); r.code != ExitUsage || !strings.Contains(r.stderr, "'nope' is not a git-convo command") {
		t.Errorf("git convo help nope: exit %d %q", r.code, r.stderr)
	}
}

// TestReadCommandHelpListsOptions: the read commands that parse their own
// arguments list, under --help, every option they take for themselves; and
// every option listed is one their parser takes (none reaches git).
func TestReadCommandHelpListsOptions(t *testing.T) {
	sb := newSandbox(t)
	for _, tc := range []struct {
		cmd   string
		opts  []ownOption
		parse func([]string) ([]string, error)
	}{
		{"show", showOptionHelp(), func(a []string) ([]string, error) { ra, err := splitGitArgs(a, showSpec()); return ra.git, err }},
		{"log", logOptionHelp(), func(a []string) ([]string, error) { _, git, err := parseLogArgs(a); return git, err }},
		{"stats", statsOptionHelp(), func(a []string) ([]string, error) { _, git, err := parseLogArgs(a); return git, err }},
		{"blame", blameOptionHelp(), func(a []string) ([]string, error) { ra, err := splitGitArgs(a, blameSpec()); return ra.git, err }},
	} {
		help := sb.convo(sb.root, tc.cmd, "--help")
		_, opts, _ := strings.Cut(help, "OPTIONS:")
		for _, o := range tc.opts {
			for _, name := range o.names {
				if !strings.Contains(opts, name) {
					t.Errorf("%s --help does not list %s:\n%s", tc.cmd, name, opts)
				}
				if git, err := tc.parse([]string{name}); err != nil || len(git) != 0 {
					t.Errorf("%s %s: not taken by its parser (to git: %v, %v)", tc.cmd, name, git, err)
				}
			}
		}
		if !strings.Contains(opts, "--color=<when>") {
			t.Errorf("%s --help does not say --color takes a value:\n%s", tc.cmd, opts)
		}
	}
}

// TestInstallSummaryNamesAgents: install's closing lines name the agents
// whose hooks it wrote, and tell how each picks them up.
func TestInstallSummaryNamesAgents(t *testing.T) {
	skipOnWindows(t)
	for _, tc := range []struct {
		args        []string
		claude      bool
		want, avoid []string
	}{
		{[]string{"--cursor=none"}, true, []string{"Work with Claude Code and commit", "existing Claude Code history", "start a new session"}, []string{"Restart Cursor", "Cursor's agent"}},
		{[]string{"--cursor=project"}, true, []string{"Work with Cursor's agent or Claude Code", "Cursor and Claude Code history", "Restart Cursor", "start a new session"}, nil},
		{[]string{"--cursor=project"}, false, []string{"Work with Cursor's agent and commit", "Restart Cursor"}, []string{"Claude"}},
		{[]string{"--cursor=none"}, false, []string{"with no agent hooks", "--claude=user"}, []string{"Restart Cursor", "git convo import "}},
	} {
		sb := newSandbox(t)
		if tc.claude {
			if err := os.MkdirAll(filepath.Join(sb.home, ".claude"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		repo := sb.repo("project")
		out := sb.convo(repo, append([]string{"install"}, tc.args...)...)
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("install %v (Claude Code present: %v) lacks %q:\n%s", tc.args, tc.claude, w, out)
			}
		}
		for _, a := range tc.avoid {
			if strings.Contains(out, a) {
				t.Errorf("install %v (Claude Code present: %v) says %q:\n%s", tc.args, tc.claude, a, out)
			}
		}
	}
}
