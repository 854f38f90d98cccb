package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A symlinked hook stays a link: the block goes into the file it names, and
// uninstall leaves that file as it was.
func TestInstallKeepsSymlinkedHook(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("linked")
	script := "#!/bin/sh\necho tracked\n"
	sb.write(repo, "scripts/post-commit", script)
	os.Chmod(filepath.Join(repo, "scripts", "post-commit"), 0o755)
	link := filepath.Join(repo, ".git", "hooks", "post-commit")
	if err := os.Symlink("../../scripts/post-commit", link); err != nil {
		t.Fatal(err)
	}
	out := sb.convo(repo, "install", "--cursor=none")
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("install replaced the link with a file:\n%s", out)
	}
	if !strings.Contains(out, "links to") {
		t.Errorf("install does not say it wrote through the link:\n%s", out)
	}
	if b, _ := os.ReadFile(filepath.Join(repo, "scripts", "post-commit")); !strings.Contains(string(b), "git-convo") {
		t.Errorf("the link's target has no block:\n%s", b)
	}
	sb.convo(repo, "uninstall")
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("uninstall did not leave the link")
	}
	if b, _ := os.ReadFile(filepath.Join(repo, "scripts", "post-commit")); string(b) != script {
		t.Errorf("uninstall left %q, want %q", b, script)
	}
}

// A hooks directory inside the work tree is usually committed: install
// refuses to put this machine's paths there unless forced.
func TestInstallRefusesTrackedHooksPath(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("tracked")
	hook := sb.write(repo, ".githooks/post-commit", "#!/bin/sh\necho team\n")
	sb.run(repo, "git", "config", "core.hooksPath", ".githooks")
	r := sb.runEnv(repo, sb.env, "", "git", "convo", "install", "--cursor=none")
	if r.code == 0 || !strings.Contains(r.stderr, "inside the work tree") || !strings.Contains(r.stderr, "--force") {
		t.Fatalf("install into a tracked hooks directory: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if b, _ := os.ReadFile(hook); string(b) != "#!/bin/sh\necho team\n" {
		t.Errorf("the refused install edited the hook: %q", b)
	}
	if _, err := os.Stat(filepath.Join(repo, ".githooks", "post-rewrite")); err == nil {
		t.Error("the refused install added a hook file")
	}
	sb.convo(repo, "install", "--cursor=none", "--force")
	if b, _ := os.ReadFile(hook); !strings.Contains(string(b), "git-convo") {
		t.Error("--force did not install")
	}
}

// A core.hooksPath from the global config serves every repository: install
// and uninstall say so and want --shared.
func TestSharedHooksPathNeedsAFlag(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("global")
	shared := filepath.Join(sb.root, "shared-hooks")
	sb.run(repo, "git", "config", "--global", "core.hooksPath", shared)
	r := sb.runEnv(repo, sb.env, "", "git", "convo", "install", "--cursor=none")
	if r.code == 0 || !strings.Contains(r.stderr, "shared") || !strings.Contains(r.stderr, "global") {
		t.Fatalf("install into global hooks: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(shared, "post-commit")); err == nil {
		t.Error("the refused install wrote a hook")
	}
	sb.convo(repo, "install", "--cursor=none", "--shared")
	r = sb.runEnv(repo, sb.env, "", "git", "convo", "uninstall")
	if r.code == 0 || !strings.Contains(r.stderr, "--shared") {
		t.Errorf("uninstall of global hooks: exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(shared, "post-commit")); err != nil {
		t.Error("the refused uninstall removed the hook")
	}
	sb.convo(repo, "uninstall", "--shared")
	if _, err := os.Stat(filepath.Join(shared, "post-commit")); err == nil {
		t.Error("uninstall --shared left the hook")
	}
}
