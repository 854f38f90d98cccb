// Package eventstream reads the session event stream that GitHub's Copilot
// agents write, one JSON event a line ({"type", "data", "id", "timestamp",
// "parentId"}): VS Code's GitHub.copilot-chat/transcripts/<id>.jsonl and
// the Copilot CLI's ~/.copilot/session-state/<id>/events.jsonl. Each agent
// says which of its tools edit files and how (Edits).
package eventstream

import (
	"encoding/json"
	"time"

	"github.com/git-convo/git-convo/pkg/agents/source"
)

// maxStream bounds what is read of a stream; maxLine one of its lines.
const (
	maxStream = 256 << 20
	maxLine   = 64 << 20
)

// Edits are the edits of one tool call, from its name and arguments.
type Edits func(tool string, args map[string]any) []source.Edit

// Read reads a stream as agent's conversation: session.start (id, start,
// cwd), session.model_change, user.message, assistant.message with its
// tool requests, and the edits of tool.execution_start. Lines of a type it
// does not know, or that do not parse (a line being written), are skipped;
// lines out of order keep their own times.
func Read(path, agent string, edits Edits) (*source.Conversation, error) {
	c := &source.Conversation{Agent: agent, TranscriptPath: path}
	var said source.Said
	err := source.ReadLines(path, maxStream, maxLine, func(l []byte) { add(c, &said, l, edits) })
	if err != nil {
		return nil, err
	}
	return c, nil
}

type event struct {
	Type      string          `json:"type"`
	Timestamp string          `json:"timestamp"`
	Data      json.RawMessage `json:"data"`
}

func add(c *source.Conversation, said *source.Said, line []byte, edits Edits) {
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
		SessionID string `json:"sessionId"`
		Context   struct {
			Cwd string `json:"cwd"`
		} `json:"context"`
		NewModel     string `json:"newModel"`
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
			c.ID, c.Cwd = d.SessionID, d.Context.Cwd
		}
	case "session.model_change":
		c.Model = d.NewModel
	case "user.message":
		c.Prompts = append(c.Prompts, d.Content)
		c.Messages = append(c.Messages, source.Message{Role: "user", CreatedAt: at, Text: d.Content})
		said.Prompt()
	case "assistant.message":
		m := source.Message{Role: "assistant", CreatedAt: at, Text: d.Content}
		said.Say(d.Content)
		for _, r := range d.ToolRequests {
			m.Tools = append(m.Tools, source.ToolCall{Name: r.Name, Params: params(r.Arguments)})
		}
		c.Messages = append(c.Messages, m)
	case "tool.execution_start":
		for _, ed := range edits(d.ToolName, Arguments(d.Arguments)) {
			ed.At, ed.Words = at, said.Last()
			c.Edits = append(c.Edits, ed)
		}
	}
}

// Arguments are a tool's arguments: an object, or one encoded in a string.
func Arguments(v any) map[string]any {
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

// SessionCwd is the working directory and id that a stream's session.start
// names, from its first lines.
func SessionCwd(path string) (cwd, id string) {
	n := 0
	_ = source.ReadLines(path, 16<<20, maxLine, func(l []byte) {
		n++
		if cwd != "" || n > 8 {
			return
		}
		var e event
		var d struct {
			SessionID string `json:"sessionId"`
			Context   struct {
				Cwd     string `json:"cwd"`
				GitRoot string `json:"gitRoot"`
			} `json:"context"`
		}
		if json.Unmarshal(l, &e) == nil && e.Type == "session.start" && json.Unmarshal(e.Data, &d) == nil {
			cwd, id = d.Context.Cwd, d.SessionID
		}
	})
	return cwd, id
}
