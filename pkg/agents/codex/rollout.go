package codex

import (
	"bufio"
	"encoding/json"
	"io"
	"strings"
	"time"

	"github.com/git-convo/git-convo/pkg/agents/formats/applypatch"
	"github.com/git-convo/git-convo/pkg/agents/source"
)

// maxRollout bounds what is read of a rollout; maxLine one of its lines (a
// longer line, an attached file, is skipped).
const (
	maxRollout = 512 << 20
	maxLine    = 64 << 20
)

// line is one line of a rollout: {"timestamp", "type", "payload"}.
type line struct {
	Timestamp string          `json:"timestamp"`
	Type      string          `json:"type"`
	Payload   json.RawMessage `json:"payload"`
}

// meta is a session_meta payload.
type meta struct {
	ID        string `json:"id"`
	Timestamp string `json:"timestamp"`
	Cwd       string `json:"cwd"`
}

// ReadRollout reads a Codex session file
// (~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl): its id and cwd
// (session_meta), model (turn_context), the user's and the agent's
// messages (event_msg user_message, agent_message), the tool calls, and the
// edits of its apply_patch calls. Lines of a type or version it does not
// know, or that do not parse (a line being written), are skipped; lines out
// of order keep their own times.
func ReadRollout(path string) (*source.Conversation, error) {
	c := &source.Conversation{Agent: Name, TranscriptPath: path}
	var said source.Said
	if err := source.ReadLines(path, maxRollout, maxLine, func(l []byte) { addLine(c, &said, l) }); err != nil {
		return nil, err
	}
	return c, nil
}

func addLine(c *source.Conversation, said *source.Said, b []byte) {
	var l line
	if json.Unmarshal(b, &l) != nil {
		return
	}
	at, _ := time.Parse(time.RFC3339Nano, l.Timestamp)
	if !at.IsZero() {
		if c.Created.IsZero() || at.Before(c.Created) {
			c.Created = at
		}
		if at.After(c.Updated) {
			c.Updated = at
		}
	}
	var p struct {
		meta
		Type      string `json:"type"`
		Model     string `json:"model"`
		Message   string `json:"message"`
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
		Input     string `json:"input"`
	}
	if json.Unmarshal(l.Payload, &p) != nil {
		return
	}
	switch l.Type {
	case "session_meta":
		if c.ID == "" {
			c.ID, c.Cwd = p.ID, p.Cwd
		}
	case "turn_context":
		if p.Model != "" {
			c.Model = p.Model
		}
	case "event_msg":
		switch p.Type {
		case "user_message":
			c.Prompts = append(c.Prompts, p.Message)
			c.Messages = append(c.Messages, source.Message{Role: "user", CreatedAt: at, Text: p.Message})
			said.Prompt()
		case "agent_message":
			c.Messages = append(c.Messages, source.Message{Role: "assistant", CreatedAt: at, Text: p.Message})
			said.Say(p.Message)
		}
	case "response_item":
		switch p.Type {
		case "function_call", "custom_tool_call":
			params := p.Arguments
			if p.Type == "custom_tool_call" {
				params = p.Input
			}
			tool := source.ToolCall{Name: p.Name, Params: params}
			if n := len(c.Messages); n > 0 && c.Messages[n-1].Role == "assistant" {
				c.Messages[n-1].Tools = append(c.Messages[n-1].Tools, tool)
			} else {
				c.Messages = append(c.Messages, source.Message{Role: "assistant", CreatedAt: at, Tools: []source.ToolCall{tool}})
			}
			if p.Name == "apply_patch" {
				patch := p.Input
				if patch == "" { // as a function call: {"input": "..."}
					var args struct {
						Input string `json:"input"`
					}
					_ = json.Unmarshal([]byte(p.Arguments), &args)
					patch = args.Input
				}
				for _, f := range applypatch.Parse(patch) {
					if f.Op != applypatch.Delete {
						c.Edits = append(c.Edits, source.Edit{Path: f.Target(), Added: strings.Join(f.Added(), "\n"), At: at, Words: said.Last()})
					}
				}
			}
		}
	}
}

// readMeta reads a rollout's session_meta (its first line, at most 16 MiB:
// Codex puts its base instructions there).
func readMeta(path string) (meta, bool) {
	f, err := source.OpenRegular(path, 1<<62)
	if err != nil {
		return meta{}, false
	}
	defer f.Close()
	br := bufio.NewReaderSize(io.LimitReader(f, 16<<20), 64<<10)
	for i := 0; i < 4; i++ { // session_meta is first; allow a few lines before it
		b, err := br.ReadBytes('\n')
		var l line
		var m meta
		if json.Unmarshal(b, &l) == nil && l.Type == "session_meta" && json.Unmarshal(l.Payload, &m) == nil && m.ID != "" {
			return m, true
		}
		if err != nil {
			break
		}
	}
	return meta{}, false
}
