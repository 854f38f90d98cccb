package gitx

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// testRepo is a real repository with an isolated configuration.
type testRepo struct {
	t   *testing.T
	dir string
	env []string
}

func newTestRepo(t *testing.T, initArgs ...string) *testRepo {
	t.Helper()
	home := t.TempDir()
	cfg := filepath.Join(home, "gitconfig")
	os.WriteFile(cfg, []byte("[user]\n\tname = Zoë Tester\n\temail = zoe@example.com\n[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n"), 0o644)
	r := &testRepo{t: t, dir: filepath.Join(t.TempDir(), "a repo"), env: append(os.Environ(), "HOME="+home, "GIT_CONFIG_GLOBAL="+cfg, "GIT_CONFIG_NOSYSTEM=1")}
	os.MkdirAll(r.dir, 0o755)
	r.git(append([]string{"init", "-q"}, initArgs...)...)
	return r
}

func (r *testRepo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = r.dir, r.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func (r *testRepo) write(rel, body string) {
	p := filepath.Join(r.dir, rel)
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, []byte(body), 0o644)
}

func (r *testRepo) open() *Repo {
	r.t.Helper()
	// The test's isolated config must reach the git processes gitx runs.
	for _, kv := range r.env[len(os.Environ()):] {
		k, v, _ := strings.Cut(kv, "=")
		r.t.Setenv(k, v)
	}
	repo, err := Open(context.Background(), r.dir, false)
	if err != nil {
		r.t.Fatal(err)
	}
	return repo
}

func TestReadCommitGoGitAgreesWithCLI(t *testing.T) {
	r := newTestRepo(t)
	r.write("README.md", "x\n")
	r.write("dir with space/ünï.go", "package x\n")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "root commit\n\nwith a body")
	r.write("README.md", "y\n")
	r.git("mv", "dir with space/ünï.go", "renamed.go")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "rename and edit")
	r.git("checkout", "-q", "-b", "side", "HEAD~1")
	r.write("side.txt", "s\n")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "side")
	r.git("checkout", "-q", "main")
	r.git("merge", "-q", "--no-ff", "-m", "merge side", "side")
	repo := r.open()
	ctx := context.Background()
	want := map[string][]string{
		"HEAD~1~1": {"README.md", "dir with space/ünï.go"},
		"HEAD~1":   {"README.md", "dir with space/ünï.go", "renamed.go"},
		"HEAD":     {"side.txt"},
	}
	for rev, files := range want {
		hash := r.git("rev-parse", rev)
		viaGoGit, err := repo.readCommitGoGit(hash)
		if err != nil {
			t.Fatal(rev, err)
		}
		viaCLI, err := repo.readCommitCLI(ctx, hash)
		if err != nil {
			t.Fatal(rev, err)
		}
		if !reflect.DeepEqual(viaGoGit.Files, files) || !reflect.DeepEqual(viaCLI.Files, files) {
			t.Errorf("%s files: go-git %q, CLI %q, want %q", rev, viaGoGit.Files, viaCLI.Files, files)
		}
		viaGoGit.AuthorTime, viaCLI.AuthorTime = viaGoGit.AuthorTime.UTC(), viaCLI.AuthorTime.UTC()
		viaGoGit.CommitTime, viaCLI.CommitTime = viaGoGit.CommitTime.UTC(), viaCLI.CommitTime.UTC()
		if !reflect.DeepEqual(viaGoGit, viaCLI) {
			t.Errorf("%s: go-git %+v\nCLI %+v", rev, viaGoGit, viaCLI)
		}
	}
	head, _ := repo.readCommitGoGit("HEAD")
	if head.Branch != "main" || len(head.Parents) != 2 || head.Author != "Zoë Tester <zoe@example.com>" {
		t.Errorf("HEAD = %+v", head)
	}
	root, _ := repo.ReadCommit(ctx, "HEAD~1~1")
	if root.Subject != "root commit" || root.Body != "with a body" || root.Branch != "" {
		t.Errorf("root = %+v", root)
	}
}

func TestSHA256RepoFallsBackToCLI(t *testing.T) {
	r := newTestRepo(t, "--object-format=sha256")
	r.write("a.txt", "a\n")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "sha256 commit")
	repo := r.open()
	c, err := repo.ReadCommit(context.Background(), "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Hash) != 64 || c.Subject != "sha256 commit" || !reflect.DeepEqual(c.Files, []string{"a.txt"}) || repo.ObjectFormat != "sha256" {
		t.Errorf("sha256 commit = %+v", c)
	}
	hashes, err := repo.RevParse(context.Background(), "HEAD")
	if err != nil || hashes[0] != c.Hash {
		t.Errorf("RevParse = %v %v", hashes, err)
	}
}

