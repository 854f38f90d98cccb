package claude

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/agents/cursor/cursortest"
	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/attribution/position"
)

// fixtures returns the shared Claude Code material
// (../shared/fixtures/claude-code), or skips the test when it is absent or
// hidden (GIT_CONVO_TEST_NO_SHARED).
func fixtures(t *testing.T) string {
	t.Helper()
	return filepath.Dir(cursortest.Shared(t, "claude-code", "README.md"))
}

type fixturePayload struct {
	Name    string          `json:"name"`
	Event   string          `json:"event"`
	Tool    string          `json:"tool"`
	Kind    string          `json:"kind"`
	Payload json.RawMessage `json:"payload"`
}

// TestReplayFixturePayloads parses every payload of hook-payloads.json and
// checks what each kind of event must yield.
func TestReplayFixturePayloads(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(fixtures(t), "hook-payloads.json"))
	if err != nil {
		t.Fatal(err)
	}
	var all []fixturePayload
	if err := json.Unmarshal(data, &all); err != nil {
		t.Fatal(err)
	}
	if len(all) < 20 {
		t.Fatalf("only %d payloads", len(all))
	}
	for _, fp := range all {
		t.Run(fp.Name, func(t *testing.T) {
			a, err := ParseHook(fp.Payload)
			if err != nil {
				t.Fatalf("ParseHook: %v", err)
			}
			if fp.Kind == "foreign" {
				if !a.Foreign {
					t.Fatalf("a foreign payload was not recognised: %+v", a)
				}
				return
			}
			if a.Foreign || a.ConversationID == "" || a.Event != fp.Event {
				t.Fatalf("got id %q event %q foreign %v; want a Claude %s event", a.ConversationID, a.Event, a.Foreign, fp.Event)
			}
			switch {
			case fp.Event == "UserPromptSubmit":
				if a.Prompt == "" {
					t.Error("no prompt")
				}
			case fp.Event == "PostToolUse" && isEditTool(fp.Tool):
				if len(a.Files) != 1 || len(a.Added[a.Files[0]]) == 0 || strings.TrimSpace(a.Added[a.Files[0]][0]) == "" {
					t.Errorf("edit without file or added text: files %v added %v", a.Files, a.Added)
				}
			case fp.Event == "PostToolUse" && fp.Tool == "Bash":
				if a.Commit == nil || len(a.Commit.Hash) < 7 {
					t.Errorf("the agent's git commit was not seen: %+v", a.Commit)
				}
			case fp.Event == "Stop" || fp.Event == "SessionEnd":
				if !a.EndsTurn {
					t.Error("Stop/SessionEnd must end the turn")
				}
				if fp.Event == "Stop" && a.Response == "" {
					t.Error("Stop's last_assistant_message was not kept")
				}
			default:
				if len(a.Files) > 0 || a.Commit != nil || a.Response != "" || a.EndsTurn {
					t.Errorf("%s recorded files %v / commit %v", fp.Event, a.Files, a.Commit)
				}
			}
		})
	}
}

func TestParseHookAddedLines(t *testing.T) {
	tests := []struct {
		name, payload string
		file          string
		added         string
	}{
		{"edit keeps tabs, only new lines",
			`{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"/r/a.go","old_string":"func a() {\n\treturn\n}","new_string":"func a() {\n\tx := 1\n\treturn\n}"},"tool_response":{"structuredPatch":[{"lines":[" func a() {","+  x := 1","   return"]}]}}`,
			"/r/a.go", "\tx := 1\n"},
		{"write create",
			`{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{"file_path":"/r/n.txt","content":"one\ntwo"},"tool_response":{"type":"create","originalFile":null,"structuredPatch":[]}}`,
			"/r/n.txt", "one\ntwo\n"},
		{"write overwrite keeps only new lines",
			`{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{"file_path":"/r/n.txt","content":"one\nthree"},"tool_response":{"type":"update","originalFile":"one\ntwo"}}`,
			"/r/n.txt", "three\n"},
		{"multiedit",
			`{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"MultiEdit","tool_input":{"file_path":"/r/m.css","edits":[{"old_string":"a","new_string":"b"},{"old_string":"c","new_string":"c\nd"}]},"tool_response":{"originalFileContents":"a\nc"}}`,
			"/r/m.css", "b\nd\n"},
		{"notebook",
			`{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"NotebookEdit","tool_input":{"notebook_path":"/r/nb.ipynb","new_source":"print(2)"},"tool_response":{"old_source":"print(1)"}}`,
			"/r/nb.ipynb", "print(2)\n"},
		{"structuredPatch only",
			`{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"/r/p.txt"},"tool_response":{"structuredPatch":[{"lines":[" a","-b","+c"]}]}}`,
			"/r/p.txt", "c\n"},
		{"tool_input as a JSON string",
			`{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Write","tool_input":"{\"file_path\":\"/r/s.txt\",\"content\":\"z\"}"}`,
			"/r/s.txt", "z\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := ParseHook([]byte(tt.payload))
			if err != nil {
				t.Fatal(err)
			}
			if len(a.Files) != 1 || a.Files[0] != tt.file {
				t.Fatalf("files %v, want [%s]", a.Files, tt.file)
			}
			if got := strings.Join(a.Added[tt.file], ""); got != tt.added {
				t.Errorf("added %q, want %q", got, tt.added)
			}
		})
	}
}

