package claude

import (
	"bufio"
	"encoding/json"
	"io"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/git-convo/git-convo/pkg/agents/source"
)

// MaxTranscript bounds the transcript bytes read: a session file grows with
// every turn, and a hook or a read command must not exhaust memory on one.
const MaxTranscript = 256 << 20

// line is the part of a transcript line git-convo reads. Unknown types and
// fields are ignored.
type line struct {
	Type        string          `json:"type"`
	UUID        string          `json:"uuid"`
	SessionID   string          `json:"sessionId"`
	Cwd         string          `json:"cwd"`
	Timestamp   string          `json:"timestamp"`
	IsMeta      bool            `json:"isMeta"`
	AgentID     string          `json:"agentId"`
	Summary     string          `json:"summary"`
	CustomTitle string          `json:"customTitle"`
	AITitle     string          `json:"aiTitle"`
	Title       string          `json:"title"`
	Message     json.RawMessage `json:"message"`
	ToolResult  json.RawMessage `json:"toolUseResult"`
}

type message struct {
	ID      string          `json:"id"`
	Role    string          `json:"role"`
	Model   string          `json:"model"`
	Content json.RawMessage `json:"content"`
}

type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// ReadTranscript reads a Claude Code session file with its subagents: the
// title (custom-title, else ai-title, else the last summary line, else the
// first prompt), the model, the times, every message in order with thinking,
// tool calls and their results, and the edits with the time of their result.
// Subagent transcripts (<session>/subagents/agent-<id>.jsonl, or
// agent-<id>.jsonl beside the session before 2.1.2) follow the tool call
// that started them. Only regular files are read, at most MaxTranscript bytes.
func ReadTranscript(path string) (*source.Conversation, error) {
	r, err := readFile(path, "")
	if err != nil {
		return nil, err
	}
	c := r.conv
	c.TranscriptPath = path
	if c.ID == "" {
		c.ID = strings.TrimSuffix(filepath.Base(path), ".jsonl")
	}
	// Subagents: those the session names (agentId in a Task result) go
	// after the message that started them; others in the subagents folder
	// go at the end, by time.
	dir := strings.TrimSuffix(path, ".jsonl")
	joined := map[string]bool{}
	var msgs []source.Message
	for i, m := range c.Messages {
		msgs = append(msgs, m)
		for _, id := range r.agentsAfter[i] {
			if joined[id] {
				continue
			}
			if sub := readSubagent(dir, filepath.Dir(path), id); sub != nil {
				joined[id] = true
				msgs = append(msgs, sub.conv.Messages...)
				c.Edits = append(c.Edits, sub.conv.Edits...)
			}
		}
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "subagents", "agent-*.jsonl")); len(files) > 0 {
		sort.Strings(files)
		for _, f := range files {
			id := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "agent-"), ".jsonl")
			if joined[id] {
				continue
			}
			if sub, err := readFile(f, id); err == nil {
				joined[id] = true
				msgs = append(msgs, sub.conv.Messages...)
				c.Edits = append(c.Edits, sub.conv.Edits...)
			}
		}
	}
	c.Messages = msgs
	return c, nil
}

