package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// jsonReplyHook runs a hook command as an agent that reads its stdout as
// JSON does (VS Code agent mode running Claude Code's hooks, Gemini CLI):
// through the shell, the payload on stdin. It must exit 0 and print {}.
func (sb *sandbox) jsonReplyHook(dir, command string, payload map[string]any) {
	sb.t.Helper()
	body, _ := json.Marshal(payload)
	r := sb.runEnv(dir, sb.env, string(body), "sh", "-c", command)
	if r.code != 0 || strings.TrimSpace(r.stdout) != "{}" {
		sb.t.Fatalf("%s on %s: exit %d, stdout %q, stderr %s", command, body, r.code, r.stdout, r.stderr)
	}
}

// TestVSCodeThroughClaudeHooks: VS Code agent mode's payloads reach
// git-convo through Claude Code's hooks and are recorded as VS Code's; its
// editFiles names a file but not the text, and the diff between its
// PreToolUse and PostToolUse gives the session exactly the lines the tool
// changed, not the person's line added after nor the file's old lines.
func TestVSCodeThroughClaudeHooks(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	configDir := filepath.Join(sb.home, ".claude")
	if err := os.MkdirAll(configDir, 0o755); err != nil {
		t.Fatal(err)
	}
	out := sb.convo(repo, "install", "--cursor=none", "--claude=user")
	if !strings.Contains(out, "VS Code agent mode") {
		t.Errorf("install does not say the Claude hooks serve VS Code:\n%s", out)
	}
	cmds := claudeHookCommands(t, filepath.Join(configDir, "settings.json"))
	if cmds["PreToolUse"] == "" {
		t.Fatalf("no PreToolUse hook: %v", cmds)
	}
	base := "package x\n\nfunc A() int {\n\treturn 1\n}\n"
	sb.write(repo, "x.go", base)
	sb.commit(repo, "x: A", "x.go")

	const sid = "5fcddc54-3ba1-4fc4-88ac-86bd2ce74c19"
	tp := sb.write(sb.root, "transcripts/"+sid+".jsonl", strings.Join([]string{
		`{"type":"session.start","data":{"sessionId":"` + sid + `","version":1,"producer":"copilot-agent","copilotVersion":"0.47.0","vscodeVersion":"1.119.0"},"timestamp":"2026-05-11T23:13:12.819Z"}`,
		`{"type":"user.message","data":{"content":"Add a function B"},"timestamp":"2026-05-11T23:13:12.819Z"}`,
		`{"type":"assistant.message","data":{"content":"I'll add B.","toolRequests":[{"toolCallId":"call_1","name":"editFiles","arguments":"{\"files\":[\"x.go\"]}","type":"function"}]},"timestamp":"2026-05-11T23:13:15.477Z"}`,
	}, "\n")+"\n")
	common := func(event string, kv map[string]any) map[string]any {
		m := map[string]any{"timestamp": "2026-05-11T23:13:12.819Z", "cwd": repo, "sessionId": sid, "hookEventName": event, "transcript_path": tp}
		for k, v := range kv {
			m[k] = v
		}
		return m
	}
	file := filepath.Join(repo, "x.go")
	sb.jsonReplyHook(repo, cmds["SessionStart"], common("SessionStart", map[string]any{"source": "new"}))
	sb.jsonReplyHook(repo, cmds["UserPromptSubmit"], common("UserPromptSubmit", map[string]any{"prompt": "Add a function B"}))
	edit := map[string]any{"tool_name": "editFiles", "tool_input": map[string]any{"files": []string{file}}, "tool_use_id": "tool-123"}
	sb.jsonReplyHook(repo, cmds["PreToolUse"], common("PreToolUse", edit))
	// The tool rewrites the whole file: A's lines are written again, same.
	sb.write(repo, "x.go", base+"\nfunc B() int {\n\treturn 2\n}\n")
	edit["tool_response"] = "File edited successfully"
	sb.jsonReplyHook(repo, cmds["PostToolUse"], common("PostToolUse", edit))
	sb.jsonReplyHook(repo, cmds["Stop"], common("Stop", map[string]any{"stop_hook_active": false}))
	// A person's line, after the tool.
	sb.write(repo, "x.go", base+"\nfunc B() int {\n\treturn 2\n}\n\n// by hand\n")
	sha := sb.commit(repo, "x: B", "x.go")

	s := sb.showJSON(repo, sha)
	if len(s.Conversations) != 1 || s.Conversations[0].ID != sid || s.Conversations[0].Agent != "vscode" {
		t.Fatalf("show: %+v", s.Conversations)
	}
	if txt := sb.convo(repo, "show", sha); !strings.Contains(txt, "VS Code") {
		t.Errorf("show does not name VS Code:\n%s", txt)
	}
	lines := sb.blameJSON(repo, "x.go")
	got := owners(lines, map[string]string{sid: "v"})
	// base (5 lines); the tool's blank line and B's three; the person's blank and comment.
	if want := "- - - - - v v v v - -"; got != want {
		t.Errorf("blame owners %q, want %q", got, want)
	}
	for _, l := range lines {
		if l.WrittenBy != nil && (l.Agent == nil || *l.Agent != "vscode") {
			t.Errorf("line %d: agent %v", l.Line, l.Agent)
		}
	}
	if md := sb.convo(repo, "conversation", sid); !strings.Contains(md, "Add a function B") || !strings.Contains(md, "vscode") {
		t.Errorf("conversation:\n%s", md)
	}
}

