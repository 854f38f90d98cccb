package cursor

import (
	"bufio"
	"encoding/json"
	"io"
	"sort"
	"strings"

	"github.com/git-convo/git-convo/pkg/agents/source"
)

// MaxTranscript bounds the transcript file read: the path comes from a hook
// payload, and a huge file must not exhaust memory.
const MaxTranscript = 256 << 20

// ReadTranscript reads an agent transcript (transcript_path: one
// {"role", "message": {"content": [...]}} per line), the fallback when
// Cursor's database lacks a conversation. Lines that do not parse are skipped.
// Only a regular file of at most MaxTranscript bytes is read: a FIFO or a
// device named by a payload would block or never end.
func ReadTranscript(path string) ([]Message, error) {
	msgs, _, err := readTranscript(path)
	return msgs, err
}

// redacted is what Cursor's transcripts hold in place of the agent's
// hidden thinking, alone or after its words: never part of them.
const redacted = "[REDACTED]"

// readTranscript reads a transcript's messages and its edits, each with the
// agent's last words of the turn before the tool call that made it
// (source.Edit.Words). The edits carry no time: the transcript has none.
func readTranscript(path string) ([]Message, []source.Edit, error) {
	f, err := source.OpenRegular(path, MaxTranscript)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	var out []Message
	var edits []source.Edit
	var said source.Said
	sc := bufio.NewScanner(io.LimitReader(f, MaxTranscript))
	sc.Buffer(make([]byte, 0, 64*1024), 64*1024*1024)
	for sc.Scan() {
		var line struct {
			Role    string `json:"role"`
			Message struct {
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil || line.Role == "" {
			continue
		}
		m := Message{Role: "assistant"}
		if line.Role == "user" {
			m.Role = "user"
		}
		var blocks []struct {
			Type  string          `json:"type"`
			Text  string          `json:"text"`
			Name  string          `json:"name"`
			Input json.RawMessage `json:"input"`
		}
		var text string
		if json.Unmarshal(line.Message.Content, &blocks) != nil {
			if json.Unmarshal(line.Message.Content, &text) == nil {
				m.Text = text
			}
		}
		var texts []string
		for _, b := range blocks {
			switch b.Type {
			case "text":
				texts = append(texts, stripUserQuery(b.Text))
				if m.Role == "assistant" {
					said.Say(strings.ReplaceAll(b.Text, redacted, ""))
				}
			case "tool_use":
				m.Tools = append(m.Tools, ToolCall{Name: b.Name, Params: string(b.Input)})
				if m.Role == "assistant" {
					edits = append(edits, toolEdits(b.Name, b.Input, said.Last())...)
				}
			}
		}
		if len(texts) > 0 {
			m.Text = strings.Join(texts, "\n\n")
		}
		if m.Role == "user" && (len(texts) > 0 || m.Text != "") {
			said.Prompt() // the user spoke: a new turn (a tool result alone is not one)
		}
		out = append(out, m)
	}
	return out, edits, sc.Err()
}

// toolEdits are the edits one tool call of a transcript made, as a hook
// payload of the same call would give them (Payload.AddedText), with
// words: a replacement's added text is the lines its new string has and
// its old string had not.
func toolEdits(name string, input json.RawMessage, words string) []source.Edit {
	p := Payload{Event: "postToolUse", ToolName: name}
	if p.ToolInput.UnmarshalJSON(input) != nil {
		return nil
	}
	added := p.AddedText()
	files := make([]string, 0, len(added))
	for f := range added {
		files = append(files, f)
	}
	sort.Strings(files) // a patch's files: in a stable order
	var out []source.Edit
	for _, f := range files {
		texts := added[f]
		if old := p.ToolInput.str("old_string", "oldString"); old != "" && len(texts) == 1 {
			texts = []string{source.AddedLines(old, texts[0])}
		} else if edits, ok := p.ToolInput["edits"].([]any); ok && len(edits) == len(texts) {
			for i, e := range edits {
				if m, ok := e.(map[string]any); ok {
					if old, ok := m["old_string"].(string); ok {
						texts[i] = source.AddedLines(old, texts[i])
					}
				}
			}
		}
		out = append(out, source.Edit{Path: f, Added: strings.Join(texts, "\n"), Words: words})
	}
	return out
}

func stripUserQuery(s string) string {
	t := strings.TrimSpace(s)
	if strings.HasPrefix(t, "<user_query>") && strings.HasSuffix(t, "</user_query>") {
		return strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(t, "<user_query>"), "</user_query>"))
	}
	return s
}
