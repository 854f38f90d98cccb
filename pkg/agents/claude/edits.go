package claude

import (
	"strings"

	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/attribution/position"
)

// editTools are Claude Code's tools that change files.
func isEditTool(name string) bool {
	switch name {
	case "Edit", "Write", "MultiEdit", "NotebookEdit":
		return true
	}
	return false
}

// toolEdit reads one edit tool call: the file it changed and the text it
// added. input is the tool's input; resp its structured result
// (PostToolUse's tool_response, a transcript's toolUseResult), nil when
// unknown. The added text keeps the file's own whitespace: it comes from the
// input strings, structuredPatch is the fallback (it shows tabs as spaces).
func toolEdit(tool string, input, resp map[string]any) (file, added string) {
	file = str(input, "file_path", "notebook_path")
	if file == "" {
		file = str(resp, "filePath", "notebook_path")
	}
	switch tool {
	case "Edit":
		if n, ok := input["new_string"].(string); ok {
			return file, source.AddedLines(str(input, "old_string"), n)
		}
	case "MultiEdit":
		if edits, ok := input["edits"].([]any); ok {
			var b strings.Builder
			for _, e := range edits {
				m, _ := e.(map[string]any)
				b.WriteString(source.AddedLines(str(m, "old_string"), str(m, "new_string")))
			}
			return file, b.String()
		}
	case "Write":
		content, ok := input["content"].(string)
		if !ok {
			content, ok = resp["content"].(string)
		}
		if ok {
			return file, source.AddedLines(str(resp, "originalFile"), content)
		}
	case "NotebookEdit":
		if n, ok := input["new_source"].(string); ok {
			return file, source.AddedLines(str(resp, "old_source"), n)
		}
	}
	return file, patchAdded(resp["structuredPatch"])
}

// patchAdded returns the "+" lines of structuredPatch hunks.
func patchAdded(v any) string {
	hunks, _ := v.([]any)
	var b strings.Builder
	for _, h := range hunks {
		m, _ := h.(map[string]any)
		lines, _ := m["lines"].([]any)
		for _, l := range lines {
			if s, ok := l.(string); ok && strings.HasPrefix(s, "+") {
				b.WriteString(s[1:])
				b.WriteByte('\n')
			}
		}
	}
	return b.String()
}

// bashCommit returns the commit a Bash tool call made, when it ran git
// commit and succeeded: from gitOperation (newer versions) or git's output.
func bashCommit(input, resp map[string]any) string {
	if !source.RunsGitCommit(str(input, "command")) {
		return ""
	}
	if op, ok := resp["gitOperation"].(map[string]any); ok {
		if c, ok := op["commit"].(map[string]any); ok {
			if sha := str(c, "sha"); sha != "" {
				return sha
			}
		}
	}
	return source.ShellCommit(str(input, "command"), str(resp, "stdout"))
}

// str returns the first non-empty string among m's keys.
func str(m map[string]any, keys ...string) string {
	for _, k := range keys {
		if s, ok := m[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

// toolWrites reads one edit tool call as replacements for the capture to
// locate (source.Activity.Writes): the lines its structuredPatch says it
// wrote, with their numbers, when the result has one; else the input's
// old and new strings, or Write's whole file.
func toolWrites(tool string, input, resp map[string]any) []position.Write {
	if lines := patchLines(resp["structuredPatch"]); len(lines) > 0 {
		return []position.Write{{Lines: lines}}
	}
	switch tool {
	case "Edit":
		if n, ok := input["new_string"].(string); ok {
			return []position.Write{{Old: str(input, "old_string"), New: n}}
		}
	case "MultiEdit":
		edits, _ := input["edits"].([]any)
		var out []position.Write
		for _, e := range edits {
			m, _ := e.(map[string]any)
			out = append(out, position.Write{Old: str(m, "old_string"), New: str(m, "new_string")})
		}
		return out
	case "Write":
		content, ok := input["content"].(string)
		if !ok {
			content, ok = resp["content"].(string)
		}
		if ok {
			return []position.Write{{Whole: true, Old: str(resp, "originalFile"), New: content}}
		}
	}
	return nil
}

// patchLines returns the "+" lines of structuredPatch hunks with their line
// numbers in the file after the edit.
func patchLines(v any) []position.PatchLine {
	hunks, _ := v.([]any)
	var out []position.PatchLine
	for _, h := range hunks {
		m, _ := h.(map[string]any)
		start, ok := m["newStart"].(float64)
		if !ok {
			return nil
		}
		n := int(start)
		lines, _ := m["lines"].([]any)
		for _, l := range lines {
			s, _ := l.(string)
			switch {
			case strings.HasPrefix(s, "+"):
				out = append(out, position.PatchLine{N: n, Text: s[1:]})
				n++
			case strings.HasPrefix(s, " "):
				n++
			}
		}
	}
	return out
}
