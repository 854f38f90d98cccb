package copilot

import (
	"encoding/json"

	"strings"

	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/attribution/position"
)

// ParseHookEvent reads one Copilot CLI hook payload. Its camelCase payloads
// (sessionId, timestamp in ms, cwd; prompt; toolName, toolArgs, toolResult;
// transcriptPath, stopReason; reason) do not name their event: the hook
// command does (capture --event), as hooks.json registers it. The
// PascalCase form (hook_event_name, session_id, tool_name, tool_input,
// tool_result) is read too. Every field is optional, and a field of an
// unexpected type is ignored.
func ParseHookEvent(data []byte, event string) (source.Activity, error) {
	raw, err := source.DecodeObject(data, "Copilot CLI sends the event as JSON on stdin")
	if err != nil {
		return source.Activity{}, err
	}
	s := func(keys ...string) string {
		for _, k := range keys {
			var v string
			if json.Unmarshal(raw[k], &v) == nil && v != "" {
				return v
			}
		}
		return ""
	}
	var a source.Activity
	a.ConversationID = s("sessionId", "session_id")
	a.Event = event
	if a.Event == "" {
		a.Event = s("hook_event_name")
	}
	a.TranscriptPath = s("transcriptPath", "transcript_path")
	cwd := s("cwd")
	if cwd != "" {
		a.Roots = []string{cwd}
	}
	switch a.Event {
	case "userPromptSubmitted", "UserPromptSubmit":
		a.Prompt = s("prompt")
	case "agentStop", "Stop":
		a.Status = s("stopReason", "stop_reason")
		a.EndsTurn = true
	case "sessionEnd", "SessionEnd":
		a.Status = s("reason")
		a.EndsTurn = true
	case "preToolUse", "PreToolUse", "postToolUse", "PostToolUse":
		tool := s("toolName", "tool_name")
		args := source.JSONObject(first(raw, "toolArgs", "tool_input"))
		path, _ := args["path"].(string)
		pre := a.Event == "preToolUse" || a.Event == "PreToolUse"
		if isEdit(tool) && path != "" {
			if pre {
				a.Before = []string{path}
				break
			}
			a.Files, a.After, a.ToolEdit = []string{path}, []string{path}, true
			w, added := edit(tool, args)
			a.Writes = map[string][]position.Write{path: {w}}
			if strings.TrimSpace(added) != "" {
				a.Added = map[string][]string{path: {added}}
			}
		}
		if tool == "bash" && !pre {
			cmd, _ := args["command"].(string)
			if h := source.ShellCommit(cmd, source.ToolOutput(first(raw, "toolResult", "tool_result"))); h != "" {
				a.Commit = &source.AgentCommit{Dir: cwd, Hash: h}
			}
		}
	}
	return a, nil
}

// ParseHook reads a payload whose hook command named no event.
func ParseHook(data []byte) (source.Activity, error) { return ParseHookEvent(data, "") }

// isEdit names the Copilot CLI's file-writing tools.
func isEdit(tool string) bool { return tool == "edit" || tool == "create" }

// edit is an edit's or create's write, and the text it wrote.
func edit(tool string, args map[string]any) (position.Write, string) {
	str := func(k string) string { v, _ := args[k].(string); return v }
	if tool == "create" {
		return position.Write{Whole: true, New: str("file_text")}, str("file_text")
	}
	return position.Write{Old: str("old_str"), New: str("new_str")}, str("new_str")
}

func first(raw map[string]json.RawMessage, keys ...string) json.RawMessage {
	for _, k := range keys {
		if v, ok := raw[k]; ok {
			return v
		}
	}
	return nil
}
