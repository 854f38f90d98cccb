package cursor

import (
	"context"
	"encoding/json"
	"github.com/git-convo/git-convo/pkg/agents/source"
	"strings"
	"time"
)

// Message, ToolCall and CodeBlock are the agent-neutral message types of
// pkg/agents/source; Cursor's reader fills them.
type (
	Message   = source.Message
	ToolCall  = source.ToolCall
	CodeBlock = source.CodeBlock
)

type bubbleJSON struct {
	BubbleID string `json:"bubbleId"`
	Type     int    `json:"type"`
	Text     string `json:"text"`
	Thinking *struct {
		Text string `json:"text"`
	} `json:"thinking"`
	ToolFormerData *struct {
		Name    string `json:"name"`
		Params  string `json:"params"`
		RawArgs string `json:"rawArgs"`
		Result  string `json:"result"`
		Status  string `json:"status"`
	} `json:"toolFormerData"`
	CodeBlocks []struct {
		Content    string          `json:"content"`
		LanguageID string          `json:"languageId"`
		URI        json.RawMessage `json:"uri"`
	} `json:"codeBlocks"`
	CreatedAt     string          `json:"createdAt"`
	RelevantFiles json.RawMessage `json:"relevantFiles"`
}

// Messages reads the conversation's messages in order: the order of
// fullConversationHeadersOnly (bubbles not listed there are stale and
// skipped), or a legacy composer's inline conversation[]. All bubbles come
// from one key-range query, never LIKE (a full scan on a 10 GB database).
func (d *DB) Messages(ctx context.Context, c *Composer) ([]Message, error) {
	if len(c.headers) == 0 {
		var out []Message
		for _, raw := range c.legacy {
			var b bubbleJSON
			if json.Unmarshal(raw, &b) == nil {
				out = append(out, toMessage(b))
			}
		}
		return out, nil
	}
	prefix := "bubbleId:" + c.ID + ":"
	rows, err := d.db.QueryContext(ctx, `SELECT key, value FROM cursorDiskKV WHERE key >= ? AND key < ?`, prefix, "bubbleId:"+c.ID+";")
	if err != nil {
		return nil, d.classify(err)
	}
	defer rows.Close()
	bubbles := make(map[string]bubbleJSON, len(c.headers))
	for rows.Next() {
		var key string
		var val []byte
		if err := rows.Scan(&key, &val); err != nil {
			return nil, d.classify(err)
		}
		var b bubbleJSON
		if json.Unmarshal(val, &b) == nil {
			bubbles[strings.TrimPrefix(key, prefix)] = b
		}
	}
	if err := rows.Err(); err != nil {
		return nil, d.classify(err)
	}
	out := make([]Message, 0, len(c.headers))
	for _, h := range c.headers {
		b, ok := bubbles[h.BubbleID]
		if !ok {
			continue // listed but not (yet) written: Cursor flushes late
		}
		if b.Type == 0 {
			b.Type = h.Type
		}
		m := toMessage(b)
		m.BubbleID = h.BubbleID
		out = append(out, m)
	}
	return out, nil
}

func toMessage(b bubbleJSON) Message {
	m := Message{BubbleID: b.BubbleID, Role: "assistant", Text: b.Text}
	if b.Type == 1 {
		m.Role = "user"
	}
	if t, err := time.Parse(time.RFC3339Nano, b.CreatedAt); err == nil {
		m.CreatedAt = t
	}
	if b.Thinking != nil {
		m.Thinking = b.Thinking.Text
	}
	if tf := b.ToolFormerData; tf != nil && tf.Name != "" {
		params := tf.Params
		if params == "" || params == "{}" {
			params = tf.RawArgs
		}
		m.Tools = append(m.Tools, ToolCall{Name: tf.Name, Params: params, Result: tf.Result, Status: tf.Status})
	}
	for _, cb := range b.CodeBlocks {
		blk := CodeBlock{Language: cb.LanguageID, Content: cb.Content}
		var u struct {
			FsPath string `json:"fsPath"`
			Path   string `json:"path"`
		}
		if json.Unmarshal(cb.URI, &u) == nil {
			blk.Path = u.FsPath
			if blk.Path == "" {
				blk.Path = u.Path
			}
		}
		if blk.Content != "" {
			m.CodeBlocks = append(m.CodeBlocks, blk)
		}
	}
	var files []string
	if json.Unmarshal(b.RelevantFiles, &files) == nil {
		m.RelevantFiles = files
	}
	return m
}
