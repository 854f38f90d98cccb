package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGeminiEndToEnd: install writes ~/.gemini/settings.json; Gemini CLI's
// write_file that rewrites a whole file gives the session only the lines it
// changed (kept at BeforeTool, diffed at AfterTool), a replace its own; the
// hook prints the JSON Gemini CLI parses; the session file is the
// conversation's text.
func TestGeminiEndToEnd(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	gdir := filepath.Join(sb.home, ".gemini")
	if err := os.MkdirAll(gdir, 0o755); err != nil {
		t.Fatal(err)
	}
	out := sb.convo(repo, "install", "--cursor=none")
	settings := filepath.Join(gdir, "settings.json")
	if !strings.Contains(out, settings+": Gemini CLI hooks created") {
		t.Fatalf("install:\n%s", out)
	}
	cmds := agentHookCommands(t, settings, "gemini")
	for _, ev := range []string{"SessionStart", "BeforeAgent", "BeforeTool", "AfterTool", "AfterAgent", "SessionEnd"} {
		if !strings.Contains(cmds[ev], "--agent gemini") {
			t.Fatalf("no %s hook: %v", ev, cmds)
		}
	}
	base := "console.log('Bonjour');\n\n// comment1\nconsole.log('one');\n"
	file := sb.write(repo, "index.ts", base)
	sb.commit(repo, "index", "index.ts")

	const sid = "18f475c0-690f-4bc9-b84e-88a0a1e9518f"
	session := sb.write(gdir, "tmp/28be4f5f/chats/session-2025-12-06T18-25-18f475c0.json", `{"sessionId":"`+sid+`","projectHash":"28be4f5f","startTime":"2025-12-06T18:25:18.042Z","lastUpdated":"2025-12-06T18:27:49.718Z","messages":[`+
		`{"id":"u1","timestamp":"2025-12-06T18:25:18.042Z","type":"user","content":"add hello bob to index.ts"},`+
		`{"id":"g1","timestamp":"2025-12-06T18:25:57.128Z","type":"gemini","content":"I added the log.","model":"gemini-2.5-pro"}]}`)
	hook := func(cmd string, kv map[string]any) {
		t.Helper()
		m := map[string]any{"session_id": sid, "transcript_path": session, "cwd": repo, "timestamp": "2025-12-06T18:25:18.042Z"}
		for k, v := range kv {
			m[k] = v
		}
		sb.jsonReplyHook(repo, cmd, m) // exits 0, prints {}
	}
	hook(cmds["SessionStart"], map[string]any{"hook_event_name": "SessionStart", "source": "startup"})
	hook(cmds["BeforeAgent"], map[string]any{"hook_event_name": "BeforeAgent", "prompt": "add hello bob to index.ts"})
	after := base + "console.log('hello bob');\n"
	in := map[string]any{"file_path": file, "content": after}
	hook(cmds["BeforeTool"], map[string]any{"hook_event_name": "BeforeTool", "tool_name": "write_file", "tool_input": in})
	sb.write(repo, "index.ts", after)
	hook(cmds["AfterTool"], map[string]any{"hook_event_name": "AfterTool", "tool_name": "write_file", "tool_input": in,
		"tool_response": map[string]any{"llmContent": "Successfully overwrote file", "returnDisplay": "index.ts"}})
	hook(cmds["AfterAgent"], map[string]any{"hook_event_name": "AfterAgent", "prompt": "add hello bob to index.ts", "prompt_response": "I added the log."})
	sha := sb.commit(repo, "hello bob", "index.ts")

	s := sb.showJSON(repo, sha)
	if len(s.Conversations) != 1 || s.Conversations[0].ID != sid || s.Conversations[0].Agent != "gemini" {
		t.Fatalf("show: %+v", s.Conversations)
	}
	if got, want := owners(sb.blameJSON(repo, "index.ts"), map[string]string{sid: "g"}), "- - - - g"; got != want {
		t.Errorf("blame owners %q, want %q (a whole-file write_file gives only the line it changed)", got, want)
	}
	if md := sb.convo(repo, "conversation", sid); !strings.Contains(md, "add hello bob to index.ts") || !strings.Contains(md, "I added the log.") {
		t.Errorf("conversation:\n%s", md)
	}
	if doc := sb.convo(repo, "doctor"); !strings.Contains(doc, "ok   gemini hooks") {
		t.Errorf("doctor:\n%s", doc)
	}
}
