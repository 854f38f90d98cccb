package vscode

import (
	"encoding/json"
	"strings"

	"github.com/git-convo/git-convo/pkg/agents/formats/applypatch"
	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/attribution/position"
)

// ParseHook reads one VS Code agent-mode hook payload: camelCase common
// fields (sessionId, hookEventName, timestamp, cwd), snake_case
// transcript_path and tool fields (tool_name, tool_input, tool_response,
// tool_use_id); the other spelling of each is read too. Every field is
// optional, and a field of an unexpected type is ignored.
//
// VS Code's editFiles names files but not the text: PreToolUse asks capture
// to keep the files (Activity.Before), PostToolUse to diff them (After), so
// only the lines the tool changed are the session's. Every file tool does
// so; where the payload also gives the text (create_file, the replace
// tools, apply_patch) it is kept as the edit's text and writes, for when
// the PreToolUse did not run.
func ParseHook(data []byte) (source.Activity, error) {
	var a source.Activity
	raw, err := source.DecodeObject(data, "VS Code sends the event as JSON on stdin")
	if err != nil {
		return a, err
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
	a.ConversationID = s("sessionId", "session_id")
	a.Event = s("hookEventName", "hook_event_name")
	a.TranscriptPath = s("transcript_path", "transcriptPath")
	a.Model = s("model")
	if cwd := s("cwd"); cwd != "" {
		a.Roots = []string{cwd}
	}
	switch a.Event {
	case "UserPromptSubmit":
		a.Prompt = s("prompt")
	case "Stop":
		a.EndsTurn = true
	case "PreToolUse", "PostToolUse":
		tool := s("tool_name", "toolName")
		input := source.JSONObject(first(raw, "tool_input", "toolInput"))
		a.ToolCall = s("tool_use_id", "toolUseId")
		edits := toolEdits(tool, input)
		var files []string
		for _, e := range edits {
			files = append(files, e.path)
		}
		if a.Event == "PreToolUse" {
			a.Before = files
			break
		}
		if len(files) > 0 {
			a.Files, a.After, a.ToolEdit = files, files, true
		}
		for _, e := range edits {
			if len(e.added) > 0 {
				if a.Added == nil {
					a.Added = map[string][]string{}
				}
				a.Added[e.path] = append(a.Added[e.path], e.added...)
			}
			if len(e.writes) > 0 {
				if a.Writes == nil {
					a.Writes = map[string][]position.Write{}
				}
				a.Writes[e.path] = append(a.Writes[e.path], e.writes...)
			}
		}
		if isTerminal(tool) {
			if h := source.ShellCommit(str(input["command"]), source.ToolOutput(first(raw, "tool_response", "toolResponse"))); h != "" {
				a.Commit = &source.AgentCommit{Dir: s("cwd"), Hash: h}
			}
		}
	}
	return a, nil
}

// fileEdit is what a tool call says of one file.
type fileEdit struct {
	path   string
	added  []string
	writes []position.Write
}

// toolEdits are the files a VS Code tool call writes, with the text when
// its input gives it. Tool names and their inputs are VS Code's (camelCase:
// filePath, oldString, newString); a snake_case spelling is read too.
func toolEdits(tool string, in map[string]any) []fileEdit {
	path := str(in["filePath"])
	if path == "" {
		path = str(in["file_path"])
	}
	switch tool {
	case "editFiles":
		var out []fileEdit
		if list, ok := in["files"].([]any); ok {
			for _, f := range list {
				if p := str(f); p != "" {
					out = append(out, fileEdit{path: p})
				}
			}
		}
		return out
	case "create_file":
		if path == "" {
			return nil
		}
		content := str(in["content"])
		e := fileEdit{path: path, writes: []position.Write{{Whole: true, New: content}}}
		if strings.TrimSpace(content) != "" {
			e.added = []string{content}
		}
		return []fileEdit{e}
	case "replace_string_in_file":
		if path == "" {
			return nil
		}
		return []fileEdit{replacement(path, str(in["oldString"]), str(in["newString"]))}
	case "multi_replace_string_in_file":
		var out []fileEdit
		list, _ := in["replacements"].([]any)
		for _, r := range list {
			m, _ := r.(map[string]any)
			if p := str(m["filePath"]); p != "" {
				out = append(out, replacement(p, str(m["oldString"]), str(m["newString"])))
			}
		}
		return out
	case "insert_edit_into_file", "edit_notebook_file", "edit_file":
		// The input's code elides what it keeps ("...existing code..."):
		// the diff alone says which lines are new.
		if path == "" {
			return nil
		}
		return []fileEdit{{path: path}}
	case "apply_patch":
		var out []fileEdit
		for _, f := range applypatch.Parse(str(in["input"])) {
			if f.Op == applypatch.Delete {
				continue
			}
			out = append(out, fileEdit{path: f.Target(), added: f.Added(), writes: f.Writes()})
		}
		return out
	}
	return nil
}

// replacement is one string replaced in a file.
func replacement(path, old, new string) fileEdit {
	e := fileEdit{path: path, writes: []position.Write{{Old: old, New: new}}}
	if strings.TrimSpace(new) != "" {
		e.added = []string{new}
	}
	return e
}

// isTerminal names VS Code's terminal tools.
func isTerminal(tool string) bool {
	return tool == "run_in_terminal" || tool == "runInTerminal" || tool == "run_in_terminal2"
}

// first is the first of keys that raw has.
func first(raw map[string]json.RawMessage, keys ...string) json.RawMessage {
	for _, k := range keys {
		if v, ok := raw[k]; ok {
			return v
		}
	}
	return nil
}

func str(v any) string {
	s, _ := v.(string)
	return s
}
