package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

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
	if err := filterLines(strings.NewReader(in), &valid, &reply); err != nil {
		t.Fatal(err)
	}
	if want := "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n[{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}]\n{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}\n"; valid.String() != want {
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
	if strings.Join(got, ",") != "null:-32700,x7:-32600,null:-32600" {
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