func TestWorktreeSharesCommonDir(t *testing.T) {
	r := newTestRepo(t)
	r.write("a", "a")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "one")
	wt := filepath.Join(t.TempDir(), "wt")
	r.git("worktree", "add", "-q", wt)
	main := r.open()
	other, err := Open(context.Background(), wt, false)
	if err != nil {
		t.Fatal(err)
	}
	if main.CommonDir != other.CommonDir || main.TopLevel == other.TopLevel {
		t.Errorf("main %+v, worktree %+v", main, other)
	}
	for _, dir := range []string{main.TopLevel, wt} {
		loc, ok := FindRepoForPath(filepath.Join(dir, "sub", "new-file.go"))
		real1, _ := filepath.EvalSymlinks(loc.CommonDir)
		real2, _ := filepath.EvalSymlinks(main.CommonDir)
		if !ok || real1 != real2 || loc.TopLevel != dir {
			t.Errorf("FindRepoForPath in %s = %+v, %v", dir, loc, ok)
		}
	}
	if _, ok := FindRepoForPath("/"); ok {
		t.Error("/ is in no repository")
	}
	c, err := other.ReadCommit(context.Background(), "HEAD")
	if err != nil || c.Subject != "one" {
		t.Errorf("ReadCommit in a worktree: %+v %v", c, err)
	}
}

func TestRevParseErrors(t *testing.T) {
	r := newTestRepo(t)
	r.write("a", "a")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "one")
	repo := r.open()
	if _, err := repo.RevParse(context.Background(), "nope"); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("bad revision: %v", err)
	}
	if _, err := Open(context.Background(), t.TempDir(), false); err == nil || !strings.Contains(err.Error(), "not a git repository") {
		t.Errorf("outside a repository: %v", err)
	}
}

func TestBlameMatchesGit(t *testing.T) {
	r := newTestRepo(t)
	r.write("f.go", "one\ntwo\nthree\n")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "first")
	r.write("f.go", "one\n\tTWO with tab\r\nthree\nfour\n")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "second")
	r.write("f.go", "one\n\tTWO with tab\r\nthree\nfour\nuncommitted\n")
	repo := r.open()
	ctx := context.Background()
	lines, err := repo.Blame(ctx, BlameOptions{Path: "f.go"})
	if err != nil {
		t.Fatal(err)
	}
	first, second := r.git("rev-parse", "HEAD~1"), r.git("rev-parse", "HEAD")
	wantCommits := []string{first, second, first, second, strings.Repeat("0", 40)}
	if len(lines) != 5 {
		t.Fatalf("%d lines", len(lines))
	}
	for i, l := range lines {
		if l.Line != i+1 || l.Commit != wantCommits[i] {
			t.Errorf("line %d: %+v, want commit %s", i+1, l, wantCommits[i])
		}
	}
	if lines[1].Text != "\tTWO with tab" || lines[0].Author != "Zoë Tester" || lines[0].Summary != "first" || lines[0].Filename != "f.go" {
		t.Errorf("details: %+v %+v", lines[0], lines[1])
	}
	ranged, err := repo.Blame(ctx, BlameOptions{Rev: "HEAD~1", Path: "f.go", Ranges: []string{"2,3"}})
	if err != nil || len(ranged) != 2 || ranged[0].Line != 2 || ranged[0].Commit != first || !ranged[0].Boundary {
		t.Errorf("-L 2,3 at HEAD~1: %+v %v", ranged, err)
	}
	if _, err := repo.Blame(ctx, BlameOptions{Path: "missing.go"}); err == nil || !strings.Contains(err.Error(), "missing.go") {
		t.Errorf("missing file: %v", err)
	}
}

func TestStreamLog(t *testing.T) {
	r := newTestRepo(t)
	for i := range 30 {
		r.write("f", strings.Repeat("x", i+1))
		r.git("add", "-A")
		r.git("commit", "-q", "-m", "commit "+string(rune('A'+i%26)))
	}
	r.write("other", "o")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "other file")
	repo := r.open()
	ctx := context.Background()
	all, err := repo.LogCommits(ctx, nil, LogOptions{})
	if err != nil || len(all) != 31 || all[0].Subject != "other file" {
		t.Fatalf("log: %d commits, %v", len(all), err)
	}
	var seen int
	if err := repo.StreamLog(ctx, nil, LogOptions{}, func(Commit) bool { seen++; return seen < 5 }); err != nil || seen != 5 {
		t.Errorf("early stop: %d seen, %v", seen, err)
	}
	limited, _ := repo.LogCommits(ctx, []string{"-n", "3", "--format=%s", "--", "f"}, LogOptions{})
	if len(limited) != 3 || limited[0].Subject != "commit D" {
		t.Errorf("-n 3 -- f: %+v", limited)
	}
	if _, err := repo.LogCommits(ctx, []string{"--bogus-option"}, LogOptions{}); err == nil {
		t.Error("a bad git log option should fail")
	}
}

