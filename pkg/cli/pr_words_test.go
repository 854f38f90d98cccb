package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-convo/git-convo/pkg/agents/cursor/cursortest"
	"github.com/git-convo/git-convo/pkg/app/prsummary"
)

// prWordsHostile is what an agent said before an edit that tries to act in
// every format, with a token share would redact.
const prWordsHostile = "\x1b[31mNow\x1b[0m <script>alert(1)</script></textarea> --> <!-- [x](javascript:alert(1)) ghp_0123456789abcdefghijABCDEFGHIJ0123456789\nand a second line"

// prWordsRepo: a Claude Code session, through its hooks, whose transcript
// has words before each of its edits: greet.go (plain words), bye.go
// (hostile words) and more.go, which its hooks recorded but the transcript
// does not hold (no words: nothing to match). One commit of the three.
func prWordsRepo(t *testing.T) (sb *sandbox, repo, transcript string) {
	sb, repo = installedSandbox(t)
	sb.run(repo, "git", "checkout", "-q", "-b", "feature")
	const sid = "5b2f0e73-1d66-4c2c-8a6f-7e1c8b4f3d22"
	files := map[string]string{
		"greet.go": "package greet\n\nfunc Hello() string { return \"hello\" }\n",
		"bye.go":   "package greet\n\nfunc Bye() string { return \"bye\" }\n",
		"more.go":  "package greet\n\nfunc More() int { return 3 }\n",
	}
	start := time.Now().Add(-time.Minute)
	at := func(s int) string { return start.Add(time.Duration(s) * time.Second).UTC().Format(time.RFC3339Nano) }
	var lines []string
	add := func(l string) { lines = append(lines, l) }
	add(`{"type":"user","uuid":"u1","sessionId":"` + sid + `","cwd":` + quoteJSON(repo) + `,"message":{"role":"user","content":"Add greetings"},"timestamp":"` + at(0) + `"}`)
	for i, f := range []struct{ rel, words string }{{"greet.go", "I'll write greet.go first."}, {"bye.go", prWordsHostile}} {
		file := filepath.Join(repo, f.rel)
		input, _ := json.Marshal(map[string]any{"file_path": file, "content": files[f.rel]})
		result, _ := json.Marshal(map[string]any{"type": "create", "filePath": file, "content": files[f.rel], "structuredPatch": []any{}, "originalFile": nil})
		id := "toolu_" + f.rel
		add(`{"type":"assistant","uuid":"a` + f.rel + `","sessionId":"` + sid + `","message":{"id":"msg_` + f.rel + `","role":"assistant","model":"claude-opus-4-6","content":[{"type":"text","text":` +
			quoteJSON(f.words) + `},{"type":"tool_use","id":"` + id + `","name":"Write","input":` + string(input) + `}]},"timestamp":"` + at(2*i+1) + `"}`)
		add(`{"type":"user","uuid":"r` + f.rel + `","sessionId":"` + sid + `","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"` + id +
			`","content":"ok"}]},"toolUseResult":` + string(result) + `,"timestamp":"` + at(2*i+2) + `"}`)
	}
	add(`{"type":"assistant","uuid":"a9","sessionId":"` + sid + `","message":{"id":"msg_9","role":"assistant","content":[{"type":"text","text":"Done."}]},"timestamp":"` + at(9) + `"}`)
	transcript = filepath.Join(sb.home, ".claude", "projects", "p", sid+".jsonl")
	if err := os.MkdirAll(filepath.Dir(transcript), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(transcript, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	base := func(kv map[string]any) map[string]any {
		m := map[string]any{"session_id": sid, "transcript_path": transcript, "permission_mode": "default"}
		for k, v := range kv {
			m[k] = v
		}
		return m
	}
	sb.claudeCapture(repo, base(map[string]any{"hook_event_name": "UserPromptSubmit", "prompt": "Add greetings"}))
	for _, rel := range []string{"greet.go", "bye.go", "more.go"} {
		file := sb.write(repo, rel, files[rel])
		sb.claudeCapture(repo, base(map[string]any{"hook_event_name": "PostToolUse", "tool_name": "Write", "tool_use_id": "toolu_" + rel,
			"tool_input":    map[string]any{"file_path": file, "content": files[rel]},
			"tool_response": map[string]any{"type": "create", "filePath": file, "content": files[rel], "structuredPatch": []any{}, "originalFile": nil}}))
	}
	sb.claudeCapture(repo, base(map[string]any{"hook_event_name": "Stop", "stop_hook_active": false, "last_assistant_message": "Done."}))
	sb.commit(repo, "greetings", "greet.go", "bye.go", "more.go")
	return sb, repo, transcript
}

// prWords is each file's words in pr's JSON (a file whose writer has none
// is "").
func prWords(t *testing.T, sb *sandbox, repo string) map[string]prsummary.Writer {
	t.Helper()
	var s prsummary.Summary
	if err := json.Unmarshal([]byte(sb.convo(repo, "pr", "main", "--format", "json")), &s); err != nil {
		t.Fatal(err)
	}
	out := map[string]prsummary.Writer{}
	for _, h := range s.Hunks {
		for _, w := range h.Writers {
			if w.Lines > 0 {
				out[h.Path] = w
			}
		}
	}
	return out
}

// TestPRWordsClaude: each hunk shows what the agent said just before the
// edit that wrote it, from the transcript its hooks named; redacted, and
// inert in every format. An edit the transcript does not hold has none,
// and without the transcript nothing is said.
func TestPRWordsClaude(t *testing.T) {
	sb, repo, transcript := prWordsRepo(t)
	ws := prWords(t, sb, repo)
	if len(ws) != 3 {
		t.Fatalf("writers %+v, want one per file", ws)
	}
	if w := ws["greet.go"]; w.Words != "I'll write greet.go first." || w.WordsFolded != 0 || w.Lines != 2 {
		t.Errorf("greet.go: %+v", w)
	}
	if w := ws["bye.go"]; !strings.Contains(w.Words, "[redacted: github token]") || strings.Contains(w.Words, "ghp_") ||
		!strings.HasPrefix(w.Words, "\x1b[31mNow") || w.WordsFolded != 1 {
		t.Errorf("bye.go: words %q (+%d)", w.Words, w.WordsFolded)
	}
	if w := ws["more.go"]; w.Words != "" || w.Lines != 2 {
		t.Errorf("more.go, an edit the transcript does not hold: %+v", w)
	}
	for _, format := range []string{"terminal", "markdown", "html"} {
		out := sb.convo(repo, "pr", "main", "--format", format, "--color", "never")
		markup := format != "terminal" && (strings.Contains(out, "<script") || strings.Contains(out, "</textarea"))
		if strings.Contains(out, "\x1b") || strings.Contains(out, "ghp_0123") || markup || !strings.Contains(out, "write greet") {
			t.Errorf("%s: hostile words not inert, or the words missing:\n%s", format, out)
		}
		switch format {
		case "terminal":
			if !strings.Contains(out, `said before the edit: \033[31mNow\033[0m <script>`) {
				t.Errorf("terminal: the words should show, escapes as text:\n%s", out)
			}
		case "markdown":
			_, body, _ := strings.Cut(out, "\n")
			if strings.Count(out, "-->") != 1 || strings.Contains(body, "<!--") || strings.Contains(body, "](javascript") ||
				!strings.Contains(out, `said before the edit: “\\033\[31mNow`) {
				t.Errorf("markdown:\n%s", out)
			}
		case "html":
			if strings.Contains(out, "<!-- ") || strings.Contains(out, "-->") || !strings.Contains(out, "&lt;script&gt;alert(1)&lt;/script&gt;&lt;/textarea&gt;") {
				t.Errorf("html:\n%s", out)
			}
		}
	}
	// pr_summary, the MCP twin, reads the same words.
	ctx := context.Background()
	res, err := sb.mcpSession(ctx, repo).CallTool(ctx, &mcp.CallToolParams{Name: "pr_summary", Arguments: map[string]any{"range": "main"}})
	if err != nil || res.IsError {
		t.Fatalf("pr_summary: %v %+v", err, res)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var got prsummary.Summary
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, h := range got.Hunks {
		for _, w := range h.Writers {
			if w.Words != "" && w.Words == ws[h.Path].Words {
				n++
			}
		}
	}
	if n != 2 {
		t.Errorf("pr_summary gives %d of the 2 hunks' words: %+v", n, got.Hunks)
	}
	// The transcript gone: no words, rather than a guess.
	if err := os.Remove(transcript); err != nil {
		t.Fatal(err)
	}
	for path, w := range prWords(t, sb, repo) {
		if w.Words != "" {
			t.Errorf("%s without its transcript: words %q", path, w.Words)
		}
	}
}

// TestPRWordsRealTranscript: a real Claude Code transcript of the fixtures
// (claude_simple.jsonl: a Write of hello.py) behind a session replayed
// through the hooks: pr shows the words the agent wrote before that Write.
func TestPRWordsRealTranscript(t *testing.T) {
	src := cursortest.Shared(t, "claude-code", "claude_simple.jsonl")
	sb, repo := installedSandbox(t)
	sb.run(repo, "git", "checkout", "-q", "-b", "feature")
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	transcript := filepath.Join(sb.home, ".claude", "projects", "p", "simple.jsonl")
	if err := os.MkdirAll(filepath.Dir(transcript), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(transcript, b, 0o600); err != nil {
		t.Fatal(err)
	}
	const content = "def hello():\n    print('Hello, World!')\n"
	base := func(kv map[string]any) map[string]any {
		m := map[string]any{"session_id": "simple", "transcript_path": transcript, "permission_mode": "default"}
		for k, v := range kv {
			m[k] = v
		}
		return m
	}
	sb.claudeCapture(repo, base(map[string]any{"hook_event_name": "UserPromptSubmit", "prompt": "Write a hello world function"}))
	file := sb.write(repo, "hello.py", content)
	sb.claudeCapture(repo, base(map[string]any{"hook_event_name": "PostToolUse", "tool_name": "Write", "tool_use_id": "toolu_abc123",
		"tool_input":    map[string]any{"file_path": file, "content": content},
		"tool_response": map[string]any{"type": "create", "filePath": file, "content": content, "structuredPatch": []any{}, "originalFile": nil}}))
	sb.claudeCapture(repo, base(map[string]any{"hook_event_name": "Stop", "stop_hook_active": false}))
	sb.commit(repo, "hello", "hello.py")
	if w := prWords(t, sb, repo)["hello.py"]; w.Words != "I'll create a hello world function for you." || w.Lines != 2 {
		t.Errorf("hello.py: %+v", w)
	}
}