func readSubagent(sessionDir, projectDir, id string) *parsed {
	if strings.ContainsAny(id, `/\`) || id == "" || id == "." || id == ".." {
		return nil
	}
	for _, p := range []string{
		filepath.Join(sessionDir, "subagents", "agent-"+id+".jsonl"),
		filepath.Join(projectDir, "agent-"+id+".jsonl"),
	} {
		if r, err := readFile(p, id); err == nil {
			return r
		}
	}
	return nil
}

type parsed struct {
	conv *source.Conversation
	// agentsAfter lists, per message index, the subagents its tool calls started.
	agentsAfter map[int][]string
	editOf      map[string]int // tool_use id → index in conv.Edits
	said        source.Said    // the agent's words of the turn, for Edit.Words
}

// agentIDRE finds the subagent id in a Task result's text.
var agentIDRE = regexp.MustCompile(`agentId: ([A-Za-z0-9_.-]+)`)

func readFile(path, subagent string) (*parsed, error) {
	f, err := source.OpenRegular(path, MaxTranscript)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parse(io.LimitReader(f, MaxTranscript), subagent)
}

func parse(r io.Reader, subagent string) (*parsed, error) {
	c := &source.Conversation{Agent: Name}
	out := &parsed{conv: c, agentsAfter: map[int][]string{}, editOf: map[string]int{}}
	var customTitle, aiTitle, summary string
	toolAt := map[string][2]int{} // tool_use id → message, tool index
	toolInput := map[string]json.RawMessage{}
	lastMsgID := ""
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		raw, err := br.ReadBytes('\n')
		if len(raw) > 0 {
			var l line
			if json.Unmarshal(raw, &l) == nil {
				at := parseTime(l.Timestamp)
				if !at.IsZero() {
					if c.Created.IsZero() || at.Before(c.Created) {
						c.Created = at
					}
					if at.After(c.Updated) {
						c.Updated = at
					}
				}
				if c.ID == "" && l.SessionID != "" && subagent == "" {
					c.ID = l.SessionID
				}
				if c.Cwd == "" {
					c.Cwd = l.Cwd
				}
				switch l.Type {
				case "summary":
					if l.Summary != "" {
						summary = l.Summary
					}
				case "custom-title":
					customTitle = first(l.CustomTitle, l.Title)
				case "ai-title":
					aiTitle = first(l.AITitle, l.Title)
				case "user", "assistant":
					lastMsgID = out.add(l, at, subagent, lastMsgID, toolAt, toolInput)
				}
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	c.Title = first(customTitle, aiTitle, summary)
	if summary != c.Title {
		c.Summary = summary
	}
	if c.Title == "" && len(c.Prompts) > 0 {
		c.Title, c.TitleFromPrompt = oneLine(c.Prompts[0], 80), true
	}
	return out, nil
}

// add folds one user or assistant line into the conversation. Lines of one
// API response (same message.id) become one message; tool results attach to
// their call. It returns the message id of the line.
func (p *parsed) add(l line, at time.Time, subagent, lastMsgID string, toolAt map[string][2]int, toolInput map[string]json.RawMessage) string {
	c := p.conv
	var m message
	if json.Unmarshal(l.Message, &m) != nil {
		return ""
	}
	if m.Model != "" && !strings.HasPrefix(m.Model, "<") {
		c.Model = m.Model
	}
	var text string
	var blocks []block
	if json.Unmarshal(m.Content, &text) != nil {
		_ = json.Unmarshal(m.Content, &blocks)
	}
	if l.Type == "user" {
		var texts []string
		for _, b := range blocks {
			switch b.Type {
			case "tool_result":
				p.result(b, l, at, toolAt, toolInput)
			case "text":
				texts = append(texts, b.Text)
			}
		}
		if text == "" {
			text = strings.Join(texts, "\n\n")
		}
		if strings.TrimSpace(text) == "" || l.IsMeta {
			return ""
		}
		if !strings.HasPrefix(strings.TrimSpace(text), "<") {
			p.said.Prompt() // a subagent's task too: words before it are its caller's
			if subagent == "" {
				c.Prompts = append(c.Prompts, text)
			}
		}
		c.Messages = append(c.Messages, source.Message{BubbleID: l.UUID, Role: "user", CreatedAt: at, Text: text, Subagent: subagent})
		return ""
	}
	var msg *source.Message
	if m.ID != "" && m.ID == lastMsgID && len(c.Messages) > 0 && c.Messages[len(c.Messages)-1].Role == "assistant" {
		msg = &c.Messages[len(c.Messages)-1]
	} else {
		c.Messages = append(c.Messages, source.Message{BubbleID: l.UUID, Role: "assistant", CreatedAt: at, Subagent: subagent})
		msg = &c.Messages[len(c.Messages)-1]
	}
	if text != "" {
		msg.Text = joinNonEmpty(msg.Text, text)
		p.said.Say(text)
	}
	for _, b := range blocks {
		switch b.Type {
		case "text":
			msg.Text = joinNonEmpty(msg.Text, b.Text)
			p.said.Say(b.Text)
		case "thinking":
			msg.Thinking = joinNonEmpty(msg.Thinking, b.Thinking)
		case "tool_use":
			toolAt[b.ID] = [2]int{len(c.Messages) - 1, len(msg.Tools)}
			toolInput[b.ID] = b.Input
			msg.Tools = append(msg.Tools, source.ToolCall{Name: b.Name, Params: string(b.Input)})
			if isEditTool(b.Name) {
				// An edit whose result never came (an excerpt, a crash) still
				// names its file; the result fills in the time and the text.
				var input map[string]any
				_ = json.Unmarshal(b.Input, &input)
				file, added := toolEdit(b.Name, input, nil)
				if file != "" {
					p.editOf[b.ID] = len(c.Edits)
					c.Edits = append(c.Edits, source.Edit{Path: file, Added: added, At: at, Words: p.said.Last()})
				}
			}
		}
	}
	return m.ID
}

// result attaches a tool result to its call, dates the call's edit, and
// notes the subagent a Task or Agent call started.
func (p *parsed) result(b block, l line, at time.Time, toolAt map[string][2]int, toolInput map[string]json.RawMessage) {
	c := p.conv
	pos, ok := toolAt[b.ToolUseID]
	if !ok {
		return
	}
	tc := &c.Messages[pos[0]].Tools[pos[1]]
	tc.Result = resultText(b.Content)
	tc.Status = "completed"
	if b.IsError {
		tc.Status = "error"
	}
	var resp map[string]any
	_ = json.Unmarshal(l.ToolResult, &resp)
	if isEditTool(tc.Name) && resp != nil && !b.IsError {
		var input map[string]any
		_ = json.Unmarshal(toolInput[b.ToolUseID], &input)
		_, added := toolEdit(tc.Name, input, resp)
		if i, ok := p.editOf[b.ToolUseID]; ok {
			c.Edits[i].At = at
			if added != "" {
				c.Edits[i].Added = added
			}
		}
	}
	if tc.Name == "Task" || tc.Name == "Agent" {
		id := str(resp, "agentId")
		if id == "" {
			if m := agentIDRE.FindStringSubmatch(tc.Result); m != nil {
				id = m[1]
			}
		}
		if id != "" {
			p.agentsAfter[pos[0]] = append(p.agentsAfter[pos[0]], id)
		}
	}
}

// resultText flattens a tool_result's content: a string or text blocks.
func resultText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []block
	_ = json.Unmarshal(raw, &blocks)
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" && b.Text != "" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func parseTime(s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t
}

func first(ss ...string) string {
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			return s
		}
	}
	return ""
}

func joinNonEmpty(a, b string) string {
	switch {
	case strings.TrimSpace(b) == "":
		return a
	case a == "":
		return b
	}
	return a + "\n\n" + b
}

// oneLine shortens a prompt to a title: its first line, at most n runes.
func oneLine(s string, n int) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if r := []rune(s); len(r) > n {
		s = string(r[:n-1]) + "…"
	}
	return s
}
