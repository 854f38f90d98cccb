package source

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// Meta is the header of a conversation's Markdown file.
type Meta struct {
	ID    string
	Agent string // shown, with Model and Summary, unless DefaultAgent
	// DefaultAgent: the conversation is the registry's default agent's
	// (pkg/agents), whose files have always been written without the
	// Agent, Model and Summary rows.
	DefaultAgent bool
	Model        string
	Summary      string
	Title        string
	Created      time.Time
	Updated      time.Time
	Project      string
	Files        []string
	// Note says where the messages come from when it is not the agent's own
	// store (HookRecordNote); rendered under the field table.
	Note string
}

// Stats describe a rendered conversation.
type Stats struct {
	Messages   int `json:"messageCount"`
	Lines      int `json:"totalLines"`
	Bytes      int `json:"bytes"`
	CodeBlocks int `json:"codeBlockCount"`
}

// RenderMarkdown writes a conversation in the context-file format of the
// original design: a title, a field table, then one section per message.
// Code blocks keep their language; fences are made longer than any run of
// backticks inside them.
func RenderMarkdown(w io.Writer, meta Meta, msgs []Message) (Stats, error) {
	var b strings.Builder
	var st Stats
	title := meta.Title
	if title == "" {
		title = "(untitled)"
	}
	fmt.Fprintf(&b, "# Conversation: %s\n\n| Field | Value |\n|-------|-------|\n", title)
	fmt.Fprintf(&b, "| ID | %s |\n", meta.ID)
	named := meta.Agent != "" && !meta.DefaultAgent
	if named {
		fmt.Fprintf(&b, "| Agent | %s |\n", meta.Agent)
	}
	if meta.Model != "" && named {
		fmt.Fprintf(&b, "| Model | %s |\n", meta.Model)
	}
	fmt.Fprintf(&b, "| Created | %s |\n| Updated | %s |\n| Project | %s |\n| Files | %s |\n\n---\n\n",
		isoOrEmpty(meta.Created), isoOrEmpty(meta.Updated), meta.Project, strings.Join(meta.Files, ", "))
	if meta.Note != "" {
		b.WriteString("> **Note:** " + meta.Note + "\n\n---\n\n")
	}
	if meta.Summary != "" && named {
		b.WriteString("**Summary:** " + meta.Summary + "\n\n---\n\n")
	}
	for i, m := range msgs {
		role := "Assistant"
		if m.Role == "user" {
			role = "User"
		}
		if m.Subagent != "" {
			role += ", subagent " + m.Subagent
		}
		fmt.Fprintf(&b, "## Message %d (%s)", i+1, role)
		if !m.CreatedAt.IsZero() {
			fmt.Fprintf(&b, " — %s", isoOrEmpty(m.CreatedAt))
		}
		b.WriteString("\n\n")
		if t := strings.TrimSpace(m.Thinking); t != "" {
			b.WriteString("> **Thinking:** " + strings.ReplaceAll(t, "\n", "\n> ") + "\n\n")
		}
		if t := strings.TrimSpace(m.Text); t != "" {
			b.WriteString(t + "\n\n")
		}
		for _, tc := range m.Tools {
			fmt.Fprintf(&b, "**Tool:** `%s`", tc.Name)
			if tc.Status != "" {
				fmt.Fprintf(&b, " (%s)", tc.Status)
			}
			b.WriteString("\n\n")
			if p := strings.TrimSpace(tc.Params); p != "" && p != "{}" {
				writeFence(&b, "json", truncate(p, 2000))
			}
			if r := strings.TrimSpace(tc.Result); r != "" {
				b.WriteString("Result:\n\n")
				writeFence(&b, "", truncate(r, 4000))
			}
		}
		for _, cb := range m.CodeBlocks {
			if cb.Path != "" {
				fmt.Fprintf(&b, "`%s`\n\n", cb.Path)
			}
			writeFence(&b, cb.Language, cb.Content)
			st.CodeBlocks++
		}
		b.WriteString("---\n\n")
	}
	st.Messages = len(msgs)
	out := b.String()
	st.Bytes = len(out)
	st.Lines = strings.Count(out, "\n")
	_, err := io.WriteString(w, out)
	return st, err
}

func writeFence(b *strings.Builder, lang, body string) {
	fence := "```"
	for strings.Contains(body, fence) {
		fence += "`"
	}
	b.WriteString(fence + lang + "\n" + strings.TrimRight(body, "\n") + "\n" + fence + "\n\n")
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && (s[cut]&0xC0) == 0x80 {
		cut--
	}
	return s[:cut] + fmt.Sprintf("\n… (%d more bytes)", len(s)-cut)
}

func isoOrEmpty(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}
