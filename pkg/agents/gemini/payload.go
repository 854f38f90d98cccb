package gemini

import (
	"strings"

	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/attribution/position"
)

// ParseHook reads one Gemini CLI hook payload (docs/hooks/reference.md:
// session_id, transcript_path, cwd, hook_event_name, timestamp; prompt and
// prompt_response; tool_name, tool_input, tool_response). Every field is
// optional, and a field of an unexpected type is ignored.
//
// Edits: write_file (file_path, content) and replace (file_path,
// old_string, new_string). BeforeTool asks capture to keep the file
// (Activity.Before) and AfterTool to diff it (After): a write_file that
// rewrites a whole file gives only the lines it changed. The payload's own
// text stays the edit's text and, without a kept copy, its writes.
func ParseHook(data []byte) (source.Activity, error) {
	raw, err := source.DecodeObject(data, "Gemini CLI sends the event as JSON on stdin")
	if err != nil {
		return source.Activity{}, err
	}
	a, s := source.CommonFields(raw)
	cwd := s("cwd")
	switch a.Event {
	case "BeforeAgent":
		a.Prompt = s("prompt")
	case "AfterAgent":
		a.Response = s("prompt_response")
		a.EndsTurn = true
	case "SessionEnd":
		a.Status = s("reason")
		a.EndsTurn = true
	case "BeforeTool", "AfterTool":
		tool := s("tool_name")
		in := source.JSONObject(raw["tool_input"])
		path, _ := in["file_path"].(string)
		if isEdit(tool) && path != "" {
			if a.Event == "BeforeTool" {
				a.Before = []string{path}
				break
			}
			a.Files, a.After, a.ToolEdit = []string{path}, []string{path}, true
			w, added := edit(tool, in)
			a.Writes = map[string][]position.Write{path: {w}}
			if strings.TrimSpace(added) != "" {
				a.Added = map[string][]string{path: {added}}
			}
		}
		if tool == "run_shell_command" && a.Event == "AfterTool" {
			cmd, _ := in["command"].(string)
			if h := source.ShellCommit(cmd, shellOutput(source.ToolOutput(raw["tool_response"]))); h != "" {
				a.Commit = &source.AgentCommit{Dir: cwd, Hash: h}
			}
		}
	}
	return a, nil
}

// isEdit names Gemini CLI's file-writing tools.
func isEdit(tool string) bool { return tool == "write_file" || tool == "replace" }

// edit is a write_file's or replace's write, and the text it wrote.
func edit(tool string, in map[string]any) (position.Write, string) {
	str := func(k string) string { v, _ := in[k].(string); return v }
	if tool == "write_file" {
		return position.Write{Whole: true, New: str("content")}, str("content")
	}
	return position.Write{Old: str("old_string"), New: str("new_string")}, str("new_string")
}

// shellOutput is run_shell_command's output as the shell printed it: its
// llmContent labels the first line of each stream ("Output: [main
// 1a2b3c4] subject"), which would hide git's summary line.
func shellOutput(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		for _, label := range []string{"Output: ", "Stdout: "} {
			lines[i] = strings.TrimPrefix(l, label)
			if lines[i] != l {
				break
			}
		}
	}
	return strings.Join(lines, "\n")
}
