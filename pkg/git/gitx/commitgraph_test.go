package gitx

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/git/odb"
	"github.com/go-git/go-git/v5/plumbing"
	commitgraph "github.com/go-git/go-git/v5/plumbing/format/commitgraph/v2"
)

// fastImport adds n commits on main with git fast-import: a straight line,
// a merge every 50th and an octopus of three every 97th, each side branch
// one commit long, made on a branch deleted after.
func (r *testRepo) fastImport(n int) {
	r.t.Helper()
	var b bytes.Buffer
	tip := ""
	if r.commits > 0 {
		tip = r.git("rev-parse", "HEAD")
	}
	base := r.commits + 1
	from := func() string {
		if tip == "" {
			return ""
		}
		return "from " + tip + "\n"
	}
	for i := range n {
		c := base + i
		ts := 1700000000 + c*60
		fmt.Fprintf(&b, "commit refs/heads/side\nmark :%d\ncommitter T <t@example.com> %d +0100\ndata 5\nside\n%s", 3*c+1, ts, from())
		fmt.Fprintf(&b, "commit refs/heads/other\nmark :%d\ncommitter T <t@example.com> %d +0100\ndata 6\nother\n%s", 3*c+2, ts, from())
		fmt.Fprintf(&b, "commit refs/heads/main\nmark :%d\nauthor A <a@example.com> %d -0700\ncommitter T <t@example.com> %d +0100\ndata 9\nchange %d\n%s",
			3*c+3, ts, ts, c%10, from())
		switch {
		case c%97 == 0:
			fmt.Fprintf(&b, "merge :%d\nmerge :%d\n", 3*c+1, 3*c+2)
		case c%50 == 0:
			fmt.Fprintf(&b, "merge :%d\n", 3*c+1)
		}
		fmt.Fprintf(&b, "M 644 inline f\ndata %d\n%d\n", len(fmt.Sprint(c))+1, c)
		tip = fmt.Sprintf(":%d", 3*c+3)
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir, cmd.Stdin = r.dir, &b
	if out, err := cmd.CombinedOutput(); err != nil {
		r.t.Fatalf("fast-import: %v %s", err, out)
	}
	r.commits += n
	// The side branches would decorate and pass for revisions: only main stays.
	r.git("update-ref", "-d", "refs/heads/side")
	r.git("update-ref", "-d", "refs/heads/other")
}

// Walks through the commit-graph (single file, a split chain, commits newer
// than the graph, merges and octopuses) reach the commit git reaches, and
// without a usable graph a walk longer than maxInflatedWalk is git's.
func TestResolveThroughCommitGraph(t *testing.T) {
	ctx := context.Background()
	r := newTestRepo(t)
	const maxInflatedWalk = testInflated
	depth := maxInflatedWalk + 100 // deeper than a walk taken without a graph
	r.fastImport(depth)
	r.git("repack", "-adq")
	revs := func(depth int) []string {
		var out []string
		for _, n := range []int{0, 1, 2, 49, 50, 97, 150, 250, maxInflatedWalk, maxInflatedWalk + 1, 300, depth - 1} {
			if n < depth {
				out = append(out, fmt.Sprintf("HEAD~%d", n), fmt.Sprintf("HEAD~%d^2", n), fmt.Sprintf("HEAD~%d^3", n), fmt.Sprintf("main~%d^2~1", n))
			}
		}
		return append(out, "HEAD^^^", fmt.Sprintf("HEAD~%d", depth), "HEAD~10^2^", "HEAD~3~3~3")
	}
	objects := filepath.Join(r.dir, ".git", "objects")
	check := func(t *testing.T, depth int, graph bool) {
		t.Helper()
		repo, ok := Discover(r.dir, os.Getenv)
		if !ok {
			t.Fatal("Discover declined")
		}
		repo.maxInflated = testInflated
		git := r.open()
		for _, rev := range revs(depth) {
			want, gitErr := git.RevParse(ctx, rev+"^{commit}")
			st := odb.Open(repo.CommonDir)
			got, _, ok := repo.resolveIn(st, rev, true)
			st.Close()
			switch {
			case gitErr != nil && ok:
				t.Errorf("%s: %s in process; git fails: %v", rev, got, gitErr)
			case gitErr == nil && ok && got != want[0]:
				t.Errorf("%s: %s in process, git says %s", rev, got, want[0])
			case gitErr == nil && !ok && graph:
				t.Errorf("%s: declined with a commit-graph; git says %s", rev, want[0])
			}
		}
	}
	t.Run("no graph", func(t *testing.T) {
		check(t, depth, false)
		repo, _ := Discover(r.dir, os.Getenv)
		repo.maxInflated = testInflated
		if h, ok := repo.ResolveInProcess(fmt.Sprintf("HEAD~%d", maxInflatedWalk+1)); ok {
			t.Errorf("a walk past maxInflatedWalk without a graph resolved to %s; git should walk it", h)
		}
	})
	r.git("commit-graph", "write", "--reachable")
	r.fastImport(30) // newer than the graph: read from their objects
	t.Run("one file", func(t *testing.T) { check(t, depth+30, true) })
	os.Remove(filepath.Join(objects, "info", "commit-graph"))
	r.git("commit-graph", "write", "--reachable", "--split=no-merge")
	r.fastImport(30)
	r.git("commit-graph", "write", "--reachable", "--split=no-merge")
	r.fastImport(5)
	if n := len(strings.Fields(readFile(t, filepath.Join(objects, "info", "commit-graphs", "commit-graph-chain")))); n != 2 {
		t.Fatalf("want a chain of 2 graphs, got %d", n)
	}
	t.Run("a chain", func(t *testing.T) { check(t, depth+65, true) })
	// A chain whose files do not match it (a base missing): no graph is
	// read, and the long walks are git's.
	chain := filepath.Join(objects, "info", "commit-graphs", "commit-graph-chain")
	lines := strings.Fields(readFile(t, chain))
	if err := os.WriteFile(chain, []byte(lines[1]+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Run("a broken chain", func(t *testing.T) {
		if g, odd := odb.OpenCommitGraph(objects); g != nil || !odd {
			t.Error("a chain whose base is missing was taken")
		}
		check(t, depth+65, false)
	})
	// A graph whose entry for HEAD~10 names a parent past its end: git
	// dies on every walk through it ("invalid parent position"), and so
	// every one is declined here.
	os.RemoveAll(filepath.Join(objects, "info", "commit-graphs"))
	r.git("commit-graph", "write", "--reachable")
	corruptFirstParent(t, filepath.Join(objects, "info", "commit-graph"), r.git("rev-parse", "HEAD~10"))
	t.Run("an entry out of bounds", func(t *testing.T) {
		check(t, depth+65, false)
		repo, _ := Discover(r.dir, os.Getenv)
		for _, rev := range []string{"HEAD~10", "HEAD~11", "HEAD~300"} {
			if h, ok := repo.ResolveInProcess(rev); ok {
				t.Errorf("%s resolved to %s through a corrupt entry", rev, h)
			}
		}
		if _, ok := repo.ResolveInProcess("HEAD~9"); !ok {
			t.Error("HEAD~9, short of the corrupt entry, was declined")
		}
	})
}

// corruptFirstParent sets the first parent of commit hash in a commit-graph
// file to a position past its end.
func corruptFirstParent(t *testing.T, path, hash string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	chunks := map[string]int{}
	for i := 0; i < int(data[6]); i++ {
		chunks[string(data[8+12*i:12+12*i])] = int(binary.BigEndian.Uint64(data[12+12*i:]))
	}
	n := int(binary.BigEndian.Uint32(data[chunks["OIDF"]+255*4:]))
	want := plumbing.NewHash(hash)
	for i := range n {
		if bytes.Equal(data[chunks["OIDL"]+20*i:chunks["OIDL"]+20*i+20], want[:]) {
			binary.BigEndian.PutUint32(data[chunks["CDAT"]+36*i+20:], uint32(n+5))
			os.Chmod(path, 0o644)
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatalf("%s not in the graph", hash)
}

// ShowInProcess walks through the graph as git does, and leaves a long
// walk to git where core.commitGraph is off.
func TestShowInProcessDeepWithGraph(t *testing.T) {
	ctx := context.Background()
	r := newTestRepo(t)
	long := testInflated + 1 // a walk git takes without the graph
	r.fastImport(long + 100)
	r.git("commit-graph", "write", "--reachable")
	repo, _ := Discover(r.dir, os.Getenv)
	repo.maxInflated = testInflated
	git := r.open()
	octopus := strings.Fields(r.git("rev-list", "--min-parents=3", "HEAD"))
	merge := strings.Fields(r.git("rev-list", "--min-parents=2", "--max-parents=2", "HEAD"))
	for _, rev := range []string{fmt.Sprintf("HEAD~%d", long), octopus[len(octopus)-1] + "^3", merge[len(merge)-1] + "^2", fmt.Sprintf("HEAD~%d", long+99)} {
		settings, _ := LoadSettingsInProcess(r.dir, os.Getenv)
		rec, _, ok := repo.ShowInProcess(rev, settings, false, os.Getenv)
		want, err := git.ShowHeaders(ctx, []string{rev}, false, false)
		if !ok || err != nil || len(want) != 1 || rec.Text != want[0].Text {
			t.Errorf("%s: in process %v %q; git %v %+v", rev, ok, rec.Text, err, want)
		}
	}
	r.git("config", "core.commitGraph", "false")
	settings, _ := LoadSettingsInProcess(r.dir, os.Getenv)
	if _, _, ok := repo.ShowInProcess(fmt.Sprintf("HEAD~%d", long), settings, false, os.Getenv); ok {
		t.Errorf("with core.commitGraph=false a walk of %d was taken in process", long)
	}
}

// testInflated is the tests' bound on a walk inflated (Repo.maxInflated):
// the histories past it stay small.
const testInflated = 512

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A walk of 5,000 first parents through the commit-graph: this reader,
// and go-git's commitgraph/v2 over the file in memory (kept out of the
// code for its cost: see odb/commitgraph.go). And the same walk without a
// graph, each commit inflated.
func BenchmarkCommitGraphWalk(b *testing.B) {
	r := newTestRepo(b)
	r.fastImport(5100)
	r.git("repack", "-adq")
	tip := plumbing.NewHash(r.git("rev-parse", "HEAD"))
	want := r.git("rev-parse", "HEAD~5000")
	objects := filepath.Join(r.dir, ".git", "objects")
	b.Run("inflated", func(b *testing.B) {
		repo, _ := Discover(r.dir, os.Getenv)
		for b.Loop() {
			st := odb.Open(repo.CommonDir)
			if _, _, ok := repo.resolveIn(st, "HEAD~5000", false); !ok {
				b.Fatal("declined")
			}
			st.Close()
		}
	})
	r.git("commit-graph", "write", "--reachable")
	b.Run("own", func(b *testing.B) {
		for b.Loop() {
			g, _ := odb.OpenCommitGraph(objects)
			if h, n, err := g.FirstParents(tip, 5000); err != nil || n != 5000 || h.String() != want {
				b.Fatal(h, n)
			}
			g.Close()
		}
	})
	b.Run("go-git", func(b *testing.B) {
		for b.Loop() {
			data, err := os.ReadFile(filepath.Join(objects, "info", "commit-graph"))
			if err != nil {
				b.Fatal(err)
			}
			idx, err := commitgraph.OpenFileIndex(mapped{bytes.NewReader(data)})
			if err != nil {
				b.Fatal(err)
			}
			i, err := idx.GetIndexByHash(tip)
			for range 5000 {
				c, err := idx.GetCommitDataByIndex(i)
				if err != nil {
					b.Fatal(err)
				}
				i = c.ParentIndexes[0]
			}
			if h, _ := idx.GetHashByIndex(i); err != nil || h.String() != want {
				b.Fatal(h, err)
			}
		}
	})
}

// mapped is a file in memory as go-git's reader takes it.
type mapped struct{ *bytes.Reader }

func (mapped) Close() error { return nil }
