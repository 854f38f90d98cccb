package trace

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/trace/tracetest"
	"github.com/git-convo/git-convo/pkg/util/testshared"
)

func sample() Input {
	return Input{
		Commit: "4c1d8e2a9f0b4c1d8e2a9f0b4c1d8e2a9f0b4c1d",
		Time:   time.Date(2026, 11, 22, 14, 3, 11, 0, time.UTC),
		Added: map[string][]gitx.AddedLine{
			"api/limit.go": {{Line: 1, Text: "package api"}, {Line: 2, Text: ""}, {Line: 3, Text: "func Limit() {}"}, {Line: 7, Text: "// by hand"}},
			"docs/x.md":    {{Line: 1, Text: "hello"}},
			"/etc/passwd":  {{Line: 1, Text: "root"}},
			"../outside":   {{Line: 1, Text: "x"}},
		},
		Writers: map[string]map[int]string{"api/limit.go": {1: "c1", 3: "c1"}},
		Links: []Link{
			{ID: "c1", Agent: "cursor", Model: "claude-4.5-sonnet", Title: "Add rate limiting", Summary: "token AKIAIOSFODNN7EXAMPLE in /home/ada/keys",
				FirstPrompt: "please add limits", Status: "auto", Reason: "2 of 3 added lines", Confidence: 0.9,
				MatchedFiles: []string{"api/limit.go", "/home/ada/secret.txt"}, WrittenLines: 2, AddedLines: 3},
			{ID: "c2", Title: "Docs", Status: "manual", Confidence: 1, MatchedFiles: []string{"docs/x.md"}},
		},
		Root: "/work/repo", Home: "/home/ada", ToolVersion: "0.1.0", Writer: "ada@example.com",
	}
}

// A conversation titled by its first prompt (Claude Code with no title
// line) shares no title unless prompts are shared.
func TestBuildTitleFromPrompt(t *testing.T) {
	tests := []struct {
		title, prompt string
		prompts       bool
		want          string
	}{
		{"Deploy with the key in vault/prod", "Deploy with the key in vault/prod", false, ""},
		{"I think we can also remove the whole logic around strategiesBlockingMain() and …", "I think we can also remove the whole logic around strategiesBlockingMain() and  its callers\nthanks", false, ""},
		{"Deploy with the key in vault/prod", "Deploy with the key in vault/prod", true, "Deploy with the key in vault/prod"},
		{"Add rate limiting", "please add limits", false, "Add rate limiting"},
		{"Add rate limiting", "", false, "Add rate limiting"},
	}
	for _, tt := range tests {
		in := sample()
		in.Prompts = tt.prompts
		in.Links = []Link{{ID: "c1", Title: tt.title, FirstPrompt: tt.prompt, Status: "auto", Confidence: 0.9}}
		rec := Build(in)
		meta, _ := rec.Meta()
		if got := meta.Conversations["c1"].Title; got != tt.want {
			t.Errorf("title %q, prompt %q, prompts %v: shared title %q, want %q", tt.title, tt.prompt, tt.prompts, got, tt.want)
		}
	}
}

