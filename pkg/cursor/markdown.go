package cursor

import (
	"io"

	"github.com/git-convo/git-convo/pkg/source"
)

// ConversationMeta is the header of a conversation's Markdown file; the
// renderer is shared by every agent (pkg/source).
type ConversationMeta = source.Meta

// Stats describe a rendered conversation.
type Stats = source.Stats

// RenderMarkdown writes a conversation in the context-file format.
func RenderMarkdown(w io.Writer, meta ConversationMeta, msgs []Message) (Stats, error) {
	return source.RenderMarkdown(w, meta, msgs)
}
