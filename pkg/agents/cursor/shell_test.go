package cursor

import (
	"encoding/json"
	"testing"
)

func TestShellCommit(t *testing.T) {
	const out = "[main 3ecb434] add gen\n 1 file changed, 1 insertion(+)\n"
	common := map[string]any{"conversation_id": "c", "hook_event_name": "afterShellExecution", "workspace_roots": []string{"/ws"}}
	tests := []struct {
		name     string
		fields   map[string]any
		dir, sha string // "" sha: no commit
	}{
		{"afterShellExecution with cwd", map[string]any{"command": "git commit -m x", "output": out, "cwd": "/ws/sub", "duration": 120}, "/ws/sub", "3ecb434"},
		{"afterShellExecution without cwd: the workspace root", map[string]any{"command": "git commit -am x", "output": out}, "/ws", "3ecb434"},
		{"a cwd relative to the workspace", map[string]any{"command": "git commit -am x", "output": out, "cwd": "sub"}, "/ws/sub", "3ecb434"},
		{"a Windows cwd", map[string]any{"command": "git commit -m x", "output": out, "cwd": "/c:/Users/ada/proj"}, "C:/Users/ada/proj", "3ecb434"},
		{"postToolUse of the Shell tool", map[string]any{"hook_event_name": "postToolUse", "tool_name": "Shell",
			"tool_input": map[string]any{"command": "git commit -m x"}, "tool_output": out, "cwd": "/ws"}, "/ws", "3ecb434"},
		{"postToolUse, output in a JSON string", map[string]any{"hook_event_name": "postToolUse", "tool_name": "run_terminal_cmd",
			"tool_input": map[string]any{"command": "git commit -m x", "working_directory": "/ws/w"}, "tool_output": `{"output":"[main 3ecb434] add gen\n","exitCode":0}`}, "/ws/w", "3ecb434"},
		{"a failed commit", map[string]any{"command": "git commit -m x", "output": "nothing to commit, working tree clean\n"}, "", ""},
		{"not a commit", map[string]any{"command": "cat notes.txt", "output": out}, "", ""},
		{"beforeShellExecution: no output yet", map[string]any{"hook_event_name": "beforeShellExecution", "command": "git commit -m x"}, "", ""},
		{"an edit tool's postToolUse", map[string]any{"hook_event_name": "postToolUse", "tool_name": "Write",
			"tool_input": map[string]any{"file_path": "/ws/a", "command": "git commit"}, "tool_output": out}, "", ""},
		{"output of the wrong type", map[string]any{"command": "git commit -m x", "output": 42}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := map[string]any{}
			for k, v := range common {
				m[k] = v
			}
			for k, v := range tt.fields {
				m[k] = v
			}
			b, _ := json.Marshal(m)
			a, err := Source{}.ParseHook(b)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tt.sha == "" && a.Commit != nil:
				t.Errorf("commit %+v, want none", a.Commit)
			case tt.sha != "" && (a.Commit == nil || a.Commit.Hash != tt.sha || a.Commit.Dir != tt.dir):
				t.Errorf("commit %+v, want %s in %s", a.Commit, tt.sha, tt.dir)
			}
		})
	}
}

func FuzzShellCommit(f *testing.F) {
	for _, seed := range []string{`{"hook_event_name":"afterShellExecution","command":"git commit -m x","output":"[main abc1234] x","cwd":"/r"}`,
		`{"tool_name":"Shell","tool_input":{"command":"git commit"},"tool_output":"{\"output\":\"[m 0123456] s\"}","workspace_roots":["sub"]}`,
		`{"command":"git commit","output":"[detached HEAD 0123456] s","cwd":"file:///c%3A/x"}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParsePayload(data)
		if err != nil {
			return
		}
		if c := p.ShellCommit(); c != nil && (c.Hash == "" || c.Dir == "") {
			t.Errorf("a commit without a hash or a directory: %+v", c)
		}
	})
}
