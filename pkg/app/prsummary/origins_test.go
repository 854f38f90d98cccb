package prsummary

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/git/gitx"
)

// TestOriginsAsBlame: on a generated linear history of random edits (and a
// rename), the origins the one pass over the range's patches gives every
// added line of the range's diff are git blame's, with the range's commits
// given (base..head) and read (base is not the merge base).
func TestOriginsAsBlame(t *testing.T) {
	t.Setenv("GIT_CONFIG_GLOBAL", "/dev/null")
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	ctx := context.Background()
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	rng := rand.New(rand.NewSource(11))
	n := 0
	line := func() string { n++; return fmt.Sprintf("line %d%s\n", n, strings.Repeat(" x", rng.Intn(3))) }
	files := map[string][]string{}
	for _, f := range []string{"a.go", "b.go", "dir/c.go"} {
		for range 25 {
			files[f] = append(files[f], line())
		}
	}
	names := []string{"a.go", "b.go", "dir/c.go"}
	write := func(msg string) {
		for _, name := range names {
			os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
			os.WriteFile(filepath.Join(dir, name), []byte(strings.Join(files[name], "")), 0o644)
		}
		git(t, dir, "add", "-A")
		git(t, dir, "commit", "-q", "--allow-empty", "-m", msg)
	}
	write("base")
	git(t, dir, "checkout", "-q", "-b", "feature")
	for c := range 30 {
		if c == 12 { // a rename with a small change
			files["dir/d.go"] = append([]string{line()}, files["b.go"]...)
			delete(files, "b.go")
			os.Remove(filepath.Join(dir, "b.go"))
			names = []string{"a.go", "dir/c.go", "dir/d.go"}
		}
		for _, name := range names {
			// Up to three random edits a file: lines added, one taken out,
			// one changed.
			for k := rng.Intn(4); k > 0; k-- {
				ls := files[name]
				i := rng.Intn(len(ls) + 1)
				op := rng.Intn(3)
				if op == 0 {
					files[name] = slices.Insert(ls, i, line(), "}\n")
				} else if i < len(ls) && op == 1 {
					files[name] = slices.Delete(ls, i, i+1)
				} else if i < len(ls) {
					ls[i] = line()
				}
			}
		}
		write(fmt.Sprint(c))
	}
	git(t, dir, "checkout", "-q", "main")
	commitFile(t, dir, "other.go", "package other\n", "main moves on")
	git(t, dir, "checkout", "-q", "feature")
	repo, err := gitx.Open(ctx, dir, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"main~1..feature"}, {"main..feature"}} {
		rg, err := resolveRange(ctx, repo, args)
		if err != nil {
			t.Fatal(err)
		}
		var commits []gitx.Commit
		if err := repo.StreamLog(ctx, []string{"^" + rg.base, rg.head}, gitx.LogOptions{}, func(c gitx.Commit) bool {
			commits = append(commits, c)
			return true
		}); err != nil {
			t.Fatal(err)
		}
		hunks, got, err := originsOf(ctx, repo, rg, commits)
		if err != nil {
			t.Fatal(err)
		}
		want, err := blameAdded(ctx, repo, rg.mergeBase, rg.head, hunks)
		if err != nil {
			t.Fatal(err)
		}
		lines := 0
		for _, h := range hunks {
			for _, al := range h.Added {
				lines++
				g, gok := got[h.Path][al.Line]
				w, wok := want[h.Path][al.Line]
				if gok != wok || g.Commit != w.Commit || g.Filename != w.Filename || g.OrigLine != w.OrigLine {
					t.Errorf("%v %s:%d: carried %v %s %s:%d, blame %v %s %s:%d", args, h.Path, al.Line,
						gok, g.Commit, g.Filename, g.OrigLine, wok, w.Commit, w.Filename, w.OrigLine)
				}
			}
		}
		if lines < 50 {
			t.Fatalf("%v: only %d added lines", args, lines)
		}
	}
}
