package vscode

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/git-convo/git-convo/pkg/source"
)

// maxTranscript bounds the transcript read: a session's event stream is
// small; a larger file is read up to the limit.
const maxTranscript = 256 << 20

// maxLine bounds one line of it; a longer line is skipped.
const maxLine = 64 << 20

// ReadTranscript reads the event stream VS Code writes for a session
// (GitHub.copilot-chat/transcripts/<sessionId>.jsonl, which the hooks'
// transcript_path names): the user's messages, the assistant's with their
// tool requests, and the edits of the file tools it ran. Lines of a type
// it does not know, or that do not parse (a line being written), are
// skipped; lines out of order keep their own times.
func ReadTranscript(path string) (*source.Conversation, error) {
	c := &source.Conversation{Agent: Name, TranscriptPath: path}
	if err := source.ReadLines(path, maxTranscript, maxLine, func(l []byte) { addEvent(c, l) }); err != nil {
		return nil, err
	}
	return c, nil
}

// event is one line of the stream.
type event struct {
	Type      string          `json:"type"`
	Timestamp string          `json:"timestamp"`
	Data      json.RawMessage `json:"data"`
}

func addEvent(c *source.Conversation, line []byte) {
	var e event
	if json.Unmarshal(line, &e) != nil {
		return
	}
	at, _ := time.Parse(time.RFC3339Nano, e.Timestamp)
	if !at.IsZero() {
		if c.Created.IsZero() || at.Before(c.Created) {
			c.Created = at
		}
		if at.After(c.Updated) {
			c.Updated = at
		}
	}
	var d struct {
		SessionID    string `json:"sessionId"`
		Content      string `json:"content"`
		ToolRequests []struct {
			Name      string `json:"name"`
			Arguments any    `json:"arguments"`
		} `json:"toolRequests"`
		ToolName  string `json:"toolName"`
		Arguments any    `json:"arguments"`
	}
	if json.Unmarshal(e.Data, &d) != nil {
		return
	}
	switch e.Type {
	case "session.start":
		if c.ID == "" {
			c.ID = d.SessionID
		}
	case "user.message":
		c.Prompts = append(c.Prompts, d.Content)
		c.Messages = append(c.Messages, source.Message{Role: "user", CreatedAt: at, Text: d.Content})
	case "assistant.message":
		m := source.Message{Role: "assistant", CreatedAt: at, Text: d.Content}
		for _, r := range d.ToolRequests {
			m.Tools = append(m.Tools, source.ToolCall{Name: r.Name, Params: params(r.Arguments)})
		}
		c.Messages = append(c.Messages, m)
	case "tool.execution_start":
		for _, fe := range toolEdits(d.ToolName, arguments(d.Arguments)) {
			added := strings.Join(fe.added, "\n")
			c.Edits = append(c.Edits, source.Edit{Path: fe.path, Added: added, At: at})
		}
	}
}

// arguments are a tool's arguments: an object, or one encoded in a string.
func arguments(v any) map[string]any {
	switch t := v.(type) {
	case map[string]any:
		return t
	case string:
		var m map[string]any
		_ = json.Unmarshal([]byte(t), &m)
		return m
	}
	return nil
}

func params(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}
