package fetchwatch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// clones is a bare remote with an upstream clone that pushes and a
// downstream clone that fetches, all real git.
type clones struct {
	t              testing.TB
	env            []string
	bare, up, down string
	downCommon     string
}

func newClones(t testing.TB) *clones {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("shell-free but path-heavy: covered on unix")
	}
	root := t.TempDir()
	cfg := filepath.Join(root, "gitconfig")
	os.WriteFile(cfg, []byte("[user]\n\tname = T\n\temail = t@example.com\n[init]\n\tdefaultBranch = main\n"), 0o644)
	c := &clones{t: t, bare: filepath.Join(root, "r.git"), up: filepath.Join(root, "up"), down: filepath.Join(root, "down")}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			c.env = append(c.env, kv)
		}
	}
	c.env = append(c.env, "GIT_CONFIG_GLOBAL="+cfg, "GIT_CONFIG_NOSYSTEM=1")
	c.git(root, "init", "-q", "--bare", c.bare)
	c.git(root, "clone", "-q", c.bare, c.up)
	c.commits(1)
	c.git(root, "clone", "-q", c.bare, c.down)
	c.downCommon = filepath.Join(c.down, ".git")
	return c
}

func (c *clones) git(dir string, args ...string) string {
	c.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = dir, c.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		c.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// commits makes n commits upstream and pushes them; it returns them newest first.
func (c *clones) commits(n int) []string {
	c.t.Helper()
	var out []string
	for i := 0; i < n; i++ {
		c.git(c.up, "commit", "-q", "--allow-empty", "-m", fmt.Sprint("c", i))
		out = append([]string{c.git(c.up, "rev-parse", "HEAD")}, out...)
	}
	c.git(c.up, "push", "-q", "origin", "HEAD:main")
	return out
}

// take runs Take in the downstream clone, as git-convo's commands do there.
func (c *clones) take(limit int) Batch {
	c.t.Helper()
	b, err := Take(context.Background(), c.down, c.downCommon, limit, Notes{})
	if err != nil {
		c.t.Fatal(err)
	}
	return b
}

func TestTakeCarriesOverPastTheLimit(t *testing.T) {
	c := newClones(t)
	if Due(c.downCommon) {
		t.Fatal("due in a clone never fetched (git clone writes no FETCH_HEAD)")
	}
	c.git(c.down, "fetch", "-q")
	if !Due(c.downCommon) {
		t.Fatal("not due after the first fetch")
	}
	if b := c.take(2); len(b.Commits) != 1 || b.Left != 0 { // the first run: the recent past, nothing carried
		t.Fatalf("first run: %+v", b)
	}
	if Due(c.downCommon) {
		t.Fatal("due again with no new fetch")
	}

	made := c.commits(5)
	c.git(c.down, "fetch", "-q")
	var seen []string
	for i, want := range []struct{ n, left int }{{2, 3}, {2, 1}, {1, 0}} {
		if !Due(c.downCommon) {
			t.Fatalf("run %d: not due with commits carried over", i)
		}
		b := c.take(2)
		if len(b.Commits) != want.n || b.Left != want.left {
			t.Fatalf("run %d: %d commits, %d left; want %d and %d", i, len(b.Commits), b.Left, want.n, want.left)
		}
		seen = append(seen, b.Commits...)
	}
	if strings.Join(seen, " ") != strings.Join(made, " ") {
		t.Errorf("examined %v, want every commit the fetch brought, newest first: %v", seen, made)
	}
	if Due(c.downCommon) {
		t.Error("due after the carried commits were all taken")
	}

	// A fetch that moves no remote-tracking ref brings nothing.
	c.git(c.down, "fetch", "-q")
	if b := c.take(2); len(b.Commits) != 0 || b.Left != 0 {
		t.Errorf("a fetch of nothing new: %+v", b)
	}
}

// A fetch in a linked worktree writes that worktree's FETCH_HEAD.
func TestDueSeesEveryWorktreesFetch(t *testing.T) {
	c := newClones(t)
	c.git(c.down, "fetch", "-q")
	c.take(10)
	wt := filepath.Join(t.TempDir(), "wt")
	c.git(c.down, "worktree", "add", "-q", "-b", "side", wt)
	c.commits(1)
	c.git(wt, "fetch", "-q")
	common, ok := Locate(wt, func(string) string { return "" })
	if !ok || common != c.downCommon {
		t.Fatalf("Locate(worktree) = %q %v, want %q", common, ok, c.downCommon)
	}
	if !Due(common) {
		t.Fatal("a fetch in a linked worktree went unnoticed")
	}
	if b := c.take(10); len(b.Commits) != 1 {
		t.Errorf("the worktree's fetch: %+v", b)
	}
}

func TestLocate(t *testing.T) {
	c := newClones(t)
	wt := filepath.Join(t.TempDir(), "wt")
	c.git(c.down, "worktree", "add", "-q", "-b", "side", wt)
	wtGitDir := filepath.Join(c.downCommon, "worktrees", "wt")
	outside := t.TempDir()
	for _, tc := range []struct {
		name, dir string
		env       map[string]string
		want      string
		ok        bool
	}{
		{"the work tree", c.down, nil, c.downCommon, true},
		{"a subdirectory", filepath.Join(c.down, ".git", "refs"), nil, c.downCommon, true},
		{"a linked worktree", wt, nil, c.downCommon, true},
		{"GIT_DIR", outside, map[string]string{"GIT_DIR": c.downCommon}, c.downCommon, true},
		{"GIT_DIR relative, from the current directory", outside, map[string]string{"GIT_DIR": ".git"}, c.downCommon, true},
		{"GIT_DIR of a linked worktree", outside, map[string]string{"GIT_DIR": wtGitDir}, c.downCommon, true},
		{"GIT_COMMON_DIR", outside, map[string]string{"GIT_DIR": wtGitDir, "GIT_COMMON_DIR": c.downCommon}, c.downCommon, true},
		{"GIT_COMMON_DIR relative, from the current directory", outside, map[string]string{"GIT_DIR": wtGitDir, "GIT_COMMON_DIR": ".git"}, c.downCommon, true},
		{"a bare repository by GIT_DIR", outside, map[string]string{"GIT_DIR": c.bare}, c.bare, true},
		{"no repository", outside, nil, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Chdir(c.down) // relative GIT_DIR and GIT_COMMON_DIR are read from here, as git does
			got, ok := Locate(tc.dir, func(k string) string { return tc.env[k] })
			if ok != tc.ok || got != tc.want {
				t.Errorf("Locate = %q %v, want %q %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

// A stamp that cannot be read (torn, or written by something else) starts
// over as the first run does, never fails.
func TestTornStampStartsOver(t *testing.T) {
	c := newClones(t)
	c.git(c.down, "fetch", "-q")
	if err := os.WriteFile(filepath.Join(c.downCommon, StampName), []byte(`{"seen":{"FETCH_HEAD":`), 0o644); err != nil {
		t.Fatal(err)
	}
	if !Due(c.downCommon) {
		t.Fatal("a torn stamp hides the fetch")
	}
	if b := c.take(5); len(b.Commits) != 1 {
		t.Errorf("after a torn stamp: %+v", b)
	}
	if Due(c.downCommon) {
		t.Error("the stamp was not rewritten")
	}
}

// BenchmarkDue is the cost every command pays with no new fetch, against
// its floor, one stat of FETCH_HEAD (compare the two sub-benchmarks).
func BenchmarkDue(b *testing.B) {
	c := newClones(b)
	c.git(c.down, "fetch", "-q")
	if _, err := Take(context.Background(), c.down, c.downCommon, 10, Notes{}); err != nil {
		b.Fatal(err)
	}
	b.Run("stat", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			_, _ = os.Stat(filepath.Join(c.downCommon, "FETCH_HEAD"))
		}
	})
	b.Run("due", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if Due(c.downCommon) {
				b.Fatal("due")
			}
		}
	})
	b.Run("locate-and-due", func(b *testing.B) { // what a read command pays
		getenv := func(string) string { return "" }
		for i := 0; i < b.N; i++ {
			if common, ok := Locate(c.down, getenv); !ok || Due(common) {
				b.Fatal("due")
			}
		}
	})
}

// In a repository this user cannot write (someone else's), Take runs no git
// and says why, every time.
func TestTakeInReadOnlyRepository(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes anywhere")
	}
	c := newClones(t)
	c.git(c.down, "fetch", "-q")
	if err := os.Chmod(c.downCommon, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(c.downCommon, 0o755)
	for i := 0; i < 2; i++ {
		if !Due(c.downCommon) {
			t.Fatal("not due")
		}
		if _, err := Take(context.Background(), c.down, c.downCommon, 5, Notes{}); !errors.Is(err, fs.ErrPermission) {
			t.Fatalf("Take in a read-only repository: %v", err)
		}
	}
}

// A remote added to a repository that had none brings all its history at
// once: only the recent past is examined, nothing carried over.
func TestFirstRemoteIsNotAllHistory(t *testing.T) {
	c := newClones(t)
	c.commits(4)
	solo := filepath.Join(t.TempDir(), "solo")
	c.git(c.up, "init", "-q", solo)
	c.git(solo, "commit", "-q", "--allow-empty", "-m", "own")
	c.git(solo, "fetch", "-q", c.bare, "main") // FETCH_HEAD, no remote-tracking ref
	common := filepath.Join(solo, ".git")
	if b, err := Take(context.Background(), solo, common, 2, Notes{}); err != nil || len(b.Commits) != 0 {
		t.Fatalf("a fetch with no remote-tracking ref: %+v %v", b, err)
	}
	c.git(solo, "remote", "add", "origin", c.bare)
	c.git(solo, "fetch", "-q", "origin")
	b, err := Take(context.Background(), solo, common, 2, Notes{})
	if err != nil || len(b.Commits) != 2 || b.Left != 0 {
		t.Fatalf("the first remote's fetch: %+v %v", b, err)
	}
	if Due(common) {
		t.Error("history carried over")
	}
}

// convoNotes is what git-convo watches: teammates' notes fetched to
// refs/notes/remotes/<remote>/convo, else refs/notes/convo itself.
var convoNotes = Notes{Tracking: "refs/notes/remotes/", Suffix: "/convo", Ref: "refs/notes/convo", Recheck: 3}

// gitCalls puts a git on PATH that logs each call's subcommand before
// running the real one, and returns the log's lines so far.
func gitCalls(t *testing.T) func() []string {
	t.Helper()
	real, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	log := filepath.Join(bin, "calls")
	script := "#!/bin/sh\necho \"$1\" >> '" + log + "'\nexec '" + real + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return func() []string {
		b, _ := os.ReadFile(log)
		os.Remove(log)
		return strings.Fields(string(b))
	}
}

// A squash can arrive before the notes it matches: a fetch that moved
// teammates' notes has the run look again at the recent past, and only
// such a fetch (a fetch that moved none runs no more git than before).
func TestNotesMoveRechecksRecentPast(t *testing.T) {
	c := newClones(t)
	c.git(c.down, "config", "--add", "remote.origin.fetch", "+refs/notes/convo*:refs/notes/remotes/origin/convo*")
	c.git(c.down, "fetch", "-q")
	var calls func() []string
	takeN := func(limit int) Batch {
		t.Helper()
		if calls != nil {
			calls() // what the test ran itself
		}
		b, err := Take(context.Background(), c.down, c.downCommon, limit, convoNotes)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	takeN(10)
	calls = gitCalls(t)

	made := c.commits(4) // the squash, say: examined with no notes yet
	c.git(c.down, "fetch", "-q")
	if b := takeN(10); len(b.Commits) != 4 || len(b.Recheck) != 0 {
		t.Fatalf("a fetch of commits, no notes: %+v", b)
	}
	if got := calls(); strings.Join(got, " ") != "for-each-ref rev-list" {
		t.Errorf("git run for a fetch that moved no notes: %v", got)
	}

	// The notes come later, on an old commit, with nothing else new.
	c.git(c.up, "notes", "--ref=convo", "add", "-m", "{}", made[3])
	c.git(c.up, "push", "-q", "origin", "refs/notes/convo")
	c.git(c.down, "fetch", "-q")
	b := takeN(10)
	if len(b.Commits) != 0 || strings.Join(b.Recheck, " ") != strings.Join(made[:3], " ") {
		t.Fatalf("a fetch that moved notes: %+v, want the last 3 commits again: %v", b, made[:3])
	}
	if got := calls(); strings.Join(got, " ") != "for-each-ref rev-list" { // no new tip: the recheck's rev-list only
		t.Errorf("git run for a fetch that moved notes: %v", got)
	}
	fh, err := os.Stat(filepath.Join(c.downCommon, "FETCH_HEAD"))
	if err != nil {
		t.Fatal(err)
	}
	if at := NotesFetched(c.downCommon)["refs/notes/remotes/origin/convo"]; !at.Equal(fh.ModTime()) {
		t.Errorf("NotesFetched = %v, want the fetch's time %v", at, fh.ModTime())
	}

	// A fetch that brings commits and no notes: no recheck.
	c.commits(1)
	c.git(c.down, "fetch", "-q")
	if b := takeN(10); len(b.Commits) != 1 || len(b.Recheck) != 0 {
		t.Errorf("a fetch of a commit after notes: %+v", b)
	}
	if got := calls(); strings.Join(got, " ") != "for-each-ref rev-list" {
		t.Errorf("git run for a fetch that moved no notes: %v", got)
	}
	// This clone's own notes move refs/notes/convo; with a tracking ref,
	// that is no fetch of teammates' notes.
	c.git(c.down, "notes", "--ref=convo", "add", "-m", "{}", "origin/main")
	c.git(c.down, "fetch", "-q")
	if b := takeN(10); len(b.Recheck) != 0 {
		t.Errorf("a local note counted as fetched: %+v", b)
	}
	if got := calls(); strings.Join(got, " ") != "for-each-ref" { // no ref moved: no rev-list either
		t.Errorf("git run for a fetch that moved nothing: %v", got)
	}
}

// A fetch set up to write refs/notes/convo directly (no tracking ref)
// moves it: that counts.
func TestDirectNotesFetchRechecks(t *testing.T) {
	c := newClones(t)
	c.git(c.down, "config", "--add", "remote.origin.fetch", "+refs/notes/convo*:refs/notes/convo*")
	c.git(c.down, "fetch", "-q")
	if _, err := Take(context.Background(), c.down, c.downCommon, 10, convoNotes); err != nil {
		t.Fatal(err)
	}
	made := c.commits(2)
	c.git(c.up, "notes", "--ref=convo", "add", "-m", "{}", made[1])
	c.git(c.up, "push", "-q", "origin", "refs/notes/convo")
	c.git(c.down, "fetch", "-q")
	b, err := Take(context.Background(), c.down, c.downCommon, 1, convoNotes)
	if err != nil || strings.Join(b.Commits, " ") != made[0] || strings.Join(b.Recheck, " ") != c.git(c.down, "rev-parse", "origin/main~2") || b.Left != 1 {
		t.Errorf("a fetch straight into refs/notes/convo: %+v %v (made %v)", b, err, made)
	}
}
