package vscode

import (
	"strings"

	"github.com/git-convo/git-convo/pkg/agents/formats/eventstream"
	"github.com/git-convo/git-convo/pkg/agents/source"
)

// ReadTranscript reads the event stream VS Code writes for a session
// (GitHub.copilot-chat/transcripts/<sessionId>.jsonl, which the hooks'
// transcript_path names): the user's messages, the assistant's with their
// tool requests, and the edits of the file tools it ran.
func ReadTranscript(path string) (*source.Conversation, error) {
	return eventstream.Read(path, Name, func(tool string, args map[string]any) []source.Edit {
		var out []source.Edit
		for _, fe := range toolEdits(tool, args) {
			out = append(out, source.Edit{Path: fe.path, Added: strings.Join(fe.added, "\n")})
		}
		return out
	})
}
