package gitx

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestOpen(t *testing.T) {
	r := newTestRepo(t)
	r.write("sub/f", "f")
	r.commit("one")
	wt := filepath.Join(t.TempDir(), "linked wt")
	r.git("worktree", "add", "-q", "--detach", wt)
	bare := filepath.Join(t.TempDir(), "bare.git")
	gitIn(t, r.dir, nil, "clone", "-q", "--bare", r.dir, bare)
	sha := newTestRepo(t, "--object-format=sha256")
	top, common := realPath(t, r.dir), realPath(t, filepath.Join(r.dir, ".git"))
	// A path that holds newlines, and the words rev-parse prints beside it.
	odd := filepath.Join(t.TempDir(), "a\ntrue\nsha1\nrepo")
	gitIn(t, r.dir, nil, "init", "-q", odd)
	oddTop := realPath(t, odd)

	for _, tc := range []struct {
		name, dir                   string
		top, gitDir, common, format string
		bare                        bool
	}{
		{"top level (space in path)", r.dir, top, common, common, "sha1", false},
		{"subdirectory", filepath.Join(r.dir, "sub"), top, common, common, "sha1", false},
		{"linked worktree", wt, realPath(t, wt), gitIn(t, wt, nil, "rev-parse", "--absolute-git-dir"), common, "sha1", false},
		{"inside .git", filepath.Join(r.dir, ".git"), "", common, common, "sha1", false},
		{"bare", bare, "", realPath(t, bare), realPath(t, bare), "sha1", true},
		{"newlines in the path", odd, oddTop, filepath.Join(oddTop, ".git"), filepath.Join(oddTop, ".git"), "sha1", false},
		{"newlines, inside .git", filepath.Join(odd, ".git"), "", filepath.Join(oddTop, ".git"), filepath.Join(oddTop, ".git"), "sha1", false},
		{"sha256", sha.dir, realPath(t, sha.dir), realPath(t, filepath.Join(sha.dir, ".git")), realPath(t, filepath.Join(sha.dir, ".git")), "sha256", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo, err := Open(context.Background(), tc.dir, false)
			if err != nil {
				t.Fatal(err)
			}
			got := [5]string{repo.TopLevel, repo.GitDir, repo.CommonDir, repo.ObjectFormat, strings.Repeat("bare", b2i(repo.Bare))}
			want := [5]string{tc.top, tc.gitDir, tc.common, tc.format, strings.Repeat("bare", b2i(tc.bare))}
			if got != want {
				t.Errorf("got  %q\nwant %q", got, want)
			}
		})
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestOpenOutsideARepository(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(dir))
	_, err := Open(context.Background(), dir, false)
	var ge *Error
	if !errors.As(err, &ge) || !strings.HasPrefix(err.Error(), "not a git repository") || !strings.Contains(ge.Stderr, "fatal: ") {
		t.Errorf("outside a repository: %v", err)
	}
}

