package cli

import (
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
