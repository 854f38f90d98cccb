package githooks

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/hooks/templates"
)

func TestInsertRemoveRoundTrip(t *testing.T) {
	block, _ := templates.Render("post-commit", "/usr/local/bin/git-convo", "/tmp/q/commits")
	tests := []struct {
		name, in string
		wantAt   int // where the block starts in the result
	}{
		{"empty", "", 0},
		{"shebang only", "#!/bin/sh\n", len("#!/bin/sh\n")},
		{"shebang without newline", "#!/bin/sh", len("#!/bin/sh\n")},
		{"ends in exit 0", "#!/bin/bash\necho hi\nexit 0\n", len("#!/bin/bash\n")},
		{"no shebang", "echo hi\n", 0},
		{"no final newline", "#!/bin/sh\necho hi", len("#!/bin/sh\n")},
		{"CRLF", "#!/bin/sh\r\necho hi\r\n", len("#!/bin/sh\r\n")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := Insert([]byte(tt.in), block)
			if err != nil {
				t.Fatal(err)
			}
			if i := bytes.Index(out, []byte(BeginMarker)); i != tt.wantAt {
				t.Errorf("block starts at %d, want %d:\n%s", i, tt.wantAt, out)
			}
			if strings.Contains(tt.in, "\r\n") && bytes.Count(out, []byte("\n")) != bytes.Count(out, []byte("\r\n")) {
				t.Error("CRLF file got LF lines")
			}
			again, _ := Insert(out, block)
			if !bytes.Equal(again, out) {
				t.Error("a second insert changed the file")
			}
			back, had, err := Remove(out)
			if err != nil || !had || string(back) != tt.in {
				t.Errorf("Remove = %q, %v, %v; want the original %q", back, had, err, tt.in)
			}
		})
	}
}

func TestUpgradeOlderBlock(t *testing.T) {
	for _, v := range templates.Versions() {
		old, err := templates.RenderVersion(v, "post-commit", "/old/path/git-convo", "/tmp/q/commits")
		if err != nil {
			t.Fatal(err)
		}
		user := "#!/bin/sh\n" + old + "echo mine\n"
		cur, _ := templates.Render("post-commit", "/new/git-convo", "/tmp/q/commits")
		out, err := Insert([]byte(user), cur)
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != "#!/bin/sh\n"+cur+"echo mine\n" {
			t.Errorf("upgrade of %s:\n%s", v, out)
		}
	}
}

func TestDamagedAndNonShell(t *testing.T) {
	if _, err := Insert([]byte("#!/bin/sh\n"+BeginMarker+"\necho\n"), "x"); err == nil {
		t.Error("a start marker without an end marker should be refused")
	}
	for in, want := range map[string]bool{
		"#!/bin/sh\n": true, "#!/usr/bin/env bash\n": true, "#!/bin/zsh -e\n": true, "echo\n": true,
		"#!/usr/bin/env python3\n": false, "#!/usr/bin/node\n": false, "#!/usr/bin/env -S bash -e\n": true,
	} {
		if got := IsShell([]byte(in)); got != want {
			t.Errorf("IsShell(%q) = %v", in, got)
		}
	}
}

func FuzzInstallUninstall(f *testing.F) {
	for _, s := range []string{"", "#!/bin/sh\n", "#!/bin/sh", "#!/bin/bash\necho\nexit 0\n", "a\r\nb\r\n", "#!x\n\n\n"} {
		f.Add(s)
	}
	block, _ := templates.Render("post-commit", "/bin/git-convo", "/tmp/q/commits")
	f.Fuzz(func(t *testing.T, in string) {
		if strings.Contains(in, BeginMarker) || strings.Contains(in, EndMarker) {
			return
		}
		out, err := Insert([]byte(in), block)
		if err != nil {
			t.Fatal(err)
		}
		again, err := Insert(out, block)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("insert is not idempotent on %q", in)
		}
		back, had, err := Remove(out)
		if err != nil || !had || string(back) != in {
			t.Fatalf("uninstall changed the user's bytes: %q -> %q", in, back)
		}
	})
}