func TestFindRepoForPath(t *testing.T) {
	r := newTestRepo(t)
	r.write("a.go", "a")
	r.commit("one")
	wt := filepath.Join(t.TempDir(), "wt")
	r.git("worktree", "add", "-q", wt)
	// A submodule: its .git is a file naming .git/modules/<name>.
	lib := newTestRepo(t)
	lib.write("lib.go", "l")
	lib.commit("lib")
	r.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", lib.dir, "vendor/lib")
	// A .git file naming nothing stops the search, as it stops git.
	r.write("broken/.git", "gitdir: /nonexistent/place\n")
	// An empty .git directory is no repository: the search goes on.
	if err := os.MkdirAll(filepath.Join(r.dir, "stray", ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	common := realPath(t, filepath.Join(r.dir, ".git"))

	for _, tc := range []struct {
		name, path, top, common string
		found                   bool
	}{
		{"existing file", filepath.Join(r.dir, "a.go"), r.dir, common, true},
		{"the top level", r.dir, r.dir, common, true},
		{"a file not created yet", filepath.Join(r.dir, "new", "deeper", "n.go"), r.dir, common, true},
		{"linked worktree", filepath.Join(wt, "a.go"), wt, common, true},
		{"new file in a linked worktree", filepath.Join(wt, "x", "y.go"), wt, common, true},
		{"submodule", filepath.Join(r.dir, "vendor", "lib", "lib.go"), filepath.Join(r.dir, "vendor", "lib"), filepath.Join(common, "modules", "vendor", "lib"), true},
		{"stray .git directory", filepath.Join(r.dir, "stray", "s.go"), r.dir, common, true},
		{"broken .git file", filepath.Join(r.dir, "broken", "b.go"), "", "", false},
		{"relative path", "no/such/relative/path", "", "", false},
		{"root", "/", "", "", false},
		{"windows drive, slash form", "/c:/Users/me/project/a.go", "", "", false},
		{"windows drive, backslashes", `C:\Users\me\project\a.go`, "", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !tc.found {
				// Relative paths (a Windows path is one here) start from
				// the current directory: one in no repository.
				t.Chdir(t.TempDir())
			}
			loc, ok := FindRepoForPath(tc.path)
			if ok != tc.found {
				t.Fatalf("found = %v (%+v), want %v", ok, loc, tc.found)
			}
			if !ok {
				return
			}
			if loc.TopLevel != tc.top || realPath(t, loc.CommonDir) != tc.common {
				t.Errorf("got %+v, want top %s common %s", loc, tc.top, tc.common)
			}
			// The key must be the one Open gives the same place.
			repo, err := Open(context.Background(), loc.TopLevel, false)
			if err != nil {
				t.Fatal(err)
			}
			if realPath(t, repo.CommonDir) != realPath(t, loc.CommonDir) {
				t.Errorf("Open says common dir %s, FindRepoForPath %s", repo.CommonDir, loc.CommonDir)
			}
		})
	}
}

func TestScrubHookEnv(t *testing.T) {
	for _, tc := range []struct {
		name     string
		in, want []string
	}{
		{"nothing to scrub", []string{"PATH=/bin", "HOME=/h"}, []string{"PATH=/bin", "HOME=/h"}},
		{"hook variables dropped",
			[]string{"PATH=/bin", "GIT_INDEX_FILE=/r/.git/index.lock", "GIT_EDITOR=:", "GIT_PREFIX=sub/", "GIT_AUTHOR_NAME=x", "GIT_REFLOG_ACTION=rebase (pick)", "GIT_QUARANTINE_PATH=/q"},
			[]string{"PATH=/bin"}},
		{"relative GIT_DIR made absolute", []string{"GIT_DIR=.git", "GIT_WORK_TREE=.", "X=1"}, []string{"X=1", "GIT_DIR=/work/tree/.git"}},
		{"absolute GIT_DIR kept", []string{"GIT_DIR=/else/where/.git/worktrees/w"}, []string{"GIT_DIR=/else/where/.git/worktrees/w"}},
		{"user's -c settings kept", []string{"GIT_CONFIG_PARAMETERS='convo.window'='3'"}, []string{"GIT_CONFIG_PARAMETERS='convo.window'='3'"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ScrubHookEnv(tc.in, "/work/tree"); !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestOpenScrubbed is a post-commit hook's view: git runs it at the top
// level with a relative GIT_DIR and a GIT_INDEX_FILE that is gone once the
// commit ends. The worker must see the repository, not the dead index.
func TestOpenScrubbed(t *testing.T) {
	r := newTestRepo(t)
	r.write("tracked.go", "x")
	r.commit("one")
	t.Chdir(r.dir)
	t.Setenv("GIT_DIR", ".git")
	t.Setenv("GIT_INDEX_FILE", filepath.Join(r.dir, ".git", "index.lock-gone"))
	ctx := context.Background()
	for _, tc := range []struct {
		scrub bool
		files string
	}{{true, "tracked.go"}, {false, ""}} {
		repo, err := Open(ctx, ".", tc.scrub)
		if err != nil {
			t.Fatal(err)
		}
		if repo.TopLevel != realPath(t, r.dir) {
			t.Errorf("scrub=%v: top level %s", tc.scrub, repo.TopLevel)
		}
		out, err := repo.run.output(ctx, "ls-files")
		if err != nil || strings.TrimSpace(string(out)) != tc.files {
			t.Errorf("scrub=%v: ls-files = %q, %v; want %q", tc.scrub, out, err, tc.files)
		}
	}
}

func TestRevParse(t *testing.T) {
	r := newTestRepo(t)
	r.write("a", "a")
	first := r.commit("one")
	r.write("a", "b")
	second := r.commit("two")
	r.git("tag", "-a", "-m", "annotated", "v1", first)
	repo := r.open()
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		revs    []string
		want    []string
		wantErr string
	}{
		{"several at once", []string{"HEAD", "HEAD~1", "main"}, []string{second, first, second}, ""},
		{"annotated tag peeled to its commit", []string{"v1"}, []string{first}, ""},
		{"abbreviated hash", []string{first[:10]}, []string{first}, ""},
		{"commit message search", []string{":/one"}, []string{first}, ""},
		{"none", nil, []string{}, ""},
		{"unknown", []string{"HEAD", "nope"}, nil, `unknown revision "nope"`},
		{"a tree is no commit", []string{"HEAD^{tree}"}, nil, `unknown revision "HEAD^{tree}"`},
		{"looks like an option", []string{"--all"}, nil, `unknown revision "--all"`},
		{"past the root", []string{"HEAD~5"}, nil, `unknown revision "HEAD~5"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := repo.RevParse(ctx, tc.revs...)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, %v; want %v", got, err, tc.want)
			}
		})
	}
	// Outside a repository git's own complaint comes through.
	dir := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(dir))
	if _, err := Here(dir).RevParse(ctx, "HEAD"); err == nil || !strings.Contains(err.Error(), "not a git repository") {
		t.Errorf("outside a repository: %v", err)
	}
}

func TestIsFullHash(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{strings.Repeat("a1", 20), true},
		{strings.Repeat("0", 64), true},
		{strings.Repeat("A1", 20), false},
		{strings.Repeat("a", 39), false},
		{strings.Repeat("g", 40), false},
		{"", false},
	} {
		if got := IsFullHash(tc.in); got != tc.want || isFullHash([]byte(tc.in)) != tc.want {
			t.Errorf("IsFullHash(%q) = %v", tc.in, got)
		}
	}
}

// TestFindRepoForPathGitDirEnv: a "dotfiles" repository, a git dir apart
// from a work tree that holds no .git, found through GIT_DIR with
// GIT_WORK_TREE or core.worktree, as git finds it.
func TestFindRepoForPathGitDirEnv(t *testing.T) {
	isolate(t)
	base := t.TempDir()
	home, dotfiles := filepath.Join(base, "home"), filepath.Join(base, "home", ".dotfiles")
	gitIn(t, base, nil, "init", "-q", "--bare", dotfiles)
	outside := filepath.Join(base, "elsewhere", "x.txt")
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	file := filepath.Join(home, ".bashrc")
	for _, tc := range []struct {
		name   string
		path   string
		getenv func(string) string
		found  bool
	}{
		{"GIT_DIR and GIT_WORK_TREE", file, env("GIT_DIR", dotfiles, "GIT_WORK_TREE", home), true},
		{"a new file deeper down", filepath.Join(home, ".config", "new", "f"), env("GIT_DIR", dotfiles, "GIT_WORK_TREE", home), true},
		{"outside the work tree", outside, env("GIT_DIR", dotfiles, "GIT_WORK_TREE", home), false},
		{"no environment: no .git above", file, env(), false},
		{"GIT_DIR without a work tree", file, env("GIT_DIR", dotfiles), false},
		{"GIT_DIR naming no repository", file, env("GIT_DIR", filepath.Join(base, "nothing"), "GIT_WORK_TREE", home), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			loc, ok := FindRepoForPathEnv(tc.path, tc.getenv)
			if ok != tc.found {
				t.Fatalf("found = %v (%+v), want %v", ok, loc, tc.found)
			}
			if ok && (loc.TopLevel != home || realPath(t, loc.CommonDir) != realPath(t, dotfiles)) {
				t.Errorf("%+v", loc)
			}
		})
	}
	t.Run("core.worktree", func(t *testing.T) {
		gitIn(t, base, nil, "--git-dir="+dotfiles, "config", "core.worktree", "..")
		if _, ok := FindRepoForPathEnv(file, env("GIT_DIR", dotfiles)); ok {
			t.Error("core.worktree of a bare repository: git ignores it")
		}
		gitIn(t, base, nil, "--git-dir="+dotfiles, "config", "core.bare", "false")
		loc, ok := FindRepoForPathEnv(file, env("GIT_DIR", dotfiles))
		if !ok || loc.TopLevel != home {
			t.Fatalf("%+v %v", loc, ok)
		}
		// The key must be the one git gives the same place.
		t.Setenv("GIT_DIR", dotfiles)
		repo, err := Open(context.Background(), home, false)
		if err != nil {
			t.Fatal(err)
		}
		if realPath(t, repo.CommonDir) != realPath(t, loc.CommonDir) || realPath(t, repo.TopLevel) != realPath(t, home) {
			t.Errorf("git: %+v, found %+v", repo, loc)
		}
	})
}

func TestAbbrevs(t *testing.T) {
	r, hashes := logRepo(t)
	r.git("config", "core.abbrev", "9")
	got, err := r.open().Abbrevs(context.Background(), hashes)
	if err != nil || len(got) != len(hashes) {
		t.Fatalf("%d abbreviations, %v", len(got), err)
	}
	for _, h := range hashes {
		if want := r.git("log", "-1", "--format=%h", h); got[h] != want || len(want) != 9 {
			t.Errorf("%s: %q, git %q", h, got[h], want)
		}
	}
}
