// Package source is the seam between git-convo and the coding agents it
// reads. Each agent (pkg/agents/cursor, pkg/agents/claude) implements Source: it turns its
// own hook payloads into Activity, reads its own conversations into
// Conversation and lists past conversations for import. Everything past the
// seam (the store, linking, the read commands, MCP) knows no agent's format.
// docs/agents.md explains how to add an agent.
package source

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/git-convo/git-convo/pkg/attribution/position"
)

// Source is one coding agent.
type Source interface {
	// Name is the agent's name as stored and shown: "cursor", "claude".
	Name() string
	// ParseHook reads one hook payload (stdin of the agent's hook command).
	// Every field of a payload is optional; only input that is not a JSON
	// object is an error (ErrBadPayload).
	ParseHook(data []byte) (Activity, error)
	// ReadConversation reads a conversation by id; hint names where the
	// store last saw it (a transcript path), when known. ErrNotFound when
	// the agent has no such conversation.
	ReadConversation(ctx context.Context, id string, hint Hint) (*Conversation, error)
	// ListConversations returns the past conversations whose working
	// directory lies in one of roots (absolute work-tree paths), for import.
	ListConversations(ctx context.Context, roots []string) ([]Ref, error)
}

// EventHook is a Source whose hook commands name their event (capture
// --event, as Cursor's hooks.json does): that name, when given, overrides
// the payload's, which may be missing.
type EventHook interface {
	ParseHookEvent(data []byte, event string) (Activity, error)
}

// Opener is a Source that reads many conversations faster through one open
// handle (Cursor's database), as import does: Open returns the source
// reading through it, and the function that closes it.
type Opener interface {
	Open(ctx context.Context) (Source, func() error, error)
}

// ErrNotFound: the agent has no such conversation.
var ErrNotFound = errors.New("conversation not found")

// ErrNoStore: the agent keeps no store here at all (the Cursor CLI has no
// Cursor database). It is ErrNotFound too. An optional source missing, not
// a fault: doctor says so once, and no turn logs it as an error.
var ErrNoStore = errors.New("the agent's store does not exist")

// ErrBadPayload: a hook payload that is not a JSON object.
var ErrBadPayload = errors.New("payload is not a JSON object")

// Hint is what the store knows of where a conversation lives, and what the
// caller needs of it.
type Hint struct {
	TranscriptPath string
	// NoMessages: the caller needs no messages (enrichment, which runs in
	// an agent's stop hook). A source may leave Messages empty, and need not
	// read a file that holds nothing else (Cursor's transcript).
	NoMessages bool
}

// Activity is what one hook event tells about a conversation.
type Activity struct {
	ConversationID string
	GenerationID   string
	Event          string // the agent's own event name
	Model          string
	TranscriptPath string
	Roots          []string // workspace roots or the working directory, absolute
	Prompt         string
	Response       string
	Status         string
	Attachments    []string // files attached to a prompt (context, not edits)
	Files          []string // files edited, absolute or relative to Roots[0]
	// Added holds, per file of Files, the texts the agent wrote there:
	// line-level attribution matches a commit's added lines against them.
	Added map[string][]string
	// Writes holds, per file of Files, the same edits as replacements
	// (what was replaced, what was written), for the capture to locate in
	// the file on disk: evidence by position (pkg/attribution/position). Optional: an
	// agent that cannot say gives Added only, which is text evidence.
	Writes map[string][]position.Write
	// Spans are the located writes (filled by the capture, not the agent).
	Spans []position.Span
	// ToolEdit is set when the edit came from a tool call (postToolUse)
	// rather than a file-edit event.
	ToolEdit bool
	// Commit is a git commit the agent itself ran, when this event saw one.
	Commit *AgentCommit
	// EndsTurn marks the events after which a conversation's title and
	// summary are worth re-reading (stop, session end).
	EndsTurn bool
	// Foreign is set for another program's payload that reached this
	// agent's hook (Cursor runs Claude Code's hook files too): it is
	// counted by that program's own hook, so the caller skips it.
	Foreign bool
	// Sender names the agent whose payload this is, when it reached this
	// agent's hook and is that agent's to record (VS Code agent mode runs
	// Claude Code's hooks): capture parses it again with Sender's source.
	Sender string
	// Unknown says why no agent recognises the payload, and which hooks
	// configuration sent it: capture logs it and keeps the payload set
	// aside in the spool, where doctor counts it.
	Unknown string
	// ToolCall is the id of the tool call the event belongs to, which
	// pairs a PreToolUse with its PostToolUse.
	ToolCall string
	// Before are files a tool is about to write whose new text its
	// payloads will not give (VS Code's editFiles): capture keeps their
	// content now, per ToolCall. After are the files such a tool wrote:
	// capture diffs each against what Before kept, and the lines the tool
	// inserted are the written lines (a whole-file Write).
	Before, After []string
}

