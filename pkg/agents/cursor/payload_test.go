package cursor

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/agents/cursor/cursortest"
	"github.com/git-convo/git-convo/pkg/attribution/position"
)

// TestReplayFixturePayloads parses every payload in the shared fixtures:
// real captures, test fixtures and documentation examples.
func TestReplayFixturePayloads(t *testing.T) {
	data, err := os.ReadFile(cursortest.Shared(t, "hook-payloads", "examples.json"))
	if err != nil {
		t.Fatal(err)
	}
	var examples []struct {
		Name  string          `json:"_name"`
		Stdin json.RawMessage `json:"stdin"`
	}
	if err := json.Unmarshal(data, &examples); err != nil {
		t.Fatal(err)
	}
	if len(examples) < 30 {
		t.Fatalf("only %d examples", len(examples))
	}
	for _, ex := range examples {
		t.Run(ex.Name, func(t *testing.T) {
			p, err := ParsePayload(ex.Stdin)
			if err != nil {
				t.Fatalf("ParsePayload: %v", err)
			}
			var raw map[string]any
			json.Unmarshal(ex.Stdin, &raw)
			if v, _ := raw["conversation_id"].(string); p.ConversationID != v {
				t.Errorf("conversation_id = %q, want %q", p.ConversationID, v)
			}
			if v, _ := raw["hook_event_name"].(string); p.Event != v {
				t.Errorf("event = %q, want %q", p.Event, v)
			}
			files := p.EditedFiles()
			switch {
			case p.Event == "afterFileEdit" || (p.Event == "postToolUse" && isEditTool(p.ToolName)):
				if len(files) == 0 {
					t.Errorf("an edit event with no edited file: %s", ex.Stdin)
				}
			case p.Event == "preToolUse" || p.Event == "postToolUse" && !isEditTool(p.ToolName):
				if len(files) != 0 {
					t.Errorf("%s %s reported edited files %v", p.Event, p.ToolName, files)
				}
			}
		})
	}
}

func TestParsePayload(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		wantErr   bool
		wantEvent string
		wantFiles []string
		wantConv  string
	}{
		{name: "BOM", in: "\ufeff{\"conversation_id\":\"c\",\"hook_event_name\":\"stop\"}", wantEvent: "stop", wantConv: "c"},
		{name: "garbage", in: "this is not json", wantErr: true},
		{name: "empty", in: "  \n", wantErr: true},
		{name: "array", in: "[1,2]", wantErr: true},
		{name: "truncated", in: `{"conversation_id": "c"`, wantErr: true},
		{name: "wrong types are ignored", in: `{"conversation_id": 5, "workspace_roots": "x", "hook_event_name": "stop", "edits": {}}`, wantEvent: "stop"},
		{name: "nulls", in: `{"conversation_id": "c", "user_email": null, "transcript_path": null, "model": null}`, wantConv: "c"},
		{name: "afterFileEdit", in: `{"conversation_id":"c","hook_event_name":"afterFileEdit","file_path":"/r/a.go","edits":[{"old_string":"","new_string":"x"}]}`,
			wantEvent: "afterFileEdit", wantConv: "c", wantFiles: []string{"/r/a.go"}},
		{name: "Write with path", in: `{"hook_event_name":"postToolUse","tool_name":"Write","tool_input":{"path":"/r/b.go","content":"x"}}`,
			wantEvent: "postToolUse", wantFiles: []string{"/r/b.go"}},
		{name: "tool_input as a JSON string", in: `{"hook_event_name":"postToolUse","tool_name":"StrReplace","tool_input":"{\"file_path\":\"/r/c.go\"}"}`,
			wantEvent: "postToolUse", wantFiles: []string{"/r/c.go"}},
		{name: "ApplyPatch text", in: `{"hook_event_name":"postToolUse","tool_name":"ApplyPatch","workspace_roots":["/r"],"tool_input":{"patch":"*** Begin Patch\n*** Update File: src/x.go\n@@\n-a\n+b\n*** Add File: /r/new.go\n+x\n*** End Patch"}}`,
			wantEvent: "postToolUse", wantFiles: []string{"/r/src/x.go", "/r/new.go"}},
		{name: "shell tool edits nothing", in: `{"hook_event_name":"postToolUse","tool_name":"Shell","tool_input":{"command":"rm -rf x"}}`,
			wantEvent: "postToolUse"},
		{name: "relative path against cwd", in: `{"hook_event_name":"postToolUse","tool_name":"Delete","cwd":"/w","tool_input":{"file_path":"old.go"}}`,
			wantEvent: "postToolUse", wantFiles: []string{"/w/old.go"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParsePayload([]byte(tt.in))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if err != nil {
				if strings.Contains(err.Error(), "\n") {
					t.Errorf("error is not one line: %q", err)
				}
				if strings.Contains(err.Error(), "not json") || strings.Contains(err.Error(), "conversation_id") {
					t.Errorf("the error repeats the payload's content: %q", err)
				}
				return
			}
			if p.Event != tt.wantEvent || p.ConversationID != tt.wantConv {
				t.Errorf("event %q conv %q", p.Event, p.ConversationID)
			}
			if got := strings.Join(p.EditedFiles(), ","); got != strings.Join(tt.wantFiles, ",") {
				t.Errorf("EditedFiles = %q, want %q", got, strings.Join(tt.wantFiles, ","))
			}
		})
	}
}

func TestViaThirdParty(t *testing.T) {
	cursorShape, _ := ParsePayload([]byte(`{"conversation_id":"c","cursor_version":"2.5.26","hook_event_name":"postToolUse"}`))
	claudeShape, _ := ParsePayload([]byte(`{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Write"}`))
	if !cursorShape.ViaThirdParty() || claudeShape.ViaThirdParty() {
		t.Errorf("ViaThirdParty: cursor shape %v, claude shape %v", cursorShape.ViaThirdParty(), claudeShape.ViaThirdParty())
	}
}

