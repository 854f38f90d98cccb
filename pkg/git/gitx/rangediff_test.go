package gitx

import (
	"context"
	"fmt"
	"maps"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/util/testshared"
)

func rdGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=A",
		"GIT_AUTHOR_EMAIL=a@x", "GIT_COMMITTER_NAME=A", "GIT_COMMITTER_EMAIL=a@x")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// carryHistory makes a linear history of random edits over several files
// (a rename, a deletion, a file made again) from the commit base; files
// are head's files.
func carryHistory(t *testing.T) (dir, base string, files map[string][]string) {
	t.Helper()
	dir = t.TempDir()
	rdGit(t, dir, "init", "-q", "-b", "main")
	rng := rand.New(rand.NewSource(7))
	files = map[string][]string{}
	write := func() {
		for name, lines := range files {
			os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
			os.WriteFile(filepath.Join(dir, name), []byte(strings.Join(lines, "")), 0o644)
		}
		rdGit(t, dir, "add", "-A")
	}
	n := 0
	line := func() string { n++; return fmt.Sprintf("line %d %s\n", n, strings.Repeat("x", rng.Intn(3))) }
	for _, f := range []string{"a.go", "b.go", "dir/c.go"} {
		for i := 0; i < 30; i++ {
			files[f] = append(files[f], line())
		}
	}
	write()
	rdGit(t, dir, "commit", "-q", "-m", "base")
	base = rdGit(t, dir, "rev-parse", "HEAD")
	for c := 0; c < 40; c++ {
		switch c {
		case 10: // a rename with a small change
			files["dir/renamed.go"] = append(files["b.go"][:5:5], append([]string{line()}, files["b.go"][5:]...)...)
			delete(files, "b.go")
			os.Remove(filepath.Join(dir, "b.go"))
		case 20:
			delete(files, "a.go")
			os.Remove(filepath.Join(dir, "a.go"))
		case 25:
			files["a.go"] = []string{line(), "}\n", line()}
		}
		// In a fixed order: the seeded rng then makes the same history
		// every run (a map's order would not).
		for _, name := range slices.Sorted(maps.Keys(files)) {
			lines := files[name]
			for k := rng.Intn(4); k > 0; k-- {
				i := rng.Intn(len(lines) + 1)
				switch rng.Intn(3) {
				case 0:
					lines = append(lines[:i], append([]string{line(), "}\n"}, lines[i:]...)...)
				case 1:
					if i < len(lines) {
						lines = append(lines[:i], lines[i+1:]...)
					}
				default:
					if i < len(lines) {
						lines[i] = line()
					}
				}
			}
			files[name] = lines
		}
		write()
		rdGit(t, dir, "commit", "-q", "--allow-empty", "-m", fmt.Sprint(c))
	}
	return dir, base, files
}

// TestCarryLinesMatchesBlame: replaying a linear range's patches gives git
// blame's answer for every line of head: random insertions, deletions and
// changes over several files, a rename, a deletion and a file made again.
func TestCarryLinesMatchesBlame(t *testing.T) {
	dir, base, files := carryHistory(t)
	repo, err := Open(context.Background(), dir, false)
	if err != nil {
		t.Fatal(err)
	}
	carried, linear, err := repo.CarryLines(context.Background(), base, "HEAD")
	if err != nil || !linear {
		t.Fatalf("CarryLines: %v, linear %v", err, linear)
	}
	checked := 0
	for name := range files {
		lines, err := repo.Blame(context.Background(), BlameOptions{Args: []string{base + "..HEAD", "--", name}})
		if err != nil {
			t.Fatal(err)
		}
		owners := carried[name]
		for _, l := range lines {
			var got Origin
			if l.Line-1 < len(owners) {
				got = owners[l.Line-1]
			}
			want := Origin{Commit: l.Commit, Path: l.Filename, Line: l.OrigLine}
			if l.Boundary {
				want = Origin{}
			}
			if got != want {
				t.Errorf("%s:%d: carried %+v, blame %+v", name, l.Line, got, want)
			}
			checked++
		}
	}
	if checked < 100 {
		t.Fatalf("only %d lines checked", checked)
	}
	// A merge in the range: not linear, blame it instead.
	rdGit(t, dir, "checkout", "-q", "-b", "side", "HEAD~1")
	rdGit(t, dir, "commit", "-q", "--allow-empty", "-m", "side")
	rdGit(t, dir, "checkout", "-q", "main")
	rdGit(t, dir, "merge", "-q", "--no-edit", "side")
	if _, linear, err := repo.CarryLines(context.Background(), base, "HEAD"); err != nil || linear {
		t.Errorf("a merge in the range: linear %v, %v", linear, err)
	}
}

// FuzzParseHunks: any input parses without panic, each hunk holds at most
// the lines its header counts, and the replay never panics either.
func FuzzParseHunks(f *testing.F) {
	f.Add("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1,3 @@\n-a\n+b\n+diff --git c\n+d\n")
	f.Add("commit 1\ndiff --git a/x b/y\nrename from x\nrename to y\n@@ -0,0 +1 @@\n+z\n\\ No newline at end of file\n")
	f.Add("commit 1\n--- a/x\n+++ /dev/null\n@@ -1,5 +0,0 @@\n-a\n")
	f.Add("+++ 0\n@@ -88888888888\nstr") // a line no file has: no hunk, nothing allocated for it
	f.Fuzz(func(t *testing.T, s string) {
		hunks, err := ParseHunks(strings.NewReader(s))
		if err != nil {
			return
		}
		for _, h := range hunks {
			if len(h.Added) > h.NewLines {
				t.Fatalf("%d added lines in a hunk of %d", len(h.Added), h.NewLines)
			}
		}
		if _, err := carry(strings.NewReader(s)); err != nil {
			t.Fatal(err)
		}
	})
}

