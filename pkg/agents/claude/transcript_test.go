package claude

import (
	"github.com/git-convo/git-convo/pkg/agents/source"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestReadFixtureTranscripts reads every transcript of the fixtures folder.
func TestReadFixtureTranscripts(t *testing.T) {
	dir := fixtures(t)
	want := map[string]struct {
		title    string
		messages int
		edits    int
		sub      string // a subagent that must be joined
		model    string
	}{
		"claude-code-with-thinking.jsonl":                     {title: "Add Hello World Header Comment to index.ts", messages: 3, edits: 1, model: "claude-sonnet-4-5-20250929"},
		"example-claude-code.jsonl":                           {title: "Make the colors green and yellow", messages: 15, edits: 3, model: "claude-sonnet-4-20250514"},
		"claude-code-with-subagents.jsonl":                    {title: "Help me refactor the auth module", messages: 7, edits: 1, sub: "test-sub-1"},
		"claude-code-with-plan.jsonl":                         {title: "Implement user authentication", messages: 7, edits: 3},
		"claude_simple.jsonl":                                 {title: "Write a hello world function", messages: 3, edits: 1},
		"claude_with_ids.jsonl":                               {title: "Edit the file please", messages: 4, edits: 1},
		"claude-model-not-last.jsonl":                         {title: "Write a hello world function", messages: 2, model: "claude-opus-4-6"},
		"from-entire/v2.1.12-summaries-edit-write-bash.jsonl": {title: "Fixed lint errors in Go files", messages: 16, edits: 3},
		"from-entire/v2.1.14-edit-then-agent-commit.jsonl":    {title: "move the message up just before the file list?", messages: 8, edits: 1},
		"from-entire/v2.1.3-write-overwrite.jsonl":            {title: "I think we can also remove the whole logic around strategiesBlockingMain() and …", messages: 10, edits: 1},
		"from-entire/v2.1.33-write-new-file.jsonl":            {title: "hello", messages: 6, edits: 1},
		"from-entire/v2.1.37-edit-tab-indented.jsonl":         {title: "I got this feedback on this PR branch: The comment says this initializes a bare…", messages: 6, edits: 1},
		"from-entire/v2.1.7-two-parallel-subagents.jsonl":     {title: "can you review the changes in this branch by two competing agents?", messages: 4},
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	more, _ := filepath.Glob(filepath.Join(dir, "from-entire", "*.jsonl"))
	files = append(files, more...)
	if len(files) != len(want) {
		t.Fatalf("%d transcripts in the fixtures, %d expected: update the table", len(files), len(want))
	}
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		w := want[rel]
		t.Run(rel, func(t *testing.T) {
			c, err := ReadTranscript(f)
			if err != nil {
				t.Fatal(err)
			}
			if c.Title != w.title {
				t.Errorf("title %q, want %q", c.Title, w.title)
			}
			if len(c.Messages) != w.messages {
				t.Errorf("%d messages, want %d", len(c.Messages), w.messages)
			}
			if len(c.Edits) != w.edits {
				t.Errorf("%d edits, want %d", len(c.Edits), w.edits)
			}
			for _, e := range c.Edits {
				if e.Path == "" || e.At.IsZero() {
					t.Errorf("edit without path or time: %+v", e)
				}
			}
			if w.model != "" && c.Model != w.model {
				t.Errorf("model %q, want %q", c.Model, w.model)
			}
			// Messages in order: times never go back within the main
			// conversation (subagents interleave by design).
			var last time.Time
			for i, m := range c.Messages {
				if m.Role != "user" && m.Role != "assistant" {
					t.Fatalf("message %d: role %q", i, m.Role)
				}
				if m.Subagent != "" || m.CreatedAt.IsZero() {
					continue
				}
				if m.CreatedAt.Before(last) {
					t.Errorf("message %d at %s is before the previous at %s", i, m.CreatedAt, last)
				}
				last = m.CreatedAt
			}
			if w.sub != "" && !hasSubagent(c.Messages, w.sub) {
				t.Errorf("subagent %s not joined", w.sub)
			}
		})
	}
}

func hasSubagent(msgs []source.Message, id string) bool {
	for _, m := range msgs {
		if m.Subagent == id {
			return true
		}
	}
	return false
}

// TestSubagentJoinedAfterItsCall checks the subagent's messages follow the
// Task call that started it, in both layouts, and that an unreferenced file
// in <session>/subagents is joined too.
func TestSubagentJoinedAfterItsCall(t *testing.T) {
	dir := t.TempDir()
	session := strings.Join([]string{
		`{"type":"custom-title","customTitle":"Refactor auth"}`,
		`{"type":"user","sessionId":"s1","cwd":"/r","message":{"role":"user","content":"Refactor auth"},"timestamp":"2026-01-01T10:00:00Z"}`,
		`{"type":"assistant","message":{"id":"m1","role":"assistant","model":"claude-opus-4-5","content":[{"type":"thinking","thinking":"plan it"},{"type":"tool_use","id":"t1","name":"Task","input":{"prompt":"find"}}]},"timestamp":"2026-01-01T10:00:01Z"}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"found\nagentId: aa1 (for resuming)"}]}]},"toolUseResult":{"agentId":"aa1"},"timestamp":"2026-01-01T10:00:05Z"}`,
		`{"type":"brand-new-line-type","whatever":1}`,
		`not json at all`,
		`{"type":"assistant","message":{"id":"m2","role":"assistant","content":[{"type":"tool_use","id":"t2","name":"Edit","input":{"file_path":"/r/a.go","old_string":"a","new_string":"a\nb"}}]},"timestamp":"2026-01-01T10:00:06Z"}`,
		`{"type":"assistant","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"editing"}]},"timestamp":"2026-01-01T10:00:06Z"}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","content":"ok"}]},"toolUseResult":{"filePath":"/r/a.go"},"timestamp":"2026-01-01T10:00:07Z"}`,
	}, "\n")
	sub := `{"type":"user","agentId":"aa1","isSidechain":true,"message":{"role":"user","content":"find"},"timestamp":"2026-01-01T10:00:02Z"}
{"type":"assistant","agentId":"aa1","isSidechain":true,"message":{"role":"assistant","content":[{"type":"text","text":"sub found it"}]},"timestamp":"2026-01-01T10:00:03Z"}
`
	other := `{"type":"assistant","agentId":"bb2","message":{"role":"assistant","content":[{"type":"text","text":"unreferenced"}]},"timestamp":"2026-01-01T10:00:09Z"}`
	for _, layout := range []string{"new", "old"} {
		t.Run(layout, func(t *testing.T) {
			d := filepath.Join(dir, layout)
			path := filepath.Join(d, "s1.jsonl")
			writeTest(t, path, session)
			if layout == "new" {
				writeTest(t, filepath.Join(d, "s1", "subagents", "agent-aa1.jsonl"), sub)
				writeTest(t, filepath.Join(d, "s1", "subagents", "agent-bb2.jsonl"), other)
			} else {
				writeTest(t, filepath.Join(d, "agent-aa1.jsonl"), sub)
			}
			c, err := ReadTranscript(path)
			if err != nil {
				t.Fatal(err)
			}
			if c.Title != "Refactor auth" || c.ID != "s1" || c.Cwd != "/r" || c.Model != "claude-opus-4-5" {
				t.Errorf("title %q id %q cwd %q model %q", c.Title, c.ID, c.Cwd, c.Model)
			}
			var order []string
			for _, m := range c.Messages {
				order = append(order, m.Role+":"+m.Subagent)
			}
			want := "user: assistant: user:aa1 assistant:aa1 assistant:"
			if layout == "new" {
				want += " assistant:bb2"
			}
			if got := strings.Join(order, " "); got != want {
				t.Errorf("order %s, want %s", got, want)
			}
			if c.Messages[1].Thinking != "plan it" || !strings.Contains(c.Messages[1].Tools[0].Result, "agentId: aa1") {
				t.Errorf("thinking/tool result lost: %+v", c.Messages[1])
			}
			if c.Messages[4].Text != "editing" || len(c.Messages[4].Tools) != 1 || c.Messages[4].Tools[0].Status != "completed" {
				t.Errorf("one API response over two lines must be one message: %+v", c.Messages[4])
			}
			if len(c.Edits) != 1 || c.Edits[0].Added != "b\n" || !c.Edits[0].At.Equal(time.Date(2026, 1, 1, 10, 0, 7, 0, time.UTC)) {
				t.Errorf("edits %+v", c.Edits)
			}
		})
	}
}

func TestReadTranscriptRefusesNonRegular(t *testing.T) {
	if _, err := ReadTranscript(t.TempDir()); err == nil {
		t.Error("a directory was read as a transcript")
	}
}

func TestListConversations(t *testing.T) {
	cfg := t.TempDir()
	writeTest(t, filepath.Join(cfg, "projects", "-r", "s1.jsonl"), `{"type":"summary","summary":"x"}
{"type":"user","sessionId":"s1","cwd":"/work/r/sub","message":{"content":"hi"}}`)
	writeTest(t, filepath.Join(cfg, "projects", "-other", "s2.jsonl"), `{"type":"user","sessionId":"s2","cwd":"/work/rother","message":{"content":"hi"}}`)
	writeTest(t, filepath.Join(cfg, "projects", "-r", "agent-x.jsonl"), `{"type":"user","sessionId":"s1","cwd":"/work/r","message":{"content":"hi"}}`)
	refs, err := Source{Dir: cfg}.ListConversations(t.Context(), []string{"/work/r"})
	if err != nil {
		t.Fatal(err)
	}
	if len(refs) != 1 || refs[0].ID != "s1" || refs[0].Cwd != "/work/r/sub" {
		t.Errorf("refs %+v", refs)
	}
}

func writeTest(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func FuzzReadTranscript(f *testing.F) {
	f.Add([]byte(`{"type":"summary","summary":"t"}` + "\n" + `{"type":"user","message":{"content":"hi"}}`))
	f.Add([]byte(`{"type":"assistant","message":{"id":"m","content":[{"type":"tool_use","id":"t","name":"Edit","input":{"file_path":"a","old_string":"x","new_string":"y"}}]}}` + "\n" +
		`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t","content":"agentId: x"}]},"toolUseResult":{"structuredPatch":[{"lines":["+y"]}]}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, err := parse(strings.NewReader(string(b)), ""); err != nil {
			t.Fatal(err)
		}
	})
}

// TestEditWordsFixtures: each edit of a real transcript carries the agent's
// last words before its tool call, in that turn; a prompt ends the words
// before it.
func TestEditWordsFixtures(t *testing.T) {
	dir := fixtures(t)
	for file, want := range map[string][]string{
		"claude_simple.jsonl":              {"I'll create a hello world function for you."},
		"claude-code-with-subagents.jsonl": {"Based on the analysis, I'll now refactor the auth module."},
		"claude-code-with-plan.jsonl": {"I'll create a plan for implementing user authentication.",
			"Now let me update the plan with more detail on the database schema.",
			"Now let me update the plan with more detail on the database schema."},
		"example-claude-code.jsonl": {"This appears to be a board game project", "Now let me update the striped patterns",
			"Now I need to update the player color mapping."},
	} {
		c, err := ReadTranscript(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Edits) != len(want) {
			t.Fatalf("%s: %d edits, want %d", file, len(c.Edits), len(want))
		}
		for i, w := range want {
			if !strings.HasPrefix(c.Edits[i].Words, w) {
				t.Errorf("%s: edit %d words %q, want %q...", file, i, c.Edits[i].Words, w)
			}
		}
	}
}

// TestEditWordsTurn: the words are the last text before the tool call, not
// thinking, and not the words of an earlier turn.
func TestEditWordsTurn(t *testing.T) {
	lines := []string{
		`{"type":"user","timestamp":"2026-11-20T10:00:00Z","message":{"role":"user","content":"first"}}`,
		`{"type":"assistant","timestamp":"2026-11-20T10:00:01Z","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"I will add a.\n\nIt goes first."},{"type":"tool_use","id":"t1","name":"Write","input":{"file_path":"a.go","content":"package a\n"}}]}}`,
		`{"type":"user","timestamp":"2026-11-20T10:00:02Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}}`,
		`{"type":"assistant","timestamp":"2026-11-20T10:00:03Z","message":{"id":"m2","role":"assistant","content":[{"type":"tool_use","id":"t2","name":"Write","input":{"file_path":"b.go","content":"package b\n"}}]}}`,
		`{"type":"user","timestamp":"2026-11-20T10:01:00Z","message":{"role":"user","content":"second"}}`,
		`{"type":"assistant","timestamp":"2026-11-20T10:01:01Z","message":{"id":"m3","role":"assistant","content":[{"type":"thinking","thinking":"secret plan"},{"type":"tool_use","id":"t3","name":"Write","input":{"file_path":"c.go","content":"package c\n"}}]}}`,
	}
	p, err := parse(strings.NewReader(strings.Join(lines, "\n")+"\n"), "")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range p.conv.Edits {
		got = append(got, e.Path+": "+e.Words)
	}
	want := []string{"a.go: I will add a.\n\nIt goes first.", "b.go: I will add a.\n\nIt goes first.", "c.go: "}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("edits' words %q, want %q", got, want)
	}
}
