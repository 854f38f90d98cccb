package source

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// DecodeObject reads a hook payload as a JSON object, its keys undecoded
// (every agent's fields are optional, and a field of an unexpected type must
// not fail the rest). A byte-order mark and surrounding space are ignored.
// Errors are ErrBadPayload and describe the input's shape, never its
// content (prompts can hold secrets; errors go to the log); sender says how
// the agent sends it ("Claude Code sends the event as JSON on stdin").
func DecodeObject(data []byte, sender string) (map[string]json.RawMessage, error) {
	data = bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))
	if len(data) == 0 {
		return nil, fmt.Errorf("%w: stdin was empty (%s)", ErrBadPayload, sender)
	}
	if data[0] != '{' {
		return nil, fmt.Errorf("%w: %d bytes that do not start with '{'", ErrBadPayload, len(data))
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("%w: invalid JSON at byte %d of %d", ErrBadPayload, se.Offset, len(data))
		}
		return nil, fmt.Errorf("%w: invalid JSON (%d bytes)", ErrBadPayload, len(data))
	}
	return raw, nil
}

// CommonFields reads the fields Claude Code's hook payloads made common,
// which Codex and Gemini CLI send too: session_id, hook_event_name,
// transcript_path, model and cwd (the activity's root); str reads any other
// string field ("" when absent or not a string).
func CommonFields(raw map[string]json.RawMessage) (a Activity, str func(key string) string) {
	str = func(key string) string {
		var v string
		_ = json.Unmarshal(raw[key], &v)
		return v
	}
	a.ConversationID = str("session_id")
	a.Event = str("hook_event_name")
	a.TranscriptPath = str("transcript_path")
	a.Model = str("model")
	if cwd := str("cwd"); cwd != "" {
		a.Roots = []string{cwd}
	}
	return a, str
}

// JSONObject decodes a JSON object, or an object some senders encode in a
// JSON string; nil when it is neither.
func JSONObject(raw json.RawMessage) map[string]any {
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		var inner string
		if json.Unmarshal(raw, &inner) == nil {
			_ = json.Unmarshal([]byte(inner), &m)
		}
	}
	return m
}

// ToolOutput is a tool response's text: a string, or the text fields of an
// object or of a list of parts.
func ToolOutput(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	var b strings.Builder
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		if depth > 4 {
			return
		}
		switch t := v.(type) {
		case string:
			b.WriteString(t)
			b.WriteByte('\n')
		case []any:
			for _, x := range t {
				walk(x, depth+1)
			}
		case map[string]any:
			for _, k := range []string{"output", "stdout", "text", "value", "content", "llmContent", "returnDisplay", "textResultForLlm"} {
				if x, ok := t[k]; ok {
					walk(x, depth+1)
				}
			}
		}
	}
	walk(v, 0)
	return b.String()
}
