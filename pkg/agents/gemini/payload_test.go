package gemini

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/agents/source/sourcetest"
)

// payload builds a Gemini CLI hook payload with the base input fields of
// docs/hooks/reference.md and the event's own.
func payload(event string, more map[string]any) []byte {
	m := map[string]any{"session_id": "18f475c0-690f-4bc9-b84e-88a0a1e9518f", "transcript_path": "/h/.gemini/tmp/x/chats/session-1.json",
		"cwd": "/repo", "hook_event_name": event, "timestamp": "2025-12-06T18:25:18.042Z"}
	for k, v := range more {
		m[k] = v
	}
	b, _ := json.Marshal(m)
	return b
}

func TestParseHook(t *testing.T) {
	for _, tc := range []struct {
		name  string
		data  []byte
		check func(t *testing.T, a source.Activity)
	}{
		{"prompt", payload("BeforeAgent", map[string]any{"prompt": "add a log"}), func(t *testing.T, a source.Activity) {
			if a.Prompt != "add a log" || a.EndsTurn || !reflect.DeepEqual(a.Roots, []string{"/repo"}) {
				t.Errorf("%+v", a)
			}
		}},
		{"answer ends the turn", payload("AfterAgent", map[string]any{"prompt": "add a log", "prompt_response": "Done."}), func(t *testing.T, a source.Activity) {
			if !a.EndsTurn || a.Response != "Done." {
				t.Errorf("%+v", a)
			}
		}},
		{"session end", payload("SessionEnd", map[string]any{"reason": "exit"}), func(t *testing.T, a source.Activity) {
			if !a.EndsTurn || a.Status != "exit" {
				t.Errorf("%+v", a)
			}
		}},
		{"write_file before", payload("BeforeTool", map[string]any{"tool_name": "write_file", "tool_input": map[string]any{"file_path": "/repo/a.ts", "content": "x\n"}}), func(t *testing.T, a source.Activity) {
			if !reflect.DeepEqual(a.Before, []string{"/repo/a.ts"}) || a.Files != nil {
				t.Errorf("%+v", a)
			}
		}},
		{"write_file after", payload("AfterTool", map[string]any{"tool_name": "write_file", "tool_input": map[string]any{"file_path": "/repo/a.ts", "content": "x\n"},
			"tool_response": map[string]any{"llmContent": "Successfully created", "returnDisplay": "a.ts"}}), func(t *testing.T, a source.Activity) {
			if !reflect.DeepEqual(a.After, []string{"/repo/a.ts"}) || a.Added["/repo/a.ts"][0] != "x\n" || !a.Writes["/repo/a.ts"][0].Whole {
				t.Errorf("%+v", a)
			}
		}},
		{"replace", payload("AfterTool", map[string]any{"tool_name": "replace", "tool_input": map[string]any{"file_path": "/repo/index.ts", "old_string": "a", "new_string": "a\nb", "instruction": "add b"}}), func(t *testing.T, a source.Activity) {
			if w := a.Writes["/repo/index.ts"]; len(w) != 1 || w[0].Old != "a" || w[0].New != "a\nb" {
				t.Errorf("%+v", a)
			}
		}},
		{"shell commit", payload("AfterTool", map[string]any{"tool_name": "run_shell_command", "tool_input": map[string]any{"command": "git commit -am fix"},
			"tool_response": map[string]any{"llmContent": "Command: git commit -am fix\nDirectory: (root)\nOutput: [main 1234abc] fix\n 1 file changed"}}), func(t *testing.T, a source.Activity) {
			if a.Commit == nil || a.Commit.Hash != "1234abc" {
				t.Errorf("%+v", a.Commit)
			}
		}},
		{"read_file: nothing", payload("AfterTool", map[string]any{"tool_name": "read_file", "tool_input": map[string]any{"file_path": "/repo/a.ts"}}), func(t *testing.T, a source.Activity) {
			if a.Files != nil || a.Before != nil {
				t.Errorf("%+v", a)
			}
		}},
		{"wrong types", []byte(`{"session_id":[],"hook_event_name":"AfterTool","tool_name":"write_file","tool_input":{"file_path":3}}`), func(t *testing.T, a source.Activity) {
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
	for _, bad := range []string{"", "1", "{"} {
		if _, err := ParseHook([]byte(bad)); !errors.Is(err, source.ErrBadPayload) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func FuzzParseHook(f *testing.F) {
	f.Add(payload("AfterTool", map[string]any{"tool_name": "replace", "tool_input": map[string]any{"file_path": "a", "old_string": "x", "new_string": "y"}}))
	f.Add(payload("AfterTool", map[string]any{"tool_name": "run_shell_command", "tool_input": map[string]any{"command": "git commit"}, "tool_response": "[m abcdef0] s"}))
	f.Add(payload("AfterAgent", nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := ParseHook(data)
		sourcetest.CheckParsed(t, a, err)
	})
}
