package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestFilterLines(t *testing.T) {
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{not json`,
		``,
		`{"id":"x7","method":"ping"}`,
		`[]`,
		`[{"jsonrpc":"2.0","id":2,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":3,"method":"ping"}`,
	}, "\n")
	var valid, reply bytes.Buffer
	if err := filterLines(strings.NewReader(in), &valid, &reply, newInFlight()); err != nil {
		t.Fatal(err)
	}
	if want := "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}\n"; valid.String() != want {
		t.Errorf("passed on:\n%s", valid.String())
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(reply.String()), "\n") {
		var m struct {
			ID    any `json:"id"`
			Error struct {
				Code int `json:"code"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		got = append(got, strings.TrimSpace(strings.ReplaceAll(strings.ReplaceAll(
			func() string { b, _ := json.Marshal(m.ID); return string(b) }(), "\"", ""), " ", ""))+":"+itoa(m.Error.Code))
	}
	if strings.Join(got, ",") != "null:-32700,x7:-32600,null:-32600,null:-32600" {
		t.Errorf("replies: %v", got)
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// TestToolPanicBecomesItsError: a tool that panics answers with an error
// result, and the server goes on serving.
func TestToolPanicBecomesItsError(t *testing.T) {
	ctx := context.Background()
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	type in struct {
		Boom bool `json:"boom,omitempty"`
	}
	addTool(s, &mcp.Tool{Name: "maybe_panic"}, func(_ context.Context, _ *mcp.CallToolRequest, a in) (*mcp.CallToolResult, map[string]any, error) {
		if a.Boom {
			panic("boom")
		}
		return nil, map[string]any{"ok": true}, nil
	})
	st, ct := mcp.NewInMemoryTransports()
	if _, err := s.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "maybe_panic", Arguments: map[string]any{"boom": true}})
	if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "internal error") {
		t.Fatalf("panicking tool: %v %+v", err, res)
	}
	if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "maybe_panic", Arguments: map[string]any{}}); err != nil || res.IsError {
		t.Fatalf("the server stopped serving after a panic: %v %+v", err, res)
	}
}

// output is what the server wrote so far (it writes while the test reads).
func output(w *lockedWriter) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.(*bytes.Buffer).String()
}

// TestHostileBatchRefusedAndInFlightAnswered (issue 28, item 15): a JSON-RPC
// batch line is answered with -32600 and the session goes on; a slow
// request still running when the input closes is answered before the
// server returns.
func TestHostileBatchRefusedAndInFlightAnswered(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	addTool(s, &mcp.Tool{Name: "slow"}, func(_ context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, map[string]any, error) {
		time.Sleep(300 * time.Millisecond)
		return nil, map[string]any{"done": true}, nil
	})
	in, feed := io.Pipe()
	out := &lockedWriter{w: &bytes.Buffer{}}
	ran := make(chan error, 1)
	go func() { ran <- s.Run(context.Background(), guardedTransport(in, out)) }()
	send := func(line string) {
		t.Helper()
		if _, err := io.WriteString(feed, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	answer := func(id string) map[string]any {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			for _, line := range strings.Split(output(out), "\n") {
				var m map[string]any
				if json.Unmarshal([]byte(line), &m) == nil {
					if b, _ := json.Marshal(m["id"]); string(b) == id {
						return m
					}
				}
			}
			time.Sleep(10 * time.Millisecond)
		}
		t.Fatalf("no answer to id %s; output:\n%s", id, output(out))
		return nil
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	answer("1")
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":3,"method":"ping"}]`)
	send(`{"jsonrpc":"2.0","id":4,"method":"ping"}`)
	if m := answer("4"); m["error"] != nil {
		t.Fatalf("after a batch, ping: %v", m)
	}
	if !strings.Contains(output(out), `"code":-32600`) {
		t.Errorf("the batch was not answered with -32600:\n%s", output(out))
	}
	send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"slow","arguments":{}}}`)
	feed.Close() // the client goes away while the tool runs
	select {
	case err := <-ran:
		if err != nil && !errors.Is(err, io.EOF) {
			t.Errorf("server: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the server did not end after its input closed")
	}
	if m := answer("5"); m["result"] == nil {
		t.Errorf("the request in flight when the input closed: %v", m)
	}
}
