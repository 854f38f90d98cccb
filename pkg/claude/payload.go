package claude

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/git-convo/git-convo/pkg/position"
	"github.com/git-convo/git-convo/pkg/source"
)

// ParseHook reads one Claude Code hook payload into activity. Every field is
// optional. Payloads that other programs send to commands in Claude Code's
// settings (Cursor, which carries cursor_version or workspace_roots; Grok
// Build, which writes camelCase keys) are marked Foreign.
func ParseHook(data []byte) (source.Activity, error) {
	var a source.Activity
	data = bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))
	if len(data) == 0 {
		return a, fmt.Errorf("%w: stdin was empty (Claude Code sends the event as JSON on stdin)", source.ErrBadPayload)
	}
	// Errors describe the input's shape, never its content (docs/privacy.md).
	if data[0] != '{' {
		return a, fmt.Errorf("%w: %d bytes that do not start with '{'", source.ErrBadPayload, len(data))
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return a, fmt.Errorf("%w: invalid JSON at byte %d of %d", source.ErrBadPayload, se.Offset, len(data))
		}
		return a, fmt.Errorf("%w: invalid JSON (%d bytes)", source.ErrBadPayload, len(data))
	}
	s := func(key string) string {
		var v string
		_ = json.Unmarshal(raw[key], &v)
		return v
	}
	obj := func(key string) map[string]any {
		var m map[string]any
		if json.Unmarshal(raw[key], &m) != nil {
			// Some senders put an object in a JSON string.
			var inner string
			if json.Unmarshal(raw[key], &inner) == nil {
				_ = json.Unmarshal([]byte(inner), &m)
			}
		}
		return m
	}
	_, cursorVersion := raw["cursor_version"]
	_, roots := raw["workspace_roots"]
	_, camel := raw["hookEventName"]
	if cursorVersion || roots || (camel && raw["hook_event_name"] == nil) {
		a.Foreign = true
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
