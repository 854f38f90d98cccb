package vscode

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/agents/source/sourcetest"
)

// payload builds a VS Code hook payload with the documented common fields
// (docs/agent-customization/hooks.md: timestamp, cwd, sessionId,
// hookEventName, transcript_path) and the event's own.
func payload(event string, more map[string]any) []byte {
	m := map[string]any{"timestamp": "2026-02-09T10:30:00.000Z", "cwd": "/repo", "sessionId": "vs-1",
		"hookEventName": event, "transcript_path": "/t/vs-1.jsonl"}
	for k, v := range more {
		m[k] = v
	}
	b, _ := json.Marshal(m)
	return b
}

func TestParseHook(t *testing.T) {
	patch := "*** Begin Patch\n*** Update File: /repo/src/main.ts\n@@\n+// Entry point\n console.log('hello');\n*** End Patch"
	for _, tc := range []struct {
		name  string
		data  []byte
		check func(t *testing.T, a source.Activity)
	}{
		{"prompt", payload("UserPromptSubmit", map[string]any{"prompt": "fix it"}), func(t *testing.T, a source.Activity) {
			if a.Prompt != "fix it" || a.ConversationID != "vs-1" || a.TranscriptPath != "/t/vs-1.jsonl" || !reflect.DeepEqual(a.Roots, []string{"/repo"}) {
				t.Errorf("%+v", a)
			}
		}},
		{"stop ends the turn", payload("Stop", map[string]any{"stop_hook_active": false}), func(t *testing.T, a source.Activity) {
			if !a.EndsTurn {
				t.Error("Stop does not end the turn")
			}
		}},
		{"editFiles before", payload("PreToolUse", map[string]any{"tool_name": "editFiles", "tool_input": map[string]any{"files": []any{"src/main.ts", 3}}, "tool_use_id": "tool-123"}), func(t *testing.T, a source.Activity) {
			if !reflect.DeepEqual(a.Before, []string{"src/main.ts"}) || a.ToolCall != "tool-123" || len(a.Files) != 0 {
				t.Errorf("%+v", a)
			}
		}},
		{"editFiles after", payload("PostToolUse", map[string]any{"tool_name": "editFiles", "tool_input": map[string]any{"files": []any{"src/main.ts"}}, "tool_use_id": "tool-123", "tool_response": "File edited successfully"}), func(t *testing.T, a source.Activity) {
			if !reflect.DeepEqual(a.After, []string{"src/main.ts"}) || !reflect.DeepEqual(a.Files, a.After) || !a.ToolEdit || a.Added != nil || a.Writes != nil {
				t.Errorf("%+v", a)
			}
		}},
		{"create_file", payload("PostToolUse", map[string]any{"tool_name": "create_file", "tool_input": map[string]any{"filePath": "/repo/a.go", "content": "package a\n"}}), func(t *testing.T, a source.Activity) {
			if a.Added["/repo/a.go"][0] != "package a\n" || !a.Writes["/repo/a.go"][0].Whole {
				t.Errorf("%+v", a)
			}
		}},
		{"replace_string_in_file, input as a string", payload("PostToolUse", map[string]any{"tool_name": "replace_string_in_file", "tool_input": `{"filePath":"b.go","oldString":"x","newString":"y\nz"}`}), func(t *testing.T, a source.Activity) {
			if w := a.Writes["b.go"]; len(w) != 1 || w[0].Old != "x" || w[0].New != "y\nz" {
				t.Errorf("%+v", a)
			}
		}},
		{"multi_replace", payload("PostToolUse", map[string]any{"tool_name": "multi_replace_string_in_file", "tool_input": map[string]any{"replacements": []any{
			map[string]any{"filePath": "c.go", "oldString": "1", "newString": "2"}, map[string]any{"filePath": "d.go", "oldString": "3", "newString": "4"}, "junk"}}}), func(t *testing.T, a source.Activity) {
			if !reflect.DeepEqual(a.Files, []string{"c.go", "d.go"}) {
				t.Errorf("%+v", a)
			}
		}},
		{"apply_patch", payload("PostToolUse", map[string]any{"tool_name": "apply_patch", "tool_input": map[string]any{"input": patch, "explanation": "Add a comment."}}), func(t *testing.T, a source.Activity) {
			if !reflect.DeepEqual(a.After, []string{"/repo/src/main.ts"}) || a.Added["/repo/src/main.ts"][0] != "// Entry point" {
				t.Errorf("%+v", a)
			}
		}},
		{"terminal commit", payload("PostToolUse", map[string]any{"tool_name": "run_in_terminal", "tool_input": map[string]any{"command": "git commit -m x"},
			"tool_response": "[main 1a2b3c4] x\n 1 file changed"}), func(t *testing.T, a source.Activity) {
			if a.Commit == nil || a.Commit.Hash != "1a2b3c4" || a.Commit.Dir != "/repo" {
				t.Errorf("%+v", a.Commit)
			}
		}},
		{"terminal, response an object", payload("PostToolUse", map[string]any{"tool_name": "run_in_terminal", "tool_input": map[string]any{"command": "git add . && git commit -m y"},
			"tool_response": map[string]any{"output": "[detached HEAD abcdef1] y"}}), func(t *testing.T, a source.Activity) {
			if a.Commit == nil || a.Commit.Hash != "abcdef1" {
				t.Errorf("%+v", a.Commit)
			}
		}},
		{"read tool: nothing", payload("PostToolUse", map[string]any{"tool_name": "read_file", "tool_input": map[string]any{"filePath": "x"}}), func(t *testing.T, a source.Activity) {
			if a.Files != nil || a.After != nil {
				t.Errorf("%+v", a)
			}
		}},
		{"fields of the wrong type", []byte(`{"sessionId":7,"hookEventName":"PostToolUse","tool_name":["x"],"tool_input":5,"cwd":{}}`), func(t *testing.T, a source.Activity) {
			if a.ConversationID != "" || a.Files != nil {
				t.Errorf("%+v", a)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := ParseHook(tc.data)
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, a)
		})
	}
	for _, bad := range []string{"", "[]", "{", "\xef\xbb\xbf"} {
		if _, err := ParseHook([]byte(bad)); !errors.Is(err, source.ErrBadPayload) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func FuzzParseHook(f *testing.F) {
	f.Add(payload("PostToolUse", map[string]any{"tool_name": "editFiles", "tool_input": map[string]any{"files": []any{"a"}}}))
	f.Add(payload("PostToolUse", map[string]any{"tool_name": "apply_patch", "tool_input": map[string]any{"input": "*** Begin Patch\n*** Add File: x\n+y\n*** End Patch"}}))
	f.Add(payload("PostToolUse", map[string]any{"tool_name": "run_in_terminal", "tool_input": `{"command":"git commit"}`, "tool_response": []any{map[string]any{"text": "[m abcdef0] s"}}}))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := ParseHook(data)
		sourcetest.CheckParsed(t, a, err)
	})
}
