package codex

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/agents/source/sourcetest"
)

// payload builds a Codex hook payload with the common fields of the
// generated schemas (codex-rs/hooks/schema/generated) and the event's own.
func payload(event string, more map[string]any) []byte {
	m := map[string]any{"session_id": "019e1625-789d-76c0-80ab-3724b5ddb799", "turn_id": "019e1625-d031-75e3-a85f-f143e43c0d84",
		"transcript_path": "/h/.codex/sessions/2026/05/11/rollout-x.jsonl", "cwd": "/repo", "hook_event_name": event,
		"model": "gpt-5.5", "permission_mode": "default"}
	for k, v := range more {
		m[k] = v
	}
	b, _ := json.Marshal(m)
	return b
}

const patch = "*** Begin Patch\n*** Update File: src/a.ts\n@@\n   describe('x', () => {\n+  it('y', () => {});\n*** Add File: src/b.ts\n+export const b = 1;\n*** Delete File: src/c.ts\n*** End Patch"

func TestParseHook(t *testing.T) {
	for _, tc := range []struct {
		name  string
		data  []byte
		check func(t *testing.T, a source.Activity)
	}{
		{"prompt", payload("UserPromptSubmit", map[string]any{"prompt": "show tools"}), func(t *testing.T, a source.Activity) {
			if a.Prompt != "show tools" || a.Model != "gpt-5.5" || a.GenerationID == "" || !reflect.DeepEqual(a.Roots, []string{"/repo"}) {
				t.Errorf("%+v", a)
			}
		}},
		{"stop", payload("Stop", map[string]any{"last_assistant_message": "Done.", "stop_hook_active": false}), func(t *testing.T, a source.Activity) {
			if !a.EndsTurn || a.Response != "Done." {
				t.Errorf("%+v", a)
			}
		}},
		{"stop, null message and transcript", payload("Stop", map[string]any{"last_assistant_message": nil, "transcript_path": nil}), func(t *testing.T, a source.Activity) {
			if !a.EndsTurn || a.Response != "" || a.TranscriptPath != "" {
				t.Errorf("%+v", a)
			}
		}},
		{"apply_patch", payload("PostToolUse", map[string]any{"tool_name": "apply_patch", "tool_use_id": "call_1",
			"tool_input": map[string]any{"command": patch}, "tool_response": "Success. Updated the following files:\nM src/a.ts\nA src/b.ts\nD src/c.ts\n"}), func(t *testing.T, a source.Activity) {
			if !reflect.DeepEqual(a.Files, []string{"src/a.ts", "src/b.ts"}) || !a.ToolEdit {
				t.Fatalf("files %v", a.Files)
			}
			if a.Added["src/a.ts"][0] != "  it('y', () => {});" || len(a.Writes["src/b.ts"]) != 1 || !a.Writes["src/b.ts"][0].Whole {
				t.Errorf("%+v", a)
			}
		}},
		{"Bash commit", payload("PostToolUse", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "git add -A && git commit -m 'x'"},
			"tool_response": "[main 0a1b2c3] x\n 1 file changed, 1 insertion(+)\n"}), func(t *testing.T, a source.Activity) {
			if a.Commit == nil || a.Commit.Hash != "0a1b2c3" || a.Commit.Dir != "/repo" {
				t.Errorf("%+v", a.Commit)
			}
		}},
		{"exec_command argv, response object", payload("PostToolUse", map[string]any{"tool_name": "exec_command", "tool_input": map[string]any{"command": []any{"/bin/zsh", "-lc", "git commit -m y"}},
			"tool_response": map[string]any{"output": "[feat/x 89abcde] y"}}), func(t *testing.T, a source.Activity) {
			if a.Commit == nil || a.Commit.Hash != "89abcde" {
				t.Errorf("%+v", a.Commit)
			}
		}},
		{"a failed commit prints no summary", payload("PostToolUse", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "git commit"},
			"tool_response": "nothing to commit, working tree clean"}), func(t *testing.T, a source.Activity) {
			if a.Commit != nil {
				t.Errorf("%+v", a.Commit)
			}
		}},
		{"wrong types", []byte(`{"session_id":1,"hook_event_name":"PostToolUse","tool_name":"apply_patch","tool_input":{"command":7},"cwd":[]}`), func(t *testing.T, a source.Activity) {
			if a.ConversationID != "" || a.Files != nil || a.Roots != nil {
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
	for _, bad := range []string{"", "null", "{", "[1]"} {
		if _, err := ParseHook([]byte(bad)); !errors.Is(err, source.ErrBadPayload) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func FuzzParseHook(f *testing.F) {
	f.Add(payload("PostToolUse", map[string]any{"tool_name": "apply_patch", "tool_input": map[string]any{"command": patch}}))
	f.Add(payload("PostToolUse", map[string]any{"tool_name": "Bash", "tool_input": `{"command":"git commit"}`, "tool_response": "[m abcdef0] s"}))
	f.Add(payload("Stop", nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := ParseHook(data)
		sourcetest.CheckParsed(t, a, err)
	})
}
