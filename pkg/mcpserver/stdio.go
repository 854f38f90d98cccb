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
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxLine bounds one inbound message, as the SDK's own reader does.
const maxLine = mcp.DefaultMaxLineLength

// drainLimit bounds how long the server, its input closed, waits for the
// answers to the requests it received: a tool stuck past it is given up.
const drainLimit = 2 * time.Minute

// guardedTransport serves newline-delimited JSON-RPC over in and out. The
// SDK's reader ends the session at the first line that is not a JSON-RPC
// message; here such a line is answered with a JSON-RPC error (parse error,
// invalid request, too large) and serving goes on with the next line. When
// in ends, the session ends only once every request passed on is answered
// (or after drainLimit): the SDK drops the answers still in flight when
// its input closes.
func guardedTransport(in io.Reader, out io.Writer) mcp.Transport {
	w := &lockedWriter{w: out}
	open := newInFlight()
	pr, pw := io.Pipe()
	go func() {
		err := filterLines(in, pw, w, open)
		if err == nil {
			open.wait(drainLimit)
		}
		pw.CloseWithError(err)
	}()
	return &mcp.IOTransport{Reader: pr, Writer: answerWriter{w, open}}
}

// filterLines copies each valid message line of in to valid and answers the
// others on reply; open learns the requests passed on. It returns at the
// end of in (nil) or on a read error.
func filterLines(in io.Reader, valid io.Writer, reply io.Writer, open *inFlight) error {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, tooLong, err := readLine(r)
		if len(bytes.TrimSpace(line)) > 0 || tooLong {
			if code, msg, id := check(line, tooLong); code != 0 {
				if werr := writeError(reply, id, code, msg); werr != nil {
					return werr
				}
			} else {
				open.add(line)
				if _, werr := valid.Write(append(line, '\n')); werr != nil {
					return werr
				}
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
	if bytes.TrimSpace(line)[0] == '[' {
		// MCP dropped JSON-RPC batches (2025-06-18), and the SDK ends the
		// session at one: refused here, the session goes on.
		return jsonrpc.CodeInvalidRequest, "Invalid Request: JSON-RPC batches are not supported; send one message per line", nil
	}
	if _, err := jsonrpc.DecodeMessage(line); err != nil {
		var withID struct {
			ID any `json:"id"`
		}
		_ = json.Unmarshal(line, &withID)
		return jsonrpc.CodeInvalidRequest, "Invalid Request: " + err.Error(), validID(withID.ID)
	}
	return 0, "", nil
}

// idOf is a message's id as a key ("" for none), and whether the message
// is a request (it has a method): a request waits for its answer, a
// message without a method is an answer.
func idOf(msg []byte) (key string, request bool) {
	var m struct {
		ID     any     `json:"id"`
		Method *string `json:"method"`
	}
	if json.Unmarshal(msg, &m) != nil || validID(m.ID) == nil {
		return "", false
	}
	b, _ := json.Marshal(m.ID)
	return string(b), m.Method != nil
}

// inFlight is the set of requests passed to the SDK and not answered yet.
type inFlight struct {
	mu      sync.Mutex
	ids     map[string]int
	changed chan struct{}
}

func newInFlight() *inFlight {
	return &inFlight{ids: map[string]int{}, changed: make(chan struct{}, 1)}
}

// add notes a request passed on (a notification or an answer: nothing).
func (f *inFlight) add(msg []byte) {
	if id, req := idOf(msg); id != "" && req {
		f.mu.Lock()
		f.ids[id]++
		f.mu.Unlock()
	}
}

// answered notes the SDK's answer msg (a request it sends: nothing).
func (f *inFlight) answered(msg []byte) {
	id, req := idOf(msg)
	if id == "" || req {
		return
	}
	f.mu.Lock()
	if f.ids[id]--; f.ids[id] <= 0 {
		delete(f.ids, id)
	}
	f.mu.Unlock()
	select {
	case f.changed <- struct{}{}:
	default:
	}
}

// wait returns once no request waits for its answer, or after limit.
func (f *inFlight) wait(limit time.Duration) {
	timeout := time.NewTimer(limit)
	defer timeout.Stop()
	for {
		f.mu.Lock()
		n := len(f.ids)
		f.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-f.changed:
		case <-timeout.C:
			return
		}
	}
}

// answerWriter is the SDK's writer: each message it writes, one per
// call, may answer a request in flight.
type answerWriter struct {
	w    *lockedWriter
	open *inFlight
}

func (a answerWriter) Write(p []byte) (int, error) {
	n, err := a.w.Write(p)
	a.open.answered(bytes.TrimSpace(p))
	return n, err
}

func (a answerWriter) Close() error { return nil }

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
