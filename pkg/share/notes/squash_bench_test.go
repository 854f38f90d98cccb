package notes

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/trace"
)

// squashBenchRepo is a real-shaped history: 1,000 commits on main, each
// adding a Go function (with the usual "if err != nil", "return err",
// "return nil" and braces) to one of 40 files of one package; the 300
// commits before the last 200 carry notes whose evidence is their
// function; then a feature commit with a note, squashed onto main.
func squashBenchRepo(b *testing.B) (Git, string) {
	b.Helper()
	g := Git{Dir: b.TempDir(), Env: gitEnv(b)}
	git(b, g, "", "init", "-q")
	const n, files = 1000, 40
	var s strings.Builder
	bodies := make([]string, files)
	fn := func(name string, i int) string {
		return fmt.Sprintf("\nfunc %s(ctx context.Context) error {\n\tif err := step%d(ctx); err != nil {\n\t\treturn err\n\t}\n\tlog.Printf(\"%s done %d\")\n\treturn nil\n}\n", name, i, name, i)
	}
	for i := 0; i < files; i++ {
		bodies[i] = "package p\n\nimport (\n\t\"context\"\n\t\"log\"\n)\n"
	}
	for i := 1; i <= n; i++ {
		f := i % files
		bodies[f] += fn(fmt.Sprintf("F%d", i), i)
		fmt.Fprintf(&s, "commit refs/heads/main\nmark :%d\ncommitter T <t@example.com> %d +0000\ndata 2\nc\n", i, 1700000000+60*i)
		if i > 1 {
			fmt.Fprintf(&s, "from :%d\n", i-1)
		}
		fmt.Fprintf(&s, "M 100644 inline p/f%d.go\ndata %d\n%s\n", f, len(bodies[f]), bodies[f])
	}
	git(b, g, s.String(), "fast-import", "--quiet")
	hashes := strings.Fields(git(b, g, "", "rev-list", "--reverse", "main"))
	recs := map[string]*trace.Record{}
	for i := 500; i < 800; i++ {
		lines := strings.Split(fn(fmt.Sprintf("F%d", i+1), i+1), "\n")
		recs[hashes[i]] = benchEvidenced(hashes[i], fmt.Sprintf("conv-%d", i), fmt.Sprintf("p/f%d.go", (i+1)%files), lines)
	}
	// The agent's branch, from 150 commits back, squashed onto main.
	git(b, g, "", "branch", "feature", hashes[n-150])
	wt := Git{Dir: g.Dir, Env: g.Env}
	git(b, wt, "", "checkout", "-q", "feature")
	agentFn := "\nfunc RateLimit(ctx context.Context, n int) error {\n\tif n > maxBurst {\n\t\treturn errTooMany\n\t}\n\tbucket.Take(ctx, n)\n\treturn nil\n}\n"
	body := git(b, g, "", "show", "HEAD:p/f7.go") + "\n" + agentFn
	if err := os.WriteFile(filepath.Join(g.Dir, "p", "f7.go"), []byte(body), 0o644); err != nil {
		b.Fatal(err)
	}
	git(b, g, "", "add", "p/f7.go")
	env := append(append([]string{}, g.Env...), "GIT_COMMITTER_DATE=1800000000 +0000")
	git(b, Git{Dir: g.Dir, Env: env}, "", "commit", "-q", "-m", "agent")
	agent := git(b, g, "", "rev-parse", "HEAD")
	recs[agent] = benchEvidenced(agent, "conv-agent", "p/f7.go", strings.Split(agentFn, "\n"))
	if _, err := g.Write(context.Background(), recs, "clone-a", "m"); err != nil {
		b.Fatal(err)
	}
	env = append(append([]string{}, g.Env...), "GIT_COMMITTER_DATE=1800000100 +0000")
	squash := git(b, Git{Dir: g.Dir, Env: env}, "", "commit-tree", "feature^{tree}", "-p", "main", "-m", "squash")
	git(b, g, "", "update-ref", "refs/heads/main", squash)
	return g, squash
}

func benchEvidenced(commit, conv, path string, lines []string) *trace.Record {
	in := trace.Input{Commit: commit, Time: time.Unix(1700000000, 0), Writer: "clone-a",
		Added: map[string][]gitx.AddedLine{}, Writers: map[string]map[int]string{path: {}},
		Links: []trace.Link{{ID: conv, Title: conv, Confidence: 1, Status: "auto"}}}
	for i, l := range lines {
		in.Added[path] = append(in.Added[path], gitx.AddedLine{Line: i + 1, Text: l})
		in.Writers[path][i+1] = conv
	}
	r := trace.Build(in)
	return &r
}

// BenchmarkSquashesIn200 examines main's last 200 commits (none with a
// note, every one sharing "return nil" and braces with 300 notes).
func BenchmarkSquashesIn200(b *testing.B) {
	g, squash := squashBenchRepo(b)
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		got, err := g.SquashesIn(ctx, []string{"main"}, BuildOptions{Writer: "w"})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(got)), "squashes")
		if _, ok := got[squash]; !ok {
			b.Fatalf("the squash is not recognised: %d records", len(got))
		}
	}
}
