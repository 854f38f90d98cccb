package gemini

import (
	"encoding/json"
	"io"
	"strings"
	"time"

	"github.com/git-convo/git-convo/pkg/agents/source"
)

// maxSession bounds what is read of a session file; maxLine one line of a
// JSONL one.
const (
	maxSession = 256 << 20
	maxLine    = 64 << 20
)

// header is a session's own fields: the whole JSON file's, or the first
// line of a JSONL one.
type header struct {
	SessionID   string `json:"sessionId"`
	ProjectHash string `json:"projectHash"`
	StartTime   string `json:"startTime"`
	LastUpdated string `json:"lastUpdated"`
}

// message is one message of a session.
type message struct {
	ID        string          `json:"id"`
	Timestamp string          `json:"timestamp"`
	Type      string          `json:"type"` // user | gemini | info | error
	Content   json.RawMessage `json:"content"`
	Model     string          `json:"model"`
	Thoughts  []struct {
		Subject     string `json:"subject"`
		Description string `json:"description"`
	} `json:"thoughts"`
	ToolCalls []struct {
		Name   string         `json:"name"`
		Args   map[string]any `json:"args"`
		Status string         `json:"status"`
	} `json:"toolCalls"`
	RewindTo string `json:"$rewindTo"`
}

// ReadSession reads a Gemini CLI session (~/.gemini/tmp/<project>/chats/):
// the whole-file JSON of older versions ({sessionId, projectHash,
// messages[]}) or the JSONL of newer ones (a header line, then one message
// a line, a later line with a message's id replacing it and $rewindTo
// dropping the messages from an id on). Lines and fields it does not know
// are skipped.
func ReadSession(path string) (*source.Conversation, error) {
	f, err := source.OpenRegular(path, maxSession)
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(f)
	f.Close()
	if err != nil {
		return nil, err
	}
	var h header
	var msgs []message
	var whole struct {
		header
		Messages []message `json:"messages"`
	}
	if json.Unmarshal(b, &whole) == nil && whole.SessionID != "" {
		h, msgs = whole.header, whole.Messages
	} else {
		if err := source.ReadLines(path, maxSession, maxLine, func(l []byte) {
			var m message
			if json.Unmarshal(l, &m) != nil {
				return
			}
			switch {
			case m.RewindTo != "":
				for i := range msgs {
					if msgs[i].ID == m.RewindTo {
						msgs = msgs[:i]
						break
					}
				}
			case m.Type != "":
				for i := range msgs {
					if m.ID != "" && msgs[i].ID == m.ID {
						msgs[i] = m
						return
					}
				}
				msgs = append(msgs, m)
			case h.SessionID == "":
				_ = json.Unmarshal(l, &h)
			}
		}); err != nil {
			return nil, err
		}
	}
	c := &source.Conversation{ID: h.SessionID, Agent: Name, TranscriptPath: path}
	c.Created, _ = time.Parse(time.RFC3339Nano, h.StartTime)
	c.Updated, _ = time.Parse(time.RFC3339Nano, h.LastUpdated)
	var said source.Said
	for _, m := range msgs {
		at, _ := time.Parse(time.RFC3339Nano, m.Timestamp)
		text := content(m.Content)
		switch m.Type {
		case "user":
			c.Prompts = append(c.Prompts, text)
			c.Messages = append(c.Messages, source.Message{Role: "user", CreatedAt: at, Text: text})
			said.Prompt()
		case "gemini":
			said.Say(text) // a message's text comes before its tool calls
			msg := source.Message{Role: "assistant", CreatedAt: at, Text: text}
			var th []string
			for _, t := range m.Thoughts {
				th = append(th, strings.TrimSpace(t.Subject+": "+t.Description))
			}
			msg.Thinking = strings.Join(th, "\n\n")
			for _, tc := range m.ToolCalls {
				params, _ := json.Marshal(tc.Args)
				msg.Tools = append(msg.Tools, source.ToolCall{Name: tc.Name, Params: string(params), Status: tc.Status})
				path, _ := tc.Args["file_path"].(string)
				if isEdit(tc.Name) && path != "" && tc.Status != "error" && tc.Status != "cancelled" {
					_, added := edit(tc.Name, tc.Args)
					c.Edits = append(c.Edits, source.Edit{Path: path, Added: added, At: at, Words: said.Last()})
				}
			}
			if m.Model != "" {
				c.Model = m.Model
			}
			c.Messages = append(c.Messages, msg)
		}
		if at.After(c.Updated) {
			c.Updated = at
		}
	}
	return c, nil
}

// content is a message's text: a string, or the text of its parts.
func content(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &parts)
	var out []string
	for _, p := range parts {
		if p.Text != "" {
			out = append(out, p.Text)
		}
	}
	return strings.Join(out, "\n")
}
