package accuracy

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// Sizes: the defaults keep the test near a minute on a loaded 2-core
// machine; scripts/bench.sh runs it bigger.
var (
	flagCommits  = flag.Int("accuracy.commits", 2000, "commits of background history")
	flagFiles    = flag.Int("accuracy.files", 60, "Go files in the background history (at least 37)")
	flagDepth    = flag.Int("accuracy.depth", 120, "commits of main (from HEAD) whose links are checked")
	flagFindings = flag.Bool("accuracy.findings", false, "also play, and fail on, the scenarios of known findings (scenarios_test.go)")
)

// reportOnly prints the table without failing on the goals: to measure a
// "before".
const reportOnlyEnv = "GIT_CONVO_ACCURACY_REPORT_ONLY"

// keepEnv names a directory where the scenarios' repositories are kept.
const keepEnv = "GIT_CONVO_ACCURACY_KEEP"

// binDir holds the git-convo binary TestMain builds; set before any test
// runs, only read after.
var binDir string

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "git-convo-accuracy-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, name := range []string{"git-convo", "git-convo-mcp"} {
		cmd := exec.Command("go", "build", "-tags", "urfave_cli_no_docs", "-o", filepath.Join(dir, name), "github.com/git-convo/git-convo/cmd/"+name)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "building %s: %v\n%s", name, err, out)
			os.RemoveAll(dir)
			os.Exit(1)
		}
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type row struct {
	scenario, clone string
	score
}

// TestAccuracy plays every scenario on the generated history and prints,
// per scenario and clone, precision, recall and commits wrongly claimed; it
// fails on the goals of issue 22 unless GIT_CONVO_ACCURACY_REPORT_ONLY=1.
func TestAccuracy(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX hooks")
	}
	if *flagFiles < 37 {
		t.Fatalf("-accuracy.files=%d: the scenarios need at least 37", *flagFiles)
	}
	start := time.Now()
	root := t.TempDir()
	if keep := os.Getenv(keepEnv); keep != "" {
		// To look at the repositories afterwards (git convo show, doctor...).
		root = filepath.Join(keep, start.Format("20060102-150405"))
		t.Logf("the repositories stay in %s", root)
	}
	base := filepath.Join(root, "base.git")
	importer := newUser(t, root, "importer", "Importer", "importer@example.com")
	bg, err := importHistory(importer, base, *flagCommits, *flagFiles, start.AddDate(0, -3, 0))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("background: %d commits over %d files in %v", *flagCommits, *flagFiles, time.Since(start).Round(time.Millisecond))

	var mu sync.Mutex
	rows := make([][]row, len(scenarios))
	t.Run("scenarios", func(t *testing.T) {
		for i, sc := range scenarios {
			t.Run(strings.ReplaceAll(sc.name, " ", "_"), func(t *testing.T) {
				if f := findings[sc.name]; f != "" && !*flagFindings && os.Getenv(reportOnlyEnv) != "1" {
					t.Skipf("a known finding, played with -accuracy.findings or %s=1: %s", reportOnlyEnv, f)
				}
				t.Parallel()
				began := time.Now()
				dir := filepath.Join(root, fmt.Sprintf("s%d", i))
				w := newWorld(t, dir, base, bg)
				sc.play(w)
				mine := w.measure(w.me, w.mine.dir, w.mine.files, *flagDepth)
				mate, mateDir := w.teammate()
				theirs := w.measure(mate, mateDir, w.mine.files, *flagDepth)
				got := []row{{sc.name, "agent's", mine}, {sc.name, "teammate's", theirs}}
				for _, b := range w.mates {
					// A teammate who rewrote the agent's commits, up to date.
					b.u.git(b.dir, "checkout", "-q", "main")
					b.u.git(b.dir, "pull", "-q", "--ff-only")
					got = append(got, row{sc.name, "rewriter's", w.measure(b.u, b.dir, w.mine.files, *flagDepth)})
				}
				for _, r := range got {
					for _, n := range r.notes {
						t.Logf("%s clone: %s", r.clone, n)
					}
				}
				t.Logf("played and measured in %v", time.Since(began).Round(time.Millisecond))
				mu.Lock()
				rows[i] = got
				mu.Unlock()
			})
		}
	})
	var all []row
	for _, r := range rows {
		all = append(all, r...)
	}
	table := markdown(all)
	fmt.Printf("\nAttribution accuracy: %d background commits, %d files, links of the last %d commits of main; %v in all\n\n%s\n",
		*flagCommits, *flagFiles, *flagDepth, time.Since(start).Round(time.Second), table)
	if os.Getenv(reportOnlyEnv) == "1" {
		return
	}
	for _, r := range all {
		for _, f := range r.failures() {
			t.Errorf("%s, %s clone: %s", r.scenario, r.clone, f)
		}
	}
}

// failures are the goals of issue 22 the row misses.
func (r row) failures() []string {
	var out []string
	for _, m := range []struct {
		name string
		l    lineScore
	}{{"at HEAD", r.head}, {"in the commits", r.commits}} {
		if p, ok := m.l.precision(); ok && p < 1 {
			out = append(out, fmt.Sprintf("precision %s %.3f (%d of %d lines given to a conversation that did not write them), want 1.000", m.name, p, m.l.wrong, m.l.given))
		}
		if rc, ok := m.l.recall(); ok && rc < 0.99 {
			out = append(out, fmt.Sprintf("recall %s %.3f (%d of %d agents' lines given to their conversation), want >= 0.99", m.name, rc, m.l.found, m.l.truth))
		}
		if m.l.toPerson > 0 {
			out = append(out, fmt.Sprintf("%d of %d agents' lines %s given to a person, want 0", m.l.toPerson, m.l.truth, m.name))
		}
	}
	if r.wrongCommits > 0 {
		out = append(out, fmt.Sprintf("%d commits wrongly claimed, want 0", r.wrongCommits))
	}
	return out
}

func ratio(v float64, ok bool) string {
	if !ok {
		return "–"
	}
	return fmt.Sprintf("%.3f", v)
}

// markdown is the table docs/linking.md keeps, with a total per clone.
func markdown(rows []row) string {
	var b strings.Builder
	b.WriteString("| scenario | clone | precision at HEAD | recall at HEAD | precision in commits | recall in commits | lines wrongly given (HEAD / commits) | agents' lines given to a person (HEAD / commits) | commits wrongly claimed | links that say \"0 lines\" | text blame ≠ --json (lines) |\n")
	b.WriteString("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	clones := []string{"agent's", "teammate's", "rewriter's"}
	totals := map[string]*score{}
	line := func(name, clone string, s score) {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %d / %d | %d / %d | %d | %d | %d |\n", name, clone,
			ratio(s.head.precision()), ratio(s.head.recall()), ratio(s.commits.precision()), ratio(s.commits.recall()),
			s.head.wrong, s.commits.wrong, s.head.toPerson, s.commits.toPerson, s.wrongCommits, s.overlapOnly, s.viewsDisagree)
	}
	for _, r := range rows {
		line(r.scenario, r.clone, r.score)
		if totals[r.clone] == nil {
			totals[r.clone] = &score{}
		}
		totals[r.clone].add(r.score)
	}
	for _, c := range clones {
		if totals[c] != nil {
			line("**all**", c, *totals[c])
		}
	}
	return b.String()
}