func TestParseHookBashCommit(t *testing.T) {
	tests := []struct {
		command, stdout, want string
	}{
		{`git add -A && git commit -m "x"`, "[main 3ecb434] x\n 1 file changed", "3ecb434"},
		{`git -C sub commit -am x`, "[feature/a-b (root-commit) 0123abcd] x", "0123abcd"},
		{`git commit -m x`, "nothing to commit, working tree clean", ""},
		{`git log --oneline`, "[main 3ecb434] x", ""},
		{`echo "git commitment"`, "[main 3ecb434] x", ""},
	}
	for _, tt := range tests {
		p, _ := json.Marshal(map[string]any{"session_id": "s", "cwd": "/r", "hook_event_name": "PostToolUse", "tool_name": "Bash",
			"tool_input": map[string]any{"command": tt.command}, "tool_response": map[string]any{"stdout": tt.stdout}})
		a, err := ParseHook(p)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if a.Commit != nil {
			got = a.Commit.Hash
			if a.Commit.Dir != "/r" {
				t.Errorf("%s: dir %q", tt.command, a.Commit.Dir)
			}
		}
		if got != tt.want {
			t.Errorf("%s → %q, want %q", tt.command, got, tt.want)
		}
	}
}

func TestParseHookBadInput(t *testing.T) {
	for _, in := range []string{"", "  ", "[]", "{", "null", `"x"`} {
		if _, err := ParseHook([]byte(in)); !errors.Is(err, source.ErrBadPayload) {
			t.Errorf("%q: err %v, want ErrBadPayload", in, err)
		}
	}
	// Wrong types and missing fields are not errors.
	a, err := ParseHook([]byte("\xef\xbb\xbf" + `{"session_id":5,"hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":[1]}`))
	if err != nil || a.ConversationID != "" || len(a.Files) != 0 {
		t.Errorf("lenient parse: %+v, %v", a, err)
	}
}

func FuzzParseHook(f *testing.F) {
	f.Add([]byte(`{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"a","old_string":"x","new_string":"y"}}`))
	f.Add([]byte(`{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"git commit"},"tool_response":{"stdout":"[m abcdef0] s"}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = ParseHook(b)
	})
}

// Each edit tool gives the capture replacements to locate: structuredPatch's
// own line numbers when the result has them, else the input's strings.
func TestParseHookWrites(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []position.Write
	}{
		{"Edit with structuredPatch", `{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"/r/a.go","old_string":"x","new_string":"y\nz"},"tool_response":{"structuredPatch":[{"oldStart":3,"oldLines":1,"newStart":3,"newLines":2,"lines":[" a","-x","+y","+z"]}]}}`,
			[]position.Write{{Lines: []position.PatchLine{{N: 4, Text: "y"}, {N: 5, Text: "z"}}}}},
		{"Edit without", `{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"/r/a.go","old_string":"x","new_string":"y"}}`,
			[]position.Write{{Old: "x", New: "y"}}},
		{"MultiEdit", `{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"MultiEdit","tool_input":{"file_path":"/r/a.go","edits":[{"old_string":"a","new_string":"b"},{"old_string":"c","new_string":"d"}]}}`,
			[]position.Write{{Old: "a", New: "b"}, {Old: "c", New: "d"}}},
		{"Write", `{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{"file_path":"/r/a.go","content":"new\n"},"tool_response":{"originalFile":"old\n"}}`,
			[]position.Write{{Whole: true, Old: "old\n", New: "new\n"}}},
	}
	for _, tt := range tests {
		a, err := ParseHook([]byte(tt.in))
		if err != nil {
			t.Fatal(err)
		}
		if got := a.Writes["/r/a.go"]; !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
}
