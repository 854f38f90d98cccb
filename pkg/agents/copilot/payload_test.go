package copilot

import (
	"errors"
	"reflect"
	"testing"

	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/agents/source/sourcetest"
)

// The four payloads captured from a real Copilot CLI 0.0.420
// (captured/entire_copilotcli_AGENT.md in the shared fixtures), and tool
// payloads in the documented shape (docs/cli-hooks-reference).
const (
	prompt  = `{"timestamp":1771480081360,"cwd":"/path/to/repo","sessionId":"b0ff98c0-8e01-4b73-bf92-9649b139931b","prompt":"hi"}`
	start   = `{"timestamp":1771480081383,"cwd":"/path/to/repo","sessionId":"b0ff98c0-8e01-4b73-bf92-9649b139931b","source":"new","initialPrompt":"hi"}`
	stop    = `{"timestamp":1771480085412,"cwd":"/path/to/repo","sessionId":"b0ff98c0-8e01-4b73-bf92-9649b139931b","transcriptPath":"/home/user/.copilot/session-state/b0ff98c0-8e01-4b73-bf92-9649b139931b/events.jsonl","stopReason":"end_turn"}`
	end     = `{"timestamp":1771480085425,"cwd":"/path/to/repo","sessionId":"b0ff98c0-8e01-4b73-bf92-9649b139931b","reason":"complete"}`
	editPre = `{"sessionId":"s","timestamp":1,"cwd":"/r","toolName":"edit","toolArgs":{"path":"/r/a.py","old_str":"x","new_str":"x\ny"}}`
	editOK  = `{"sessionId":"s","timestamp":2,"cwd":"/r","toolName":"edit","toolArgs":"{\"path\":\"/r/a.py\",\"old_str\":\"x\",\"new_str\":\"x\\ny\"}","toolResult":{"resultType":"success","textResultForLlm":"ok"}}`
	create  = `{"sessionId":"s","timestamp":2,"cwd":"/r","toolName":"create","toolArgs":{"path":"/r/hello.py","file_text":"print('hello world')\n"},"toolResult":{"resultType":"success","textResultForLlm":"Created file"}}`
	bash    = `{"sessionId":"s","timestamp":3,"cwd":"/r","toolName":"bash","toolArgs":{"command":"git commit -m hi"},"toolResult":{"resultType":"success","textResultForLlm":"[main 7a8b9c0] hi\n 1 file changed"}}`
	pascal  = `{"hook_event_name":"PostToolUse","session_id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/r","tool_name":"create","tool_input":{"path":"b.py","file_text":"b\n"},"tool_result":{"result_type":"success","text_result_for_llm":"ok"}}`
)

func TestParseHookEvent(t *testing.T) {
	for _, tc := range []struct {
		name, event, data string
		check             func(t *testing.T, a source.Activity)
	}{
		{"prompt (captured)", "userPromptSubmitted", prompt, func(t *testing.T, a source.Activity) {
			if a.Prompt != "hi" || a.ConversationID != "b0ff98c0-8e01-4b73-bf92-9649b139931b" || !reflect.DeepEqual(a.Roots, []string{"/path/to/repo"}) {
				t.Errorf("%+v", a)
			}
		}},
		{"session start (captured)", "sessionStart", start, func(t *testing.T, a source.Activity) {
			if a.Event != "sessionStart" || a.EndsTurn || a.Prompt != "" {
				t.Errorf("%+v", a)
			}
		}},
		{"agent stop (captured)", "agentStop", stop, func(t *testing.T, a source.Activity) {
			if !a.EndsTurn || a.TranscriptPath == "" || a.Status != "end_turn" {
				t.Errorf("%+v", a)
			}
		}},
		{"session end (captured)", "sessionEnd", end, func(t *testing.T, a source.Activity) {
			if !a.EndsTurn || a.Status != "complete" {
				t.Errorf("%+v", a)
			}
		}},
		{"edit before", "preToolUse", editPre, func(t *testing.T, a source.Activity) {
			if !reflect.DeepEqual(a.Before, []string{"/r/a.py"}) || a.Files != nil {
				t.Errorf("%+v", a)
			}
		}},
		{"edit after, args as a string", "postToolUse", editOK, func(t *testing.T, a source.Activity) {
			if w := a.Writes["/r/a.py"]; len(w) != 1 || w[0].Old != "x" || w[0].New != "x\ny" || !reflect.DeepEqual(a.After, []string{"/r/a.py"}) {
				t.Errorf("%+v", a)
			}
		}},
		{"create", "postToolUse", create, func(t *testing.T, a source.Activity) {
			if a.Added["/r/hello.py"][0] != "print('hello world')\n" || !a.Writes["/r/hello.py"][0].Whole {
				t.Errorf("%+v", a)
			}
		}},
		{"bash commit", "postToolUse", bash, func(t *testing.T, a source.Activity) {
			if a.Commit == nil || a.Commit.Hash != "7a8b9c0" || a.Commit.Dir != "/r" {
				t.Errorf("%+v", a.Commit)
			}
		}},
		{"PascalCase form, event in the payload", "", pascal, func(t *testing.T, a source.Activity) {
			if a.Event != "PostToolUse" || !reflect.DeepEqual(a.Files, []string{"b.py"}) {
				t.Errorf("%+v", a)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := ParseHookEvent([]byte(tc.data), tc.event)
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, a)
		})
	}
	if _, err := ParseHook([]byte("x")); !errors.Is(err, source.ErrBadPayload) {
		t.Error(err)
	}
}

func FuzzParseHookEvent(f *testing.F) {
	for _, p := range []string{prompt, stop, editOK, create, bash, pascal} {
		f.Add([]byte(p), "postToolUse")
	}
	f.Fuzz(func(t *testing.T, data []byte, event string) {
		a, err := ParseHookEvent(data, event)
		sourcetest.CheckParsed(t, a, err)
	})
}
