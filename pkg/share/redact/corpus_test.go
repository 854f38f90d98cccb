package redact

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The redaction corpus (testdata/secrets.jsonl): one line per secret
// shape, the text it is planted in and the fragments of it that must not
// survive. pkg/share/trace and pkg/cli plant the same lines in every shared field.
type planted struct {
	Kind string   `json:"kind"`
	Text string   `json:"text"`
	Gone []string `json:"gone"`
}

func readCorpus(t *testing.T) []planted {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "secrets.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []planted
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var p planted
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatalf("%s: %v", sc.Text(), err)
		}
		out = append(out, p)
	}
	return out
}

// shared is what trace does to a free-text field.
func shared(s string) string { return Text(Paths(s, "/work/repo", "/home/me")) }

func TestCorpusSecretsAreRedacted(t *testing.T) {
	corpus := readCorpus(t)
	leaked := 0
	for _, p := range corpus {
		got := shared(p.Text)
		for _, g := range p.Gone {
			if strings.Contains(got, g) {
				t.Errorf("%s: %q survives in %q", p.Kind, g, got)
				leaked++
				break
			}
		}
		if again := shared(got); again != got {
			t.Errorf("%s: not idempotent: %q then %q", p.Kind, got, again)
		}
	}
	t.Logf("%d of %d planted secrets leaked", leaked, len(corpus))
}

// TestCorpusFalsePositives counts redactions in ordinary text with no
// secret in it (testdata/ordinary: Go and Python code, English prose):
// every one is a false positive. docs/sharing.md publishes the figures.
func TestCorpusFalsePositives(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "ordinary", "*.txt"))
	if len(files) == 0 {
		t.Fatal("no ordinary corpus")
	}
	totalLines, totalMarks := 0, 0
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		marks := 0
		for _, l := range lines {
			if n := strings.Count(shared(l), "[redacted"); n > 0 {
				marks += n
				if testing.Verbose() {
					t.Logf("%s: %q", filepath.Base(name), strings.TrimSpace(l))
				}
			}
		}
		t.Logf("%s: %d redactions in %d lines (%.1f per 1,000 lines)", filepath.Base(name), marks, len(lines), per1000(marks, len(lines)))
		totalLines += len(lines)
		totalMarks += marks
	}
	rate := per1000(totalMarks, totalLines)
	t.Logf("all: %d redactions in %d lines (%.1f per 1,000 lines)", totalMarks, totalLines, rate)
	if rate > maxFalsePositives {
		t.Errorf("%.1f false positives per 1,000 lines; docs/sharing.md promises at most %.1f", rate, maxFalsePositives)
	}
}

// maxFalsePositives bounds redactions per 1,000 lines of the ordinary
// corpus (docs/sharing.md).
const maxFalsePositives = 5.0

func per1000(n, lines int) float64 { return float64(n) * 1000 / float64(max(lines, 1)) }
