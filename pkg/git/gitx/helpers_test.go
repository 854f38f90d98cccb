package gitx

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// isolate gives the test's git processes (the helpers' and gitx's) a fresh
// HOME and configuration, and clears what an enclosing git (a test run from
// a hook) would have set.
func isolate(t testing.TB) {
	t.Helper()
	home := t.TempDir()
	cfg := filepath.Join(home, "gitconfig")
	body := "[user]\n\tname = Zoë Tester\n\temail = zoe@example.com\n[init]\n\tdefaultBranch = main\n" +
		"[commit]\n\tgpgsign = false\n[protocol \"file\"]\n\tallow = always\n"
	if err := os.WriteFile(cfg, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_CONFIG_GLOBAL", cfg)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	for _, v := range hookVariables() {
		t.Setenv(v.name, "") // restored after the test
		os.Unsetenv(v.name)
	}
	for _, k := range []string{"GIT_PAGER", "PAGER", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
}

// testRepo is a real repository in a directory whose name holds a space.
type testRepo struct {
	t       testing.TB
	dir     string
	commits int // commits made through at, for their dates
}

func newTestRepo(t testing.TB, initArgs ...string) *testRepo {
	t.Helper()
	isolate(t)
	r := &testRepo{t: t, dir: filepath.Join(t.TempDir(), "a repo")}
	if err := os.MkdirAll(r.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	r.git(append([]string{"init", "-q"}, initArgs...)...)
	return r
}

// gitIn runs git in dir and returns its trimmed output.
func gitIn(t testing.TB, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func (r *testRepo) git(args ...string) string {
	r.t.Helper()
	return gitIn(r.t, r.dir, nil, args...)
}

func (r *testRepo) write(rel, body string) {
	r.t.Helper()
	p := filepath.Join(r.dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

// at runs a committing git command (commit, merge) at a known time: each a
// minute after the last, in +02:00.
func (r *testRepo) at(args ...string) string {
	r.t.Helper()
	r.commits++
	date := fmt.Sprintf("@%d +0200", 1700000000+60*r.commits)
	return gitIn(r.t, r.dir, []string{"GIT_AUTHOR_DATE=" + date, "GIT_COMMITTER_DATE=" + date}, args...)
}

// commit stages everything and commits it; it returns the new hash.
func (r *testRepo) commit(msg string) string {
	r.t.Helper()
	r.git("add", "-A")
	r.at("commit", "-q", "--allow-empty", "-m", msg)
	return r.git("rev-parse", "HEAD")
}

func (r *testRepo) open() *Repo {
	r.t.Helper()
	repo, err := Open(context.Background(), r.dir, false)
	if err != nil {
		r.t.Fatal(err)
	}
	return repo
}

// realPath resolves symbolic links (t.TempDir may sit behind one), so paths
// git prints and paths the test built compare.
func realPath(t testing.TB, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// LogCommits is StreamLog collected into a slice (the tests' view of a log).
func (r *Repo) LogCommits(ctx context.Context, userArgs []string, opts LogOptions) ([]Commit, error) {
	var out []Commit
	err := r.StreamLog(ctx, userArgs, opts, func(c Commit) bool {
		out = append(out, c)
		return true
	})
	return out, err
}