// TestRangeLinesAsTwoCommands: RangeLines' one diff-tree --stdin gives
// what git diff-tree (RangeHunks) and git log -p (CarryLines) give apart:
// the same hunks and the same origins, with the range's commits given or
// read; with a diff.* setting only log honours it runs those two; a merge
// in the range is not linear.
func TestRangeLinesAsTwoCommands(t *testing.T) {
	t.Setenv("GIT_CONFIG_GLOBAL", "/dev/null")
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	ctx := context.Background()
	dir, base, _ := carryHistory(t)
	check := func(t *testing.T, wantPlain bool, merged bool) {
		repo, err := Open(ctx, dir, false)
		if err != nil {
			t.Fatal(err)
		}
		wantHunks, err := repo.RangeHunks(ctx, base, "HEAD")
		if err != nil {
			t.Fatal(err)
		}
		wantFiles, wantLinear, err := repo.CarryLines(ctx, base, "HEAD")
		if err != nil || wantLinear == merged {
			t.Fatalf("CarryLines: linear %v, %v", wantLinear, err)
		}
		head := rdGit(t, dir, "rev-parse", "HEAD")
		var commits []Commit
		if err := repo.StreamLog(ctx, []string{"^" + base, head}, LogOptions{}, func(c Commit) bool {
			commits = append(commits, c)
			return true
		}); err != nil {
			t.Fatal(err)
		}
		for _, given := range [][]Commit{commits, nil} {
			hunks, files, linear, err := repo.RangeLines(ctx, base, head, given)
			if err != nil {
				t.Fatal(err)
			}
			if len(hunks) < 10 || !reflect.DeepEqual(hunks, wantHunks) {
				t.Errorf("commits given %v: %d hunks, want the %d of git diff-tree", given != nil, len(hunks), len(wantHunks))
			}
			if linear != wantLinear || !reflect.DeepEqual(files, wantFiles) {
				t.Errorf("commits given %v: linear %v, %d files carried; want linear %v, %d files as git log -p", given != nil,
					linear, len(files), wantLinear, len(files))
			}
		}
		if repo.diffPlain != wantPlain { // read by RangeLines
			t.Errorf("one diff-tree %v, want %v", repo.diffPlain, wantPlain)
		}
	}
	t.Run("no diff setting: one diff-tree", func(t *testing.T) { check(t, true, false) })
	rdGit(t, dir, "config", "diff.renames", "copies")
	t.Run("diff.renames, which the range does not follow: one diff-tree", func(t *testing.T) { check(t, true, false) })
	rdGit(t, dir, "config", "diff.algorithm", "histogram")
	t.Run("diff.algorithm: the two commands", func(t *testing.T) { check(t, false, false) })
	rdGit(t, dir, "config", "--unset", "diff.algorithm")
	rdGit(t, dir, "checkout", "-q", "-b", "side", "HEAD~1")
	rdGit(t, dir, "commit", "-q", "--allow-empty", "-m", "side")
	rdGit(t, dir, "checkout", "-q", "main")
	rdGit(t, dir, "merge", "-q", "--no-edit", "side")
	t.Run("a merge in the range", func(t *testing.T) { check(t, true, true) })
}

// TestCarryLinesIgnoresSignatures: with log.showSignature in the user's
// config, git log prints the verifier's output before each signed
// commit; the replay (pr's) reads git's patches alone.
func TestCarryLinesIgnoresSignatures(t *testing.T) {
	dir := t.TempDir()
	rdGit(t, dir, "init", "-q", "-b", "main")
	gpg, err := testshared.FakeGPG()
	if err != nil {
		t.Fatal(err)
	}
	rdGit(t, dir, "config", "gpg.program", gpg)
	rdGit(t, dir, "config", "commit.gpgsign", "true")
	body := ""
	for i := range 4 {
		body += fmt.Sprintf("line %d\n", i)
		if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		rdGit(t, dir, "add", "a.go")
		rdGit(t, dir, "commit", "-q", "-m", fmt.Sprint(i))
	}
	base := rdGit(t, dir, "rev-parse", "HEAD~3")
	repo, err := Open(context.Background(), dir, false)
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := repo.CarryLines(context.Background(), base, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	rdGit(t, dir, "config", "log.showSignature", "true")
	if out := rdGit(t, dir, "log", "-1", "--format=%H"); !strings.Contains(out, "verifier") {
		t.Fatalf("the verifier's output should show in git log: %q", out)
	}
	got, linear, err := repo.CarryLines(context.Background(), base, "HEAD")
	if err != nil || !linear || !reflect.DeepEqual(got, want) || len(want["a.go"]) != 4 {
		t.Errorf("with log.showSignature: %v %v\n%+v\nwant %+v", err, linear, got, want)
	}
}
