package source

import "time"

// Message is one message of a conversation, user's or assistant's.
type Message struct {
	BubbleID      string      `json:"bubbleId,omitempty"`
	Role          string      `json:"role"` // user | assistant
	CreatedAt     time.Time   `json:"createdAt,omitzero"`
	Text          string      `json:"text,omitempty"`
	Thinking      string      `json:"thinking,omitempty"`
	Tools         []ToolCall  `json:"tools,omitempty"`
	CodeBlocks    []CodeBlock `json:"codeBlocks,omitempty"`
	RelevantFiles []string    `json:"relevantFiles,omitempty"`
	// Subagent names the subagent that wrote the message, when one did.
	Subagent string `json:"subagent,omitempty"`
}

// ToolCall is an agent's tool step.
type ToolCall struct {
	Name   string `json:"name"`
	Params string `json:"params,omitempty"`
	Result string `json:"result,omitempty"`
	Status string `json:"status,omitempty"`
}

// CodeBlock is a block of code in a message.
type CodeBlock struct {
	Language string `json:"language,omitempty"`
	Path     string `json:"path,omitempty"`
	Content  string `json:"content"`
}
