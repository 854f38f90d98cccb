package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxLine bounds one inbound message, as the SDK's own reader does.
const maxLine = mcp.DefaultMaxLineLength

// guardedTransport serves newline-delimited JSON-RPC over in and out. The
// SDK's reader ends the session at the first line that is not a JSON-RPC
// message; here such a line is answered with a JSON-RPC error (parse error,
// invalid request, too large) and serving goes on with the next line.
func guardedTransport(in io.Reader, out io.Writer) mcp.Transport {
	w := &lockedWriter{w: out}
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(filterLines(in, pw, w)) }()
	return &mcp.IOTransport{Reader: pr, Writer: w}
}

// filterLines copies each valid message line of in to valid and answers the
// others on reply. It returns at the end of in (nil) or on a read error.
func filterLines(in io.Reader, valid io.Writer, reply io.Writer) error {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, tooLong, err := readLine(r)
		if len(bytes.TrimSpace(line)) > 0 || tooLong {
			if code, msg, id := check(line, tooLong); code != 0 {
				if werr := writeError(reply, id, code, msg); werr != nil {
					return werr
				}
			} else if _, werr := valid.Write(append(line, '\n')); werr != nil {
				return werr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// readLine reads one line without its newline; past maxLine it discards the
// rest of the line and reports it too long.
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > maxLine+1 {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), tooLong, err
	}
}

// check returns the JSON-RPC error code (0: none) for one line, its message
// and the request id when one can be read.
func check(line []byte, tooLong bool) (int64, string, any) {
	if tooLong {
		return jsonrpc.CodeParseError, fmt.Sprintf("Parse error: message larger than %d bytes", maxLine), nil
	}
	if !json.Valid(line) {
		return jsonrpc.CodeParseError, "Parse error: not valid JSON", nil
	}
	msgs := []json.RawMessage{line}
	if t := bytes.TrimSpace(line); t[0] == '[' {
		msgs = nil
		if json.Unmarshal(t, &msgs) != nil || len(msgs) == 0 {
			return jsonrpc.CodeInvalidRequest, "Invalid Request: an empty or malformed batch", nil
		}
	}
	for _, m := range msgs {
		if _, err := jsonrpc.DecodeMessage(m); err != nil {
			var withID struct {
				ID any `json:"id"`
			}
			_ = json.Unmarshal(m, &withID)
			return jsonrpc.CodeInvalidRequest, "Invalid Request: " + err.Error(), validID(withID.ID)
		}
	}
	return 0, "", nil
}

// validID keeps a request id JSON-RPC allows (a string or a number).
func validID(id any) any {
	switch id.(type) {
	case string, float64:
		return id
	}
	return nil
}

func writeError(w io.Writer, id any, code int64, msg string) error {
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}})
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// lockedWriter serializes whole messages from the SDK and from filterLines
// (each writes one message per Write call).
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return nil }

// guard turns a panic inside a tool into that tool's error: one bad input
// must not end the server for every later call.
func guard[In, Out any](name string, h mcp.ToolHandlerFor[In, Out]) mcp.ToolHandlerFor[In, Out] {
	return func(ctx context.Context, req *mcp.CallToolRequest, in In) (res *mcp.CallToolResult, out Out, err error) {
		defer func() {
			if r := recover(); r != nil {
				res, err = nil, fmt.Errorf("%s failed with an internal error (%v); please report it", name, r)
			}
		}()
		return h(ctx, req, in)
	}
}

// addTool registers a tool behind guard.
func addTool[In, Out any](s *mcp.Server, t *mcp.Tool, h mcp.ToolHandlerFor[In, Out]) {
	mcp.AddTool(s, t, guard(t.Name, h))
}