// AgentCommit is a commit the agent made through its shell tool.
type AgentCommit struct {
	Dir  string // where the command ran
	Hash string // as printed: usually abbreviated
}

// Conversation is one conversation as its agent stored it.
type Conversation struct {
	ID    string
	Agent string
	Title string
	// TitleFromPrompt: the agent gave no title, and Title is the start of
	// the first prompt (to show); it is not stored, nor shared, as a title.
	TitleFromPrompt bool
	Summary         string
	Model           string
	Cwd             string
	TranscriptPath  string
	Created         time.Time
	Updated         time.Time
	Status          string   // the agent's state of it (Cursor's composer status)
	Mode            string   // the agent's mode (Cursor's agent, chat, ...)
	Prompts         []string // the user's prompts, in order
	Messages        []Message
	Edits           []Edit
	// EditSource is what the store calls where Edits were seen: "" for a
	// tool call in the transcript ("tool"), "cursor-edit" for the records
	// of Cursor's database.
	EditSource string
	// ContextFiles are files the conversation looked at without editing
	// them (Cursor's file selections and relevant files).
	ContextFiles []string
	// WordEdits are edits read only for the words before them (Edit.Words),
	// where Edits come from elsewhere: Cursor's transcript, beside its
	// database's edits. Never evidence of lines: ingest does not read them.
	WordEdits []Edit
}

// Edit is one change the agent made to a file, with the text it added.
type Edit struct {
	Path  string // absolute, or relative to the conversation's Cwd
	Added string // the added text (lines joined with "\n"); "" when unknown
	At    time.Time
	// LinesOnly: Added is evidence of lines the agent wrote (Cursor's own
	// diffs, checkpoints included), not a record that it edited the file.
	LinesOnly bool
	// Words are the agent's last words before the tool call that made the
	// edit, in the same turn (since the user's prompt): what it said it was
	// about to do. "" when the transcript has none there (Said).
	Words string
}

// Said keeps the agent's last words of the turn, for Edit.Words: a reader
// calls Prompt at each prompt of the user, Say with each text of the agent,
// in the transcript's order, and gives each edit Last. Thinking is not
// words: it is not what the agent said.
type Said struct{ last string }

// Prompt starts a turn: the words before it belong to another prompt.
func (s *Said) Prompt() { s.last = "" }

// Say records text the agent said (blank text changes nothing).
func (s *Said) Say(text string) {
	if strings.TrimSpace(text) != "" {
		s.last = strings.TrimSpace(text)
	}
}

// Last is the agent's last words of the turn so far ("" when none).
func (s *Said) Last() string { return s.last }

// Ref names a past conversation for import.
type Ref struct {
	ID             string
	TranscriptPath string
	Cwd            string
	Updated        time.Time
	// Via names the associations it was found by, for import's summary
	// (Cursor's: workspace, composer headers, ...); empty for an agent
	// with one way only.
	Via []string
}