// git runs git with an isolated configuration.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	home := t.TempDir()
	cfg := filepath.Join(home, "gitconfig")
	os.WriteFile(cfg, []byte("[user]\n\tname = T\n\temail = t@example.com\n[init]\n\tdefaultBranch = main\n"), 0o644)
	cmd.Env = append(os.Environ(), "HOME="+home, "GIT_CONFIG_GLOBAL="+cfg, "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestInstallRunsOnCommit installs into several layouts and proves, with a
// real commit, that git runs the block: the rendered binary is a script that
// leaves a marker file.
func TestInstallRunsOnCommit(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, repo string) (workTree string)
		pre   string // existing post-commit content
	}{
		{name: "fresh repo", setup: func(t *testing.T, repo string) string { return repo }},
		{name: "hook ending in exit 0", pre: "#!/bin/sh\necho user-hook > \"$(git rev-parse --git-dir)/user-ran\"\nexit 0\n",
			setup: func(t *testing.T, repo string) string { return repo }},
		{name: "relative core.hooksPath", setup: func(t *testing.T, repo string) string {
			git(t, repo, "config", "core.hooksPath", "my-hooks")
			return repo
		}},
		{name: "absolute core.hooksPath", setup: func(t *testing.T, repo string) string {
			git(t, repo, "config", "core.hooksPath", filepath.Join(t.TempDir(), "abs hooks"))
			return repo
		}},
		{name: "linked worktree", setup: func(t *testing.T, repo string) string {
			wt := filepath.Join(t.TempDir(), "wt")
			git(t, repo, "worktree", "add", "-q", wt)
			return wt
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			repo := filepath.Join(t.TempDir(), "repo with spaces")
			os.MkdirAll(repo, 0o755)
			git(t, repo, "init", "-q")
			os.WriteFile(filepath.Join(repo, "a"), []byte("a"), 0o644)
			git(t, repo, "add", "a")
			git(t, repo, "commit", "-q", "-m", "one")
			wt := tt.setup(t, repo)
			loc, err := Locate(context.Background(), wt)
			if err != nil || loc.Manager != "" {
				t.Fatal(loc, err)
			}
			hook := filepath.Join(loc.Dir, "post-commit")
			if tt.pre != "" {
				os.MkdirAll(loc.Dir, 0o755)
				os.WriteFile(hook, []byte(tt.pre), 0o755)
			}
			marker := filepath.Join(t.TempDir(), "ran")
			fake := filepath.Join(t.TempDir(), "fake git-convo")
			os.WriteFile(fake, []byte("#!/bin/sh\necho \"$@\" > '"+marker+"'\n"), 0o755)
			block, _ := templates.Render("post-commit", fake, "/tmp/q/commits")
			if res, err := InstallFile(hook, block); err != nil || (res != "created" && res != "installed") {
				t.Fatalf("InstallFile = %q, %v", res, err)
			}
			installed, _ := os.ReadFile(hook)
			if res, _ := InstallFile(hook, block); res != "unchanged" {
				t.Errorf("second install: %q", res)
			}
			if again, _ := os.ReadFile(hook); !bytes.Equal(again, installed) {
				t.Error("second install changed the file")
			}
			os.WriteFile(filepath.Join(wt, "b"), []byte("b"), 0o644)
			git(t, wt, "add", "b")
			cmd := exec.Command("git", "commit", "-q", "-m", "two")
			cmd.Dir = wt
			cmd.Env = append(os.Environ(), "GIT_CONVO_SYNC=1", "GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@e")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("commit: %v %s", err, out)
			}
			got, err := os.ReadFile(marker)
			if err != nil || !strings.Contains(string(got), "record --hook=post-commit") {
				t.Fatalf("the block did not run on commit: %q %v", got, err)
			}
			if tt.pre != "" {
				gitDir := git(t, wt, "rev-parse", "--git-dir")
				if !filepath.IsAbs(gitDir) {
					gitDir = filepath.Join(wt, gitDir)
				}
				if _, err := os.Stat(filepath.Join(gitDir, "user-ran")); err != nil {
					t.Error("the user's own hook did not run")
				}
			}
			res, err := UninstallFile(hook)
			if err != nil {
				t.Fatal(err)
			}
			after, statErr := os.ReadFile(hook)
			if tt.pre == "" {
				if statErr == nil || !strings.HasPrefix(res, "deleted") {
					t.Errorf("uninstall of a hook we created: %q, file still there: %v", res, statErr == nil)
				}
			} else if string(after) != tt.pre {
				t.Errorf("uninstall is not byte-exact:\n%q\nwant\n%q", after, tt.pre)
			}
		})
	}
}