func TestNormalizeFSPath(t *testing.T) {
	tests := map[string]string{
		"/c:/Users/x/a.go":              "C:/Users/x/a.go",
		`c:\Users\x\a.go`:               "C:/Users/x/a.go",
		"file:///home/u/my%20repo/a.go": "/home/u/my repo/a.go",
		"file:///c%3A/Users/x/a.go":     "C:/Users/x/a.go",
		"file:///C:/Users/x/a%20b.go":   "C:/Users/x/a b.go",
		"/d:/":                          "D:/",
		`c:`:                            "C:/",
		`C:\Users\x\..\y\`:              "C:/Users/y",
		"/home/u/repo/../repo/./src/":   "/home/u/repo/src",
		"":                              "",
		"  /tmp/x  ":                    "/tmp/x",
		"/":                             "/",
		"relative/path":                 "relative/path",
	}
	for in, want := range tests {
		if got := NormalizeFSPath(in); got != want {
			t.Errorf("NormalizeFSPath(%q) = %q, want %q", in, got, want)
		}
		if again := NormalizeFSPath(NormalizeFSPath(in)); again != NormalizeFSPath(in) {
			t.Errorf("NormalizeFSPath is not idempotent on %q: %q", in, again)
		}
	}
}

func FuzzParsePayload(f *testing.F) {
	for _, seed := range []string{`{"conversation_id":"c","hook_event_name":"afterFileEdit","file_path":"/a","edits":[{"old_string":"","new_string":"x"}]}`,
		`{"hook_event_name":"postToolUse","tool_name":"ApplyPatch","tool_input":{"patch":"*** Update File: a\n"}}`,
		"\ufeff{}", "null", `{"tool_input":"{\"path\":1}"}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParsePayload(data)
		if err != nil {
			return
		}
		_ = p.EditedFiles()
		_ = p.ViaThirdParty()
	})
}

func FuzzNormalizePath(f *testing.F) {
	for _, seed := range []string{"/c:/x", `c:\y`, "file:///a%20b", "../../x", "", "/"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, p string) {
		once := NormalizeFSPath(p)
		if twice := NormalizeFSPath(once); twice != once {
			t.Fatalf("not idempotent: %q -> %q -> %q", p, once, twice)
		}
	})
}

func TestAddedText(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want map[string]string
	}{
		{"afterFileEdit", `{"hook_event_name":"afterFileEdit","file_path":"/r/a.go","edits":[{"old_string":"a","new_string":"b\nc"},{"old_string":"x","new_string":""}]}`,
			map[string]string{"/r/a.go": "b\nc"}},
		{"Write", `{"hook_event_name":"postToolUse","tool_name":"Write","tool_input":{"file_path":"/r/w.go","content":"package w\n"}}`,
			map[string]string{"/r/w.go": "package w\n"}},
		{"ApplyPatch", `{"hook_event_name":"postToolUse","tool_name":"ApplyPatch","workspace_roots":["/r"],"tool_input":{"patch":"*** Begin Patch\n*** Update File: src/x.go\n@@\n-old\n+new one\n+new two\n*** End Patch"}}`,
			map[string]string{"/r/src/x.go": "new one\nnew two\n"}},
		{"shell", `{"hook_event_name":"postToolUse","tool_name":"Shell","tool_input":{"command":"echo"}}`, map[string]string{}},
	}
	for _, tt := range tests {
		p, err := ParsePayload([]byte(tt.in))
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for f, texts := range p.AddedText() {
			got[f] = strings.Join(texts, "\n")
		}
		if len(got) != len(tt.want) {
			t.Errorf("%s: %v", tt.name, got)
		}
		for f, w := range tt.want {
			if got[f] != w {
				t.Errorf("%s: %s = %q, want %q", tt.name, f, got[f], w)
			}
		}
	}
}

func TestWrites(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want map[string][]position.Write
	}{
		{"afterFileEdit", `{"hook_event_name":"afterFileEdit","file_path":"/r/a.go","edits":[{"old_string":"a","new_string":"b\nc"}]}`,
			map[string][]position.Write{"/r/a.go": {{Old: "a", New: "b\nc"}}}},
		{"StrReplace", `{"hook_event_name":"postToolUse","tool_name":"StrReplace","tool_input":{"path":"/r/s.go","old_string":"x","new_string":"y"}}`,
			map[string][]position.Write{"/r/s.go": {{Old: "x", New: "y"}}}},
		{"Write", `{"hook_event_name":"postToolUse","tool_name":"Write","tool_input":{"file_path":"/r/w.go","contents":"package w\n"}}`,
			map[string][]position.Write{"/r/w.go": {{Whole: true, New: "package w\n"}}}},
		{"ApplyPatch, two hunks and a new file", `{"hook_event_name":"postToolUse","tool_name":"ApplyPatch","workspace_roots":["/r"],"tool_input":{"patch":"*** Begin Patch\n*** Update File: src/x.go\n@@ func a\n ctx\n-old\n+new\n@@\n-gone\n*** Add File: src/n.go\n+package n\n*** End Patch"}}`,
			map[string][]position.Write{"/r/src/x.go": {{Old: "ctx\nold\n", New: "ctx\nnew\n"}}, "/r/src/n.go": {{Whole: true, New: "package n\n"}}}},
	}
	for _, tt := range tests {
		p, err := ParsePayload([]byte(tt.in))
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Writes(); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
}
