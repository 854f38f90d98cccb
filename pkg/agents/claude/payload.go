package claude

import (
	"encoding/json"
	"fmt"

	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/attribution/position"
)

// vscodeEvents are the events VS Code agent mode sends to the commands of
// Claude Code's settings files, as its payloads name them.
var vscodeEvents = map[string]bool{
	"SessionStart": true, "UserPromptSubmit": true, "PreToolUse": true, "PostToolUse": true,
	"PreCompact": true, "SubagentStart": true, "SubagentStop": true, "Stop": true,
}

// ParseHook reads one Claude Code hook payload into activity. Every field is
// optional. Payloads that other programs send to commands in Claude Code's
// settings are marked Foreign: Cursor's (cursor_version or workspace_roots),
// counted by Cursor's own hooks; VS Code agent mode's, with Sender "vscode";
// and any other camelCase sender's (Grok Build), Unknown.
func ParseHook(data []byte) (source.Activity, error) {
	var a source.Activity
	raw, err := source.DecodeObject(data, "Claude Code sends the event as JSON on stdin")
	if err != nil {
		return a, err
	}
	s := func(key string) string {
		var v string
		_ = json.Unmarshal(raw[key], &v)
		return v
	}
	obj := func(key string) map[string]any { return source.JSONObject(raw[key]) }
	_, cursorVersion := raw["cursor_version"]
	_, roots := raw["workspace_roots"]
	if cursorVersion || roots {
		a.Foreign = true
		return a, nil
	}
	if _, camel := raw["hookEventName"]; camel && raw["hook_event_name"] == nil {
		// VS Code agent mode reads Claude Code's settings files and sends
		// its own payloads (camelCase common fields, PascalCase events):
		// they are VS Code's conversations. Another camelCase sender (Grok
		// Build: snake_case events, workspaceRoot) is no one's here.
		_, workspaceRoot := raw["workspaceRoot"]
		if vscodeEvents[s("hookEventName")] && !workspaceRoot {
			a.Foreign, a.Sender = true, "vscode"
			return a, nil
		}
		a.Foreign = true
		a.Unknown = fmt.Sprintf("a payload with camelCase keys (%d of them) that no agent recognises, sent by a command of Claude Code's settings (~/.claude/settings.json, or .claude/settings.json or .claude/settings.local.json in the repository), which other programs run too", len(raw))
		return a, nil
	}
	a.ConversationID = s("session_id")
	a.Event = s("hook_event_name")
	a.TranscriptPath = s("transcript_path")
	a.Model = s("model")
	if cwd := s("cwd"); cwd != "" {
		a.Roots = []string{cwd}
	}
	switch a.Event {
	case "UserPromptSubmit":
		a.Prompt = s("prompt")
	case "Stop":
		// SubagentStop's last message is the subagent's, not the answer
		// the user saw: only Stop's is the conversation's response.
		a.Response = s("last_assistant_message")
		a.EndsTurn = true
	case "SessionEnd":
		a.Status = s("reason")
		a.EndsTurn = true
	case "PostToolUse":
		tool := s("tool_name")
		input, resp := obj("tool_input"), obj("tool_response")
		if isEditTool(tool) {
			file, added := toolEdit(tool, input, resp)
			if file != "" {
				a.Files = []string{file}
				a.ToolEdit = true
				if added != "" {
					a.Added = map[string][]string{file: {added}}
				}
				if ws := toolWrites(tool, input, resp); len(ws) > 0 {
					a.Writes = map[string][]position.Write{file: ws}
				}
			}
		}
		if tool == "Bash" {
			if h := bashCommit(input, resp); h != "" {
				a.Commit = &source.AgentCommit{Dir: s("cwd"), Hash: h}
			}
		}
	}
	return a, nil
}
