package cli

import (
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/notes"
)

// After install, with sharing off (so refs/notes/convo does not exist), a
// real amend and rebase print nothing on stderr; once the clone shares,
// notes follow the rewritten commits (TestShareNotesFollowAmendAndRebase).
func TestRewriteAfterInstallIsQuiet(t *testing.T) {
	_, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	a.run(a.dir, "git", "config", "notes.rewriteRef", notes.Ref) // an older install's value goes
	a.convo(a.dir, "install", "--cursor=none")
	if got := strings.TrimSpace(a.run(a.dir, "git", "config", "--get-all", "notes.rewriteRef")); got != notes.RewriteRef {
		t.Fatalf("notes.rewriteRef after a re-install: %q", got)
	}
	a.write(a.dir, "x.txt", "x\n")
	a.commit(a.dir, "x", "x.txt")
	a.write(a.dir, "y.txt", "y\n")
	a.commit(a.dir, "y", "y.txt")
	quiet := func(args ...string) {
		t.Helper()
		r := a.runEnv(a.dir, a.with("GIT_EDITOR=true", "GIT_SEQUENCE_EDITOR=true"), "", args...)
		if r.code != 0 || r.stderr != "" {
			t.Errorf("%s: exit %d, stderr %q", strings.Join(args, " "), r.code, r.stderr)
		}
	}
	quiet("git", "commit", "-q", "--amend", "-m", "y, amended")
	quiet("git", "rebase", "-q", "--force-rebase", "HEAD~2")
	quiet("git", "rebase", "-q", "-i", "HEAD~2")
	if hasRef(a.sandbox, a.dir+"/.git", notes.Ref) {
		t.Errorf("a clone that does not share has %s", notes.Ref)
	}
}

// TestUsageLineNamesEveryFlag: a command's USAGE line (UsageText) names
// every option its --help lists, as the README's table does (the read
// options every read command takes are left out there too, and so are the
// git options log and blame shape their lines with: "<git log options>").
func TestUsageLineNamesEveryFlag(t *testing.T) {
	common := map[string]bool{"help": true, "json": true, "color": true, "no-color": true, "no-pager": true}
	for _, cmd := range newApp(SystemEnv()).Commands {
		if cmd.Hidden || cmd.UsageText == "" || strings.Contains(cmd.UsageText, " options>") {
			continue
		}
		for _, f := range cmd.Flags {
			if v, ok := f.(cli.VisibleFlag); ok && !v.IsVisible() {
				continue
			}
			names := f.Names()
			if common[names[0]] {
				continue
			}
			found := false
			for _, n := range names {
				dash := "--"
				if len(n) == 1 {
					dash = "-"
				}
				found = found || strings.Contains(cmd.UsageText, dash+n)
			}
			if !found {
				t.Errorf("%s's USAGE line does not name --%s: %s", cmd.Name, names[0], cmd.UsageText)
			}
		}
	}
}