// TestUnknownPayloadCounted: a payload no agent recognises (Grok Build's,
// sent to Claude Code's hooks) is never dropped in silence: the log names
// the hooks that sent it, and doctor counts it.
func TestUnknownPayloadCounted(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	grok := `{"hookEventName":"session_start","sessionId":"019e0000-aaaa","cwd":"` + repo + `","workspaceRoot":"` + repo + `","timestamp":"2026-05-11T10:00:00Z","permissionMode":"default","source":"startup"}`
	r := sb.runEnv(repo, sb.env, grok, "git", "convo", "capture", "--agent", "claude")
	if r.code != 0 {
		t.Fatalf("capture: %d %s", r.code, r.stderr)
	}
	sb.convo(repo, "log")                                               // a read drains the spool
	doc := sb.runEnv(repo, sb.env, "", "git", "convo", "doctor").stdout // fails here: no hooks installed
	if !strings.Contains(doc, "warn unknown hooks") || !strings.Contains(doc, "1 hook payload(s) that no agent recognises") || !strings.Contains(doc, "Claude Code's settings") {
		t.Errorf("doctor does not count the unknown payload, or not say whose hooks sent it:\n%s", doc)
	}
}

// TestVSCodeApplyPatchWrittenAfterPostToolUse: VS Code's apply_patch can
// report its PostToolUse before it writes the files. The copies its
// PreToolUse kept are diffed again at the turn's end (Stop), so the lines
// the patch wrote, in the file it updated and the one it added, are the
// session's by position, and the person's line after the turn is not.
func TestVSCodeApplyPatchWrittenAfterPostToolUse(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	if err := os.MkdirAll(filepath.Join(sb.home, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	sb.convo(repo, "install", "--cursor=none", "--claude=user")
	cmds := claudeHookCommands(t, filepath.Join(sb.home, ".claude", "settings.json"))
	base := "package x\n\nfunc A() int {\n\treturn 1\n}\n"
	sb.write(repo, "x.go", base)
	sb.commit(repo, "x: A", "x.go")

	const sid = "9a3c1f0e-6b7d-4e2a-9c1b-2f4d6e8a0b1c"
	x, y := filepath.Join(repo, "x.go"), filepath.Join(repo, "y.go")
	patch := "*** Begin Patch\n*** Update File: " + x + "\n@@\n func A() int {\n \treturn 1\n }\n+\n+func B() int {\n+\treturn 2\n+}\n" +
		"*** Add File: " + y + "\n+package x\n+\n+var Y = 1\n*** End Patch"
	common := func(event string, kv map[string]any) map[string]any {
		m := map[string]any{"timestamp": "2026-05-11T23:13:12.819Z", "cwd": repo, "sessionId": sid, "hookEventName": event, "transcript_path": filepath.Join(sb.root, "none.jsonl")}
		for k, v := range kv {
			m[k] = v
		}
		return m
	}
	sb.jsonReplyHook(repo, cmds["UserPromptSubmit"], common("UserPromptSubmit", map[string]any{"prompt": "Add B and Y"}))
	call := map[string]any{"tool_name": "apply_patch", "tool_input": map[string]any{"input": patch, "explanation": "Add B and Y."}, "tool_use_id": "call_ap1"}
	sb.jsonReplyHook(repo, cmds["PreToolUse"], common("PreToolUse", call))
	call["tool_response"] = ""
	sb.jsonReplyHook(repo, cmds["PostToolUse"], common("PostToolUse", call)) // before the write
	sb.write(repo, "x.go", base+"\nfunc B() int {\n\treturn 2\n}\n")
	sb.write(repo, "y.go", "package x\n\nvar Y = 1\n")
	sb.jsonReplyHook(repo, cmds["Stop"], common("Stop", map[string]any{"stop_hook_active": false}))
	sb.write(repo, "x.go", base+"\nfunc B() int {\n\treturn 2\n}\n\n// by hand\n")
	sb.commit(repo, "x: B, Y", "x.go", "y.go")

	for _, c := range []struct{ file, want string }{
		// base (5 lines); the patch's blank line and B's three; the person's two.
		{"x.go", "- - - - - v v v v - -"},
		{"y.go", "v v v"},
	} {
		lines := sb.blameJSON(repo, c.file)
		if got := owners(lines, map[string]string{sid: "v"}); got != c.want {
			t.Errorf("%s: blame owners %q, want %q (v~: text evidence only)", c.file, got, c.want)
		}
		for _, l := range lines {
			if l.WrittenBy != nil && (l.Agent == nil || *l.Agent != "vscode" || l.Evidence == nil || *l.Evidence != "position") {
				t.Errorf("%s line %d: agent %s evidence %s, want vscode, position", c.file, l.Line, deref(l.Agent), deref(l.Evidence))
			}
		}
	}
	// The turn's end took the copies and their marks.
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(sb.linksDB), "before", "*")); len(left) > 0 {
		t.Errorf("kept copies left after Stop: %v", left)
	}
}

func deref(s *string) string {
	if s == nil {
		return "<none>"
	}
	return *s
}
