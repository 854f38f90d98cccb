package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// captureAs sends one payload to capture --agent agent (with --event when
// the agent's hooks name it), as the agent's hook would.
func (sb *sandbox) captureAs(repo, agent, event string, payload map[string]any) {
	sb.t.Helper()
	body, _ := json.Marshal(payload)
	args := []string{"convo", "capture", "--agent", agent}
	if event != "" {
		args = append(args, "--event", event)
	}
	if r := sb.runEnv(repo, sb.env, string(body), append([]string{"git"}, args...)...); r.code != 0 || strings.Contains(r.stderr, "git-convo capture:") {
		sb.t.Fatalf("capture --agent %s: %d %s", agent, r.code, r.stderr)
	}
}

// TestPrecisionManyAgentsOneFile: one file edited in turn by Claude Code
// (Edit), Codex (apply_patch), Gemini CLI (replace), the Copilot CLI
// (edit), VS Code agent mode (editFiles, through Claude Code's hooks) and a
// person, committed at once: blame gives each agent exactly its lines, with
// their real payload shapes, and the person's lines to no one.
func TestPrecisionManyAgentsOneFile(t *testing.T) {
	sb, repo := installedSandbox(t)
	const (
		claudeS  = "c1000000-0000-4000-8000-000000000001"
		codexS   = "019e1625-789d-76c0-80ab-000000000002"
		geminiS  = "9e000000-0000-4000-8000-000000000003"
		copilotS = "b0ff98c0-8e01-4b73-bf92-000000000004"
		vscodeS  = "5fcddc54-3ba1-4fc4-88ac-000000000005"
	)
	content := "package p\n\nfunc Base() int { return 0 }\n"
	path := sb.write(repo, "p.go", content)
	sb.commit(repo, "base", "p.go")
	grow := func(old, add string) (string, string) {
		// add goes after old, which ends the file; returns the new file and
		// what was written.
		content += add
		sb.write(repo, "p.go", content)
		return old, old + add
	}

	// Claude Code: Edit, with its structured patch.
	before, after := grow("func Base() int { return 0 }\n", "\nfunc Claude() int { return 1 }\n")
	sb.claudeCapture(repo, map[string]any{"session_id": claudeS, "hook_event_name": "PostToolUse", "tool_name": "Edit",
		"tool_input": map[string]any{"file_path": path, "old_string": before, "new_string": after}})

	// Codex: apply_patch, relative path, context line.
	grow("", "\nfunc Codex() int { return 2 }\n")
	sb.captureAs(repo, "codex", "", map[string]any{"session_id": codexS, "turn_id": "t", "cwd": repo, "hook_event_name": "PostToolUse",
		"model": "gpt-5.5", "tool_name": "apply_patch", "tool_use_id": "call_1",
		"tool_input":    map[string]any{"command": "*** Begin Patch\n*** Update File: p.go\n@@\n func Claude() int { return 1 }\n+\n+func Codex() int { return 2 }\n*** End Patch\n"},
		"tool_response": "Success. Updated the following files:\nM p.go\n"})

	// A person adds a line by hand.
	grow("", "\n// by hand\n")

	// Gemini CLI: replace, kept at BeforeTool, diffed at AfterTool.
	gin := map[string]any{"file_path": path, "old_string": "// by hand\n", "new_string": "// by hand\n\nfunc Gemini() int { return 3 }\n"}
	sb.captureAs(repo, "gemini", "", map[string]any{"session_id": geminiS, "cwd": repo, "hook_event_name": "BeforeTool", "tool_name": "replace", "tool_input": gin})
	grow("", "\nfunc Gemini() int { return 3 }\n")
	sb.captureAs(repo, "gemini", "", map[string]any{"session_id": geminiS, "cwd": repo, "hook_event_name": "AfterTool", "tool_name": "replace", "tool_input": gin,
		"tool_response": map[string]any{"llmContent": "Successfully modified file", "returnDisplay": "p.go"}})

	// The Copilot CLI: edit, camelCase, the event named by the command.
	cargs := map[string]any{"path": path, "old_str": "func Gemini() int { return 3 }\n", "new_str": "func Gemini() int { return 3 }\n\nfunc Copilot() int { return 4 }\n"}
	sb.captureAs(repo, "copilot", "preToolUse", map[string]any{"sessionId": copilotS, "timestamp": 1771480081360, "cwd": repo, "toolName": "edit", "toolArgs": cargs})
	grow("", "\nfunc Copilot() int { return 4 }\n")
	sb.captureAs(repo, "copilot", "postToolUse", map[string]any{"sessionId": copilotS, "timestamp": 1771480081361, "cwd": repo, "toolName": "edit", "toolArgs": cargs,
		"toolResult": map[string]any{"resultType": "success", "textResultForLlm": "ok"}})

	// VS Code agent mode: editFiles, through Claude Code's hooks.
	vs := map[string]any{"timestamp": "2026-02-09T10:30:00.000Z", "cwd": repo, "sessionId": vscodeS, "tool_name": "editFiles",
		"tool_input": map[string]any{"files": []string{path}}, "tool_use_id": "tool-9"}
	vs["hookEventName"] = "PreToolUse"
	sb.captureAs(repo, "claude", "", vs)
	grow("", "\nfunc VSCode() int { return 5 }\n")
	vs["hookEventName"] = "PostToolUse"
	vs["tool_response"] = "File edited successfully"
	sb.captureAs(repo, "claude", "", vs)

	// The person again, at the end.
	grow("", "\n// done\n")
	sb.commit(repo, "everyone", "p.go")

	names := map[string]string{claudeS: "L", codexS: "X", geminiS: "G", copilotS: "P", vscodeS: "V"}
	got := owners(sb.blameJSON(repo, "p.go"), names)
	// base (3); Claude's blank and func; Codex's; the person's blank and
	// comment; Gemini's; Copilot's; VS Code's; the person's blank and comment.
	want := "- - - L L X X - - G G P P V V - -"
	if got != want {
		t.Errorf("owners\n got %s\nwant %s", got, want)
	}
	for _, l := range sb.blameJSON(repo, "p.go") {
		if l.WrittenBy == nil {
			continue
		}
		wantAgent := map[string]string{claudeS: "claude", codexS: "codex", geminiS: "gemini", copilotS: "copilot", vscodeS: "vscode"}[*l.WrittenBy]
		if l.Agent == nil || *l.Agent != wantAgent {
			t.Errorf("line %d: agent %v, want %s", l.Line, l.Agent, wantAgent)
		}
	}
}
