package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestMCPServerSurvivesBadInput drives the real server over its stdio with
// raw JSON-RPC lines: a malformed line is answered with a parse error and
// serving goes on; keyword matching on text whose lower case is longer in
// bytes ('Ⱥ') answers instead of killing the server.
func TestMCPServerSurvivesBadInput(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.convo(repo, "install", "--cursor=none")
	sb.capture(repo, "conv-unicode-01", "beforeSubmitPrompt", map[string]any{"prompt": strings.Repeat("Ⱥ", 80) + " needle"})
	p := sb.write(repo, "a.go", "package a\n")
	sb.capture(repo, "conv-unicode-01", "afterFileEdit", map[string]any{"file_path": p, "edits": []map[string]string{{"old_string": "", "new_string": "package a\n"}}})
	sb.commit(repo, "a", "a.go")

	cmd := exec.Command("git", "convo", "mcp")
	cmd.Dir, cmd.Env = repo, sb.env
	in, _ := cmd.StdinPipe()
	outPipe, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	defer func() { in.Close(); <-done }()
	out := bufio.NewReader(outPipe)
	type reply struct {
		ID     any             `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code int `json:"code"`
		} `json:"error"`
	}
	read := func() reply {
		t.Helper()
		lines := make(chan string, 1)
		go func() { l, _ := out.ReadString('\n'); lines <- l }()
		select {
		case l := <-lines:
			var r reply
			if err := json.Unmarshal([]byte(l), &r); err != nil {
				t.Fatalf("reply %q: %v (did the server exit? %v)", l, err, exited(done))
			}
			return r
		case <-time.After(30 * time.Second):
			t.Fatal("no reply")
		}
		return reply{}
	}
	send := func(s string) { io.WriteString(in, s+"\n") }

	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if r := read(); r.Error != nil {
		t.Fatalf("initialize: %+v", r)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"`) // cut short
	if r := read(); r.Error == nil || r.Error.Code != -32700 || r.ID != nil {
		t.Fatalf("malformed line: %+v", r)
	}
	send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_file_context","arguments":{"filePath":"a.go","keywords":["needle"]}}}`)
	r := read()
	if r.Error != nil || !strings.Contains(string(r.Result), `"count":1`) || fmt.Sprint(r.ID) != "3" {
		t.Fatalf("get_file_context after the malformed line: %+v %s", r, r.Result)
	}
}

func exited(done chan error) string {
	select {
	case err := <-done:
		done <- err
		return fmt.Sprintf("yes: %v", err)
	default:
		return "no"
	}
}