func TestPostRewriteStdinReachesBoth(t *testing.T) {
	repo := t.TempDir()
	git(t, repo, "init", "-q")
	os.WriteFile(filepath.Join(repo, "a"), []byte("a"), 0o644)
	git(t, repo, "add", "a")
	git(t, repo, "commit", "-q", "-m", "one")
	ours := filepath.Join(t.TempDir(), "ours")
	theirs := filepath.Join(t.TempDir(), "theirs")
	fake := filepath.Join(t.TempDir(), "git-convo")
	os.WriteFile(fake, []byte("#!/bin/sh\ncat > '"+ours+"'\n"), 0o755)
	hook := filepath.Join(repo, ".git", "hooks", "post-rewrite")
	os.WriteFile(hook, []byte("#!/bin/sh\ncat > '"+theirs+"'\n"), 0o755)
	block, _ := templates.Render("post-rewrite", fake, "/tmp/q/commits")
	if _, err := InstallFile(hook, block); err != nil {
		t.Fatal(err)
	}
	before := git(t, repo, "rev-parse", "HEAD")
	cmd := exec.Command("git", "commit", "-q", "--amend", "-m", "amended")
	cmd.Dir = repo
	cmd.Env = append(os.Environ(), "GIT_CONVO_SYNC=1", "GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@e")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("amend: %v %s", err, out)
	}
	after := git(t, repo, "rev-parse", "HEAD")
	want := before + " " + after
	for name, p := range map[string]string{"git-convo": ours, "the user's hook": theirs} {
		got, _ := os.ReadFile(p)
		if strings.TrimSpace(string(got)) != want {
			t.Errorf("%s read %q on stdin, want %q", name, got, want)
		}
	}
}

func TestLocateManagers(t *testing.T) {
	repo := t.TempDir()
	git(t, repo, "init", "-q")
	git(t, repo, "config", "core.hooksPath", ".husky/_")
	loc, err := Locate(context.Background(), repo)
	if err != nil || loc.Manager != "husky" || loc.ManagerFile("post-commit") != filepath.Join(repo, ".husky", "post-commit") || loc.Advice() == "" {
		t.Errorf("husky: %+v %v", loc, err)
	}
	git(t, repo, "config", "core.hooksPath", "/dev/null")
	if loc, _ := Locate(context.Background(), repo); loc.Manager != "disabled" {
		t.Errorf("/dev/null: %+v", loc)
	}
}

func TestInspect(t *testing.T) {
	dir := t.TempDir()
	hook := filepath.Join(dir, "post-commit")
	bin := filepath.Join(dir, "it's git-convo")
	os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755)
	block, _ := templates.Render("post-commit", bin, "/tmp/q/commits")
	InstallFile(hook, block)
	st := Inspect(hook)
	if !st.Installed || !st.Executable || st.Binary != bin || !st.BinaryExists || st.Block != block {
		t.Errorf("Inspect = %+v", st)
	}
	os.Remove(bin)
	t.Setenv("PATH", dir)
	if st := Inspect(hook); st.BinaryExists {
		t.Error("a removed binary is reported present")
	}
}
