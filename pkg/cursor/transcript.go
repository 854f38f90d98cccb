package cursor

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
)

// ReadTranscript reads an agent transcript (transcript_path: one
// {"role", "message": {"content": [...]}} per line), the fallback when
// Cursor's database lacks a conversation. Lines that do not parse are skipped.
func ReadTranscript(path string) ([]Message, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Message
	sc := bufio.NewScanner(f)
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
