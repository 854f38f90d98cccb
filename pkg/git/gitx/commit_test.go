package gitx

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// sameCommit compares two reads of a commit; times must be the same instant
// in the same zone offset.
func sameCommit(t *testing.T, what string, got, want *Commit) {
	t.Helper()
	for _, tm := range [][2]time.Time{{got.AuthorTime, want.AuthorTime}, {got.CommitTime, want.CommitTime}} {
		_, off1 := tm[0].Zone()
		_, off2 := tm[1].Zone()
		if !tm[0].Equal(tm[1]) || off1 != off2 {
			t.Errorf("%s: time %v, want %v", what, tm[0], tm[1])
		}
	}
	g, w := *got, *want
	g.AuthorTime, g.CommitTime, w.AuthorTime, w.CommitTime = time.Time{}, time.Time{}, time.Time{}, time.Time{}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s:\n got %+v\nwant %+v", what, g, w)
	}
}

// TestReadCommit reads commits of every shape with go-git and with the CLI
// and holds both to what git says they change.
func TestReadCommit(t *testing.T) {
	r := newTestRepo(t)
	r.write("README.md", "x\n")
	r.write("dir with space/ünï.go", "package x\n")
	r.write("tool.sh", "#!/bin/sh\n")
	r.write("x", "a file that becomes a directory\n")
	r.write("deep/a/b.txt", "b\n")
	r.write("deep/a/same.txt", "same\n")
	r.write("deep/same/c.txt", "c\n")
	if err := os.Symlink("README.md", filepath.Join(r.dir, "link")); err != nil {
		t.Fatal(err)
	}
	root := r.commit("root commit\n\nwith a body\n\nof two paragraphs")
	// A submodule is a path too (a gitlink, mode 160000).
	r.git("update-index", "--add", "--cacheinfo", "160000,"+root+",vendored")
	r.at("commit", "-q", "-m", "gitlink")
	gitlink := r.git("rev-parse", "HEAD")
	// From here on paths are staged one by one: "git add -A" would drop
	// the gitlink, which has no directory.
	r.write("README.md", "y\n")
	r.write("deep/a/b.txt", "b2\n")
	r.git("add", "README.md", "deep/a/b.txt")
	r.git("mv", "dir with space/ünï.go", "renamed.go")
	r.at("commit", "-q", "-m", "rename and edit")
	renamed := r.git("rev-parse", "HEAD")
	if err := os.Chmod(filepath.Join(r.dir, "tool.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.git("add", "tool.sh")
	r.git("rm", "-q", "x")
	r.write("x/inside", "now a directory\n")
	// Names that sort around "x/" in git's tree order.
	r.write("x-y", "-\n")
	r.write("x.txt", ".\n")
	r.write("x0/z", "0\n")
	r.git("add", "x/inside", "x-y", "x.txt", "x0/z")
	r.at("commit", "-q", "-m", "a subject that runs\nover two lines\n\nand a body")
	typeChange := r.git("rev-parse", "HEAD")
	// Only one side has "x-y" and "x.txt", which sort between "x" and "x/".
	r.git("rm", "-q", "x-y", "x.txt")
	r.at("commit", "-q", "-m", "delete x-y and x.txt")
	deleteXY := r.git("rev-parse", "HEAD")
	r.git("checkout", "-q", "-b", "side", renamed)
	r.write("side.txt", "s\n")
	r.git("add", "side.txt")
	r.at("commit", "-q", "-m", "side")
	side := r.git("rev-parse", "HEAD")
	r.git("checkout", "-q", "main")
	r.at("merge", "-q", "--no-ff", "-m", "merge side", "side")
	merge := r.git("rev-parse", "HEAD")
	r.at("commit", "-q", "--allow-empty", "-m", "nothing changes")
	empty := r.git("rev-parse", "HEAD")

	for _, tc := range []struct {
		name, rev, subject, body, branch string
		files                            []string
		merge                            bool
	}{
		{"root commit lists every path", root, "root commit", "with a body\n\nof two paragraphs", "",
			[]string{"README.md", "deep/a/b.txt", "deep/a/same.txt", "deep/same/c.txt", "dir with space/ünï.go", "link", "tool.sh", "x"}, false},
		{"submodule entry", gitlink, "gitlink", "", "", []string{"vendored"}, false},
		{"rename lists both names", renamed, "rename and edit", "", "",
			[]string{"README.md", "deep/a/b.txt", "dir with space/ünï.go", "renamed.go"}, false},
		{"mode and type changes; two-line subject", typeChange, "a subject that runs over two lines", "and a body", "",
			[]string{"tool.sh", "x", "x-y", "x.txt", "x/inside", "x0/z"}, false},
		{"deletion next to a directory", deleteXY, "delete x-y and x.txt", "", "", []string{"x-y", "x.txt"}, false},
		{"side branch tip, not HEAD", side, "side", "", "", []string{"side.txt"}, false},
		{"merge against its first parent", merge, "merge side", "", "", []string{"side.txt"}, true},
		{"empty commit at HEAD", empty, "nothing changes", "", "main", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			goGit := r.open()
			viaGoGit, err := goGit.readCommitGoGit(tc.rev)
			if err != nil {
				t.Fatal("go-git:", err)
			}
			cli := r.open()
			cli.CLIOnly = true
			viaCLI, err := cli.ReadCommit(ctx, tc.rev)
			if err != nil {
				t.Fatal("CLI:", err)
			}
			sameCommit(t, "CLI vs go-git", viaCLI, viaGoGit)
			c := viaGoGit
			if c.Hash != tc.rev || c.Subject != tc.subject || c.Body != tc.body || c.Branch != tc.branch ||
				!reflect.DeepEqual(c.Files, tc.files) || c.IsMerge() != tc.merge {
				t.Errorf("got %+v", c)
			}
			if c.Author != "Zoë Tester <zoe@example.com>" || c.AuthorName != "Zoë Tester" || c.AuthorEmail != "zoe@example.com" {
				t.Errorf("author %q", c.Author)
			}
			if _, off := c.AuthorTime.Zone(); off != 2*3600 {
				t.Errorf("author time %v: want the author's +02:00", c.AuthorTime)
			}
			if got := strings.Fields(r.git("rev-list", "--parents", "-n", "1", tc.rev))[1:]; !reflect.DeepEqual(got, nonNil(c.Parents)) {
				t.Errorf("parents %v, git says %v", c.Parents, got)
			}
		})
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func TestReadCommitBranch(t *testing.T) {
	r := newTestRepo(t)
	first := r.commit("one")
	second := r.commit("two")
	r.git("tag", "main-tag")
	r.git("branch", "other")
	ctx := context.Background()
	for _, tc := range []struct {
		name, checkout, rev, want string
	}{
		{"HEAD's tip", "main", "HEAD", "main"},
		{"HEAD's tip by hash", "main", second, "main"},
		{"an older commit", "main", first, ""},
		{"another branch at the same commit", "other", second, "other"},
		{"detached HEAD", "--detach", "HEAD", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r.git("checkout", "-q", tc.checkout)
			for _, cliOnly := range []bool{false, true} {
				repo := r.open()
				repo.CLIOnly = cliOnly
				c, err := repo.ReadCommit(ctx, tc.rev)
				if err != nil || c.Branch != tc.want {
					t.Errorf("CLIOnly=%v: branch %q, %v; want %q", cliOnly, c.Branch, err, tc.want)
				}
			}
		})
	}
}

// TestReadCommitFallback covers what go-git cannot read; the CLI must.
func TestReadCommitFallback(t *testing.T) {
	ctx := context.Background()
	t.Run("SHA-256 repository", func(t *testing.T) {
		r := newTestRepo(t, "--object-format=sha256")
		r.write("a.txt", "a\n")
		r.write("ü b.txt", "b\n")
		first := r.commit("sha256 root")
		r.write("a.txt", "a2\n")
		second := r.commit("sha256 second")
		repo := r.open()
		if _, err := repo.readCommitGoGit(second); err == nil {
			t.Fatal("go-git read a SHA-256 commit: the fallback is untested")
		}
		for rev, want := range map[string][]string{first: {"a.txt", "ü b.txt"}, "HEAD": {"a.txt"}} {
			c, err := repo.ReadCommit(ctx, rev)
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Hash) != 64 || !reflect.DeepEqual(c.Files, want) {
				t.Errorf("%s: %+v", rev, c)
			}
		}
		if c, _ := repo.ReadCommit(ctx, "HEAD"); c.Hash != second || c.Branch != "main" || c.Parents[0] != first {
			t.Errorf("HEAD = %+v", c)
		}
	})
	t.Run("linked worktree", func(t *testing.T) {
		r := newTestRepo(t)
		r.write("a", "a")
		r.commit("one")
		wt := filepath.Join(t.TempDir(), "wt")
		r.git("worktree", "add", "-q", "-b", "wt-branch", wt)
		gitIn(t, wt, nil, "commit", "-q", "--allow-empty", "-m", "in the worktree")
		repo, err := Open(ctx, wt, false)
		if err != nil {
			t.Fatal(err)
		}
		c, err := repo.readCommitGoGit("HEAD") // go-git must manage this one
		if err != nil || c.Subject != "in the worktree" || c.Branch != "wt-branch" {
			t.Errorf("go-git in a worktree: %+v, %v", c, err)
		}
	})
	t.Run("shallow clone", func(t *testing.T) {
		r := newTestRepo(t)
		r.write("a", "a")
		r.commit("one")
		r.write("b", "b")
		r.commit("two")
		clone := filepath.Join(t.TempDir(), "shallow")
		gitIn(t, r.dir, nil, "clone", "-q", "--depth=1", "file://"+r.dir, clone)
		repo, err := Open(ctx, clone, false)
		if err != nil {
			t.Fatal(err)
		}
		// The parent is missing: the grafted root lists every path.
		c, err := repo.ReadCommit(ctx, "HEAD")
		if err != nil || c.Parents != nil || !reflect.DeepEqual(c.Files, []string{"a", "b"}) {
			t.Errorf("shallow HEAD: %+v, %v", c, err)
		}
	})
	t.Run("revision syntax", func(t *testing.T) {
		r := newTestRepo(t)
		r.write("a", "a")
		first := r.commit("one")
		r.commit("two")
		repo := r.open()
		if c, err := repo.ReadCommit(ctx, "HEAD~1"); err != nil || c.Hash != first {
			t.Errorf("HEAD~1: %+v, %v", c, err)
		}
		if _, err := repo.ReadCommit(ctx, "no-such-rev"); err == nil || !strings.Contains(err.Error(), `"no-such-rev"`) {
			t.Errorf("bad revision: %v", err)
		}
		if _, err := repo.ReadCommit(ctx, "--output=/tmp/x"); err == nil {
			t.Error("an option as a revision must fail")
		}
	})
}

func TestSplitMessage(t *testing.T) {
	for _, tc := range []struct{ msg, subject, body string }{
		{"one line", "one line", ""},
		{"subject\n", "subject", ""},
		{"\n\n  subject  \n\nbody\n", "  subject", "body"},
		{"two\nlines\n\nbody one\n\n\nbody two\n\n", "two lines", "body one\n\n\nbody two"},
		{"subject\n \t\nbody", "subject", "body"},
		{"", "", ""},
	} {
		if s, b := splitMessage(tc.msg); s != tc.subject || b != tc.body {
			t.Errorf("splitMessage(%q) = %q, %q; want %q, %q", tc.msg, s, b, tc.subject, tc.body)
		}
	}
}

// BenchmarkReadCommit reads a commit changing 1,000 files (and a root
// commit of as many) with each reader.
func BenchmarkReadCommit(b *testing.B) {
	r := newTestRepo(b)
	write := func(v string) {
		for i := range 1000 {
			r.write(fmt.Sprintf("pkg/d%02d/file%04d.go", i%40, i), "package x // "+v+"\n")
		}
	}
	write("1")
	r.commit("root")
	write("2")
	r.commit("every file")
	for _, reader := range []struct {
		name    string
		cliOnly bool
	}{{"go-git", false}, {"cli", true}} {
		for _, rev := range []string{"HEAD", "HEAD~1"} {
			repo := r.open()
			repo.CLIOnly = reader.cliOnly
			hash := r.git("rev-parse", rev)
			b.Run(reader.name+"/"+map[string]string{"HEAD": "diff", "HEAD~1": "root"}[rev], func(b *testing.B) {
				for b.Loop() {
					c, err := repo.ReadCommit(context.Background(), hash)
					if err != nil || len(c.Files) != 1000 {
						b.Fatal(err, len(c.Files))
					}
				}
			})
		}
	}
}
