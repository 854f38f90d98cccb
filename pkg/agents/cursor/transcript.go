package cursor

import (
	"bufio"
	"encoding/json"
	"io"
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
	f, err := source.OpenRegular(path, MaxTranscript)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Message
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
			case "tool_use":
				m.Tools = append(m.Tools, ToolCall{Name: b.Name, Params: string(b.Input)})
			}
		}
		if len(texts) > 0 {
			m.Text = strings.Join(texts, "\n\n")
		}
		out = append(out, m)
	}
	return out, sc.Err()
}

func stripUserQuery(s string) string {
	t := strings.TrimSpace(s)
	if strings.HasPrefix(t, "<user_query>") && strings.HasSuffix(t, "</user_query>") {
		return strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(t, "<user_query>"), "</user_query>"))
	}
	return s
}