func TestParseBlameMalformed(t *testing.T) {
	for _, in := range []string{"\tcontent first\n", strings.Repeat("a", 40) + "\n", ""} {
		_, _ = ParseBlame(strings.NewReader(in)) // must not panic
	}
}

func FuzzParseBlame(f *testing.F) {
	h := strings.Repeat("ab", 20)
	f.Add(h + " 1 1 1\nauthor A\nauthor-time 5\nsummary s\nfilename f\n\tline\n")
	f.Add(h + " 1 1\n\tx\r\n" + h + " 2 2\nboundary\n\ty\n")
	f.Fuzz(func(t *testing.T, in string) {
		lines, err := ParseBlame(strings.NewReader(in))
		if err == nil {
			for _, l := range lines {
				if l.Commit == "" {
					t.Fatal("a line without a commit")
				}
			}
		}
	})
}

func TestConfigAndColor(t *testing.T) {
	r := newTestRepo(t)
	r.git("config", "convo.window", "7")
	r.git("config", "convo.threshold", "0.3")
	r.git("config", "color.ui", "never")
	repo := r.open()
	ctx := context.Background()
	values, err := ConfigRegexp(ctx, r.dir, `^convo\.`)
	if err != nil || values["convo.window"] != "7" || values["convo.threshold"] != "0.3" || len(values) != 2 {
		t.Errorf("config = %v, %v", values, err)
	}
	none, err := ConfigRegexp(ctx, r.dir, `^nothing\.`)
	if err != nil || len(none) != 0 {
		t.Errorf("no keys: %v %v", none, err)
	}
	if on, ok := repo.ColorBool(ctx, "color.convo", true); !ok || on {
		t.Errorf("color.ui=never: on=%v ok=%v", on, ok)
	}
	r.git("config", "color.convo", "always")
	if on, _ := repo.ColorBool(ctx, "color.convo", false); !on {
		t.Error("color.convo=always should win")
	}
}

func BenchmarkReadCommit1000Files(b *testing.B) {
	dir := b.TempDir()
	run := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=b", "GIT_AUTHOR_EMAIL=b@b", "GIT_COMMITTER_NAME=b", "GIT_COMMITTER_EMAIL=b@b")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v %s", err, out)
		}
	}
	run("init", "-q")
	for i := range 1000 {
		p := filepath.Join(dir, "pkg", string(rune('a'+i%20)), "file"+strings.Repeat("x", i%5)+string(rune('a'+i/40))+string(rune('a'+i%26))+".go")
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("package x\n"), 0o644)
	}
	run("add", "-A")
	run("commit", "-q", "-m", "big")
	repo, err := Open(context.Background(), dir, false)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := repo.ReadCommit(context.Background(), "HEAD"); err != nil {
			b.Fatal(err)
		}
	}
}

func TestAddedLines(t *testing.T) {
	r := newTestRepo(t)
	r.write("a.go", "one\ntwo\nthree\n")
	r.write("sp ace.go", "x\n")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "root")
	r.write("a.go", "one\nTWO\nthree\nfour\n")
	r.git("rm", "-q", "sp ace.go")
	r.write("new.go", "n1\n\nn3\n")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "second")
	repo := r.open()
	ctx := context.Background()
	for rev, want := range map[string]map[string][]AddedLine{
		"HEAD~1": {"a.go": {{1, "one"}, {2, "two"}, {3, "three"}}, "sp ace.go": {{1, "x"}}},
		"HEAD":   {"a.go": {{2, "TWO"}, {4, "four"}}, "new.go": {{1, "n1"}, {2, ""}, {3, "n3"}}},
	} {
		c, err := repo.ReadCommit(ctx, rev)
		if err != nil {
			t.Fatal(err)
		}
		got, err := repo.AddedLines(ctx, c)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %v %v, want %v", rev, got, err, want)
		}
	}
}

func TestStreamLogFiles(t *testing.T) {
	r := newTestRepo(t)
	r.write("a.go", "a")
	r.write("dir/b c.go", "b")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "two files")
	r.write("a.go", "a2")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "one file")
	repo := r.open()
	got, err := repo.LogCommits(context.Background(), nil, LogOptions{Files: true})
	if err != nil || len(got) != 2 {
		t.Fatal(got, err)
	}
	if !reflect.DeepEqual(got[0].Files, []string{"a.go"}) || !reflect.DeepEqual(got[1].Files, []string{"a.go", "dir/b c.go"}) ||
		got[0].Subject != "one file" || got[0].CommitTime.IsZero() {
		t.Errorf("%+v", got)
	}
}
