package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGitHooksRoundTrip: install writes the commit hooks' block (not
// pre-push: the repository does not share), doctor finds each well, and
// uninstall takes every block out, on a real repository's hook files.
func TestGitHooksRoundTrip(t *testing.T) {
	ctx := context.Background()
	a, repo, _ := testRepo(t)
	exe := filepath.Join(t.TempDir(), "git-convo")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	done, err := a.InstallGitHooks(ctx, repo, exe, false, false)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, h := range done {
		names = append(names, filepath.Base(h.Path))
		b, err := os.ReadFile(h.Path)
		if err != nil || !strings.Contains(string(b), exe) {
			t.Errorf("%s: %v, no block naming %s:\n%s", h.Path, err, exe, b)
		}
	}
	if got := strings.Join(names, " "); got != "post-commit post-merge post-rewrite" {
		t.Errorf("installed %q", got)
	}
	health := a.GitHooksHealth(ctx, repo, exe)
	if len(health) != 3 {
		t.Fatalf("findings %+v", health)
	}
	for _, f := range health {
		if !f.OK || f.Warn {
			t.Errorf("finding %+v, want well", f)
		}
	}
	if _, err := a.UninstallGitHooks(ctx, repo, false); err != nil {
		t.Fatal(err)
	}
	for _, f := range a.GitHooksHealth(ctx, repo, exe) {
		if f.OK || !strings.Contains(f.Detail, "no git-convo block") {
			t.Errorf("after uninstall: %+v", f)
		}
	}
}