func TestBuild(t *testing.T) {
	r := Build(sample())
	if err := Check(r); err != nil {
		t.Fatal(err)
	}
	if r.VCS.Revision != sample().Commit || r.Timestamp != "2026-11-22T14:03:11Z" {
		t.Errorf("vcs/timestamp: %+v %s", r.VCS, r.Timestamp)
	}
	if len(r.Files) != 2 {
		t.Fatalf("files: %+v (paths outside the repository must be left out)", r.Files)
	}
	api := r.Files[0]
	if api.Path != "api/limit.go" || len(api.Conversations) != 2 {
		t.Fatalf("api file: %+v", api)
	}
	ai, human := api.Conversations[1], api.Conversations[0]
	if ai.Contributor.Type != "ai" || ai.Contributor.ModelID != "anthropic/claude-4.5-sonnet" || ai.URL != ConversationURL("c1") {
		t.Errorf("ai entry: %+v %+v", ai, ai.Contributor)
	}
	if len(ai.Ranges) != 1 || ai.Ranges[0].StartLine != 1 || ai.Ranges[0].EndLine != 3 || !strings.HasPrefix(ai.Ranges[0].ContentHash, "fnv1a64:") {
		t.Errorf("ai ranges (the blank line 2 inside the run belongs to it): %+v", ai.Ranges)
	}
	if human.Contributor.Type != "human" || human.Ranges[0].StartLine != 7 {
		t.Errorf("human entry: %+v", human)
	}
	docs := r.Files[1]
	if docs.Conversations[0].Contributor.Type != "mixed" || ConversationID(docs.Conversations[0].URL) != "c2" {
		t.Errorf("a conversation linked on a file without line evidence is mixed: %+v", docs.Conversations[0])
	}
	m, ok := r.Meta()
	if !ok || m.Format != Format || m.Writer != "ada@example.com" {
		t.Fatalf("meta: %+v", m)
	}
	c1 := m.Conversations["c1"]
	if c1.Title != "Add rate limiting" || c1.FirstPrompt != "" || c1.Confidence != 0.9 {
		t.Errorf("c1 meta: %+v (no prompt unless asked)", c1)
	}
	if strings.Contains(c1.Summary, "AKIA") || strings.Contains(c1.Summary, "/home/ada") {
		t.Errorf("summary not scrubbed: %q", c1.Summary)
	}
	if len(c1.MatchedFiles) != 1 {
		t.Errorf("matched files outside the repository are shared: %v", c1.MatchedFiles)
	}
	if len(m.Evidence) != 1 || len(m.Evidence[0].Lines) != 2 || m.Evidence[0].Lines[0] != LineHash("package api") {
		t.Errorf("evidence: %+v", m.Evidence)
	}
	in := sample()
	in.Prompts = true
	if p := Build(in); mustMeta(t, p).Conversations["c1"].FirstPrompt != "please add limits" {
		t.Errorf("--prompts shares the first prompt")
	}
	if again := Build(sample()); again.ID != r.ID {
		t.Errorf("the same attribution must give the same record id: %s then %s", r.ID, again.ID)
	}
}

func mustMeta(t *testing.T, r Record) Meta {
	t.Helper()
	m, ok := r.Meta()
	if !ok {
		t.Fatal("no meta")
	}
	return m
}

func TestMerge(t *testing.T) {
	a := Build(sample())
	in := sample()
	in.Writer = "bob@example.com"
	in.Added = map[string][]gitx.AddedLine{"api/limit.go": {{Line: 9, Text: "x := 1"}}}
	in.Writers = map[string]map[int]string{"api/limit.go": {9: "c3"}}
	in.Links = []Link{{ID: "c3", Title: "Bob's", Confidence: 0.5}, {ID: "c1", Summary: "bob's view", Confidence: 0.2}}
	b := Build(in)
	m := Merge(a, b)
	if err := Check(m); err != nil {
		t.Fatal(err)
	}
	meta := mustMeta(t, m)
	if len(meta.Conversations) != 3 || meta.Conversations["c3"].Title != "Bob's" {
		t.Errorf("conversations: %+v", meta.Conversations)
	}
	if c1 := meta.Conversations["c1"]; c1.Confidence != 0.9 || c1.Title != "Add rate limiting" {
		t.Errorf("c1: the stronger view wins, gaps are filled: %+v", c1)
	}
	var urls []string
	for _, c := range m.Files[0].Conversations {
		urls = append(urls, c.URL)
	}
	if len(urls) != 3 {
		t.Errorf("api/limit.go conversations: %v", urls)
	}
	if meta.Writer != "" {
		t.Errorf("a merged record has no single writer: %q", meta.Writer)
	}
	// Each link keeps the clone whose view of it won ("shared by").
	for id, want := range map[string]string{"c1": sample().Writer, "c3": "bob@example.com"} {
		if got := meta.Conversations[id].SharedBy; got != want {
			t.Errorf("%s: shared_by %q, want %q", id, got, want)
		}
	}
	if mm := Merge(m, m); mm.ID != m.ID {
		t.Errorf("merging a record with itself changes it")
	}
}

