package trace

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/util/testshared"
)

// TestCorpusNoFieldLeaks plants every secret of the redaction corpus
// (../redact/testdata/secrets.jsonl) in every free-text field a record
// shares (agent, model, title, summary, reason, first prompt) and in its
// paths (a matched file, a changed file), and looks for it in the record.
func TestCorpusNoFieldLeaks(t *testing.T) {
	root, err := testshared.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(root, "pkg/share/redact/testdata/secrets.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type planted struct {
		Kind, Text string
		Gone       []string
	}
	var corpus []planted
	for sc := bufio.NewScanner(f); sc.Scan(); {
		var p planted
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		corpus = append(corpus, p)
	}
	fields := map[string]func(l *Link, in *Input, s string){
		"agent":        func(l *Link, _ *Input, s string) { l.Agent = s },
		"model":        func(l *Link, _ *Input, s string) { l.Model = s },
		"model, known": func(l *Link, _ *Input, s string) { l.Model = "claude-sonnet-4 " + s },
		"title":        func(l *Link, _ *Input, s string) { l.Title = s },
		"summary":      func(l *Link, _ *Input, s string) { l.Summary = s },
		"reason":       func(l *Link, _ *Input, s string) { l.Reason = s },
		"first prompt": func(l *Link, _ *Input, s string) { l.FirstPrompt = s },
		"matched file": func(l *Link, _ *Input, s string) { l.MatchedFiles = append(l.MatchedFiles, "/home/me/"+s) },
		"changed file": func(_ *Link, in *Input, s string) {
			in.Added["/Users/me/"+s] = []gitx.AddedLine{{Line: 1, Text: "x"}}
			in.Writers["/Users/me/"+s] = map[int]string{1: "c1"}
		},
	}
	leaks := map[string]int{}
	for _, p := range corpus {
		for name, plant := range fields {
			in := Input{
				Commit: "4c1d8e2a9f0b4c1d8e2a9f0b4c1d8e2a9f0b4c1d", Time: time.Unix(1, 0),
				Added:   map[string][]gitx.AddedLine{"a.go": {{Line: 1, Text: "package a"}}},
				Writers: map[string]map[int]string{"a.go": {1: "c1"}},
				Prompts: true, Root: "/work/repo", Home: "/home/me",
			}
			l := Link{ID: "c1", Agent: "cursor", Model: "gpt-5", Title: "t", Status: "auto", Confidence: 0.9, MatchedFiles: []string{"a.go"}}
			plant(&l, &in, p.Text)
			in.Links = []Link{l}
			b, _ := json.Marshal(Build(in))
			out := string(b)
			for _, g := range p.Gone {
				if strings.Contains(out, g) || strings.Contains(out, strings.ToLower(g)) {
					t.Errorf("%s planted in the %s: %q is shared", p.Kind, name, g)
					leaks[name]++
					break
				}
			}
		}
	}
	t.Logf("%d secret kinds x %d fields: leaks per field %v", len(corpus), len(fields), leaks)
}