func TestModelID(t *testing.T) {
	for in, want := range map[string]string{"claude-4.5-sonnet": "anthropic/claude-4.5-sonnet", "gpt-5": "openai/gpt-5",
		"auto": "", "": "", "openai/gpt-4o": "openai/gpt-4o", "mystery": "", "composer-1": "cursor/composer-1"} {
		if got := ModelID(in); got != want {
			t.Errorf("ModelID(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSchema(t *testing.T) {
	in := sample()
	in.Prompts = true
	b1, _ := json.Marshal(Build(in))
	b2, _ := json.Marshal(Merge(Build(sample()), Build(in)))
	b3, _ := json.Marshal(Build(Input{Commit: "abc", Time: time.Unix(0, 0)}))
	for _, b := range [][]byte{b1, b2, b3} {
		var r Record
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		if err := Check(r); err != nil {
			t.Errorf("%v: %s", err, b)
		}
	}
	// The spec's own example passes the schema, so a failure here is ours.
	exPath, ok := testshared.Path("agent-trace", "example-trace-record.json")
	if !ok {
		t.Skip("no Agent Trace examples in ../shared/agent-trace beside the repository: only the minimal checks ran")
	}
	ex, err := os.ReadFile(exPath)
	if err != nil {
		t.Fatal(err)
	}
	tracetest.Validate(t, b1, b2, b3, ex)
}

func TestCheckRejects(t *testing.T) {
	good := Build(sample())
	for name, mod := range map[string]func(*Record){
		"version":     func(r *Record) { r.Version = "1.0" },
		"id":          func(r *Record) { r.ID = "x" },
		"timestamp":   func(r *Record) { r.Timestamp = "yesterday" },
		"files":       func(r *Record) { r.Files = nil },
		"range":       func(r *Record) { r.Files[0].Conversations[0].Ranges[0].StartLine = 0 },
		"contributor": func(r *Record) { r.Files[0].Conversations[0].Contributor.Type = "robot" },
	} {
		b, _ := json.Marshal(good)
		var r Record
		_ = json.Unmarshal(b, &r)
		mod(&r)
		if Check(r) == nil {
			t.Errorf("%s: Check accepted a broken record", name)
		}
	}
}

// TestBuildUnexamined: in a commit whose lines were examined, a line no
// conversation wrote is a person's, or "mixed" in a file a conversation is
// linked on without line evidence; in one not examined (a conversation
// that wrote some was forgotten), it is unknown in both files. A
// conversation's own lines are the same in both.
func TestBuildUnexamined(t *testing.T) {
	for _, tc := range []struct {
		unexamined bool
		want       map[string]string // path -> contributor types, in order
	}{
		{false, map[string]string{"api/limit.go": "human ai", "docs/x.md": "mixed"}},
		{true, map[string]string{"api/limit.go": "unknown ai", "docs/x.md": "unknown"}},
	} {
		in := sample()
		in.Unexamined = tc.unexamined
		got := map[string]string{}
		for _, f := range Build(in).Files {
			var types []string
			for _, c := range f.Conversations {
				types = append(types, c.Contributor.Type)
			}
			got[f.Path] = strings.Join(types, " ")
		}
		for p, w := range tc.want {
			if got[p] != w {
				t.Errorf("unexamined %v: %s: %q, want %q", tc.unexamined, p, got[p], w)
			}
		}
	}
}

// TestMergeKeepsContributorTypes: one conversation's entries of different
// types in one file (its "ai" lines in one record, a person's "mixed"
// edits of them in another: a squash's two commits, read for the squash)
// stay apart; the same type joins.
func TestMergeKeepsContributorTypes(t *testing.T) {
	const url = "git-convo:conversation/c1"
	entry := func(typ string, lines ...int) Conversation {
		c := Conversation{URL: url, Ranges: []Range{}}
		if typ != "" {
			c.Contributor = &Contributor{Type: typ}
		}
		for _, l := range lines {
			c.Ranges = append(c.Ranges, Range{StartLine: l, EndLine: l})
		}
		return c
	}
	rec := func(cs ...Conversation) Record {
		return Record{Version: SpecVersion, Files: []File{{Path: "a.go", Conversations: cs}}}
	}
	linesOf := func(r Record) map[string][]int {
		out := map[string][]int{}
		for _, c := range r.Files[0].Conversations {
			k := "nil"
			if c.Contributor != nil {
				k = c.Contributor.Type
			}
			for _, rg := range c.Ranges {
				out[k] = append(out[k], rg.StartLine)
			}
		}
		return out
	}
	for _, tc := range []struct {
		name string
		a, b Record
		want map[string][]int
	}{
		{"ai then mixed", rec(entry("ai", 2, 3)), rec(entry("mixed", 1, 6)), map[string][]int{"ai": {2, 3}, "mixed": {1, 6}}},
		{"mixed then ai", rec(entry("mixed", 1, 6)), rec(entry("ai", 2, 3)), map[string][]int{"ai": {2, 3}, "mixed": {1, 6}}},
		{"ai and unknown", rec(entry("ai", 2)), rec(entry("unknown", 4)), map[string][]int{"ai": {2}, "unknown": {4}}},
		{"same type joins", rec(entry("ai", 2)), rec(entry("ai", 4, 2)), map[string][]int{"ai": {2, 4}}},
		{"no contributor stays apart from ai", rec(entry("", 5)), rec(entry("ai", 2)), map[string][]int{"nil": {5}, "ai": {2}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := linesOf(Merge(tc.a, tc.b))
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("lines by type %v, want %v", got, tc.want)
			}
		})
	}
}
