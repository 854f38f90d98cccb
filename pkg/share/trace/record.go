// Package trace turns what git-convo knows about a commit into an Agent
// Trace record (agent-trace.dev, spec 0.1.0): the shared, tool-neutral form
// of our attribution. Everything git-convo adds that the spec lacks lives
// under metadata[MetaKey], versioned by Format.
package trace

import (
	"encoding/json"
	"strings"
)

// SpecVersion is the Agent Trace specification version records follow.
const SpecVersion = "0.1.0"

// MetaKey is git-convo's reverse-domain key under metadata.
const MetaKey = "dev.git-convo"

// Format is the version of what git-convo writes under MetaKey. A reader
// ignores records of a newer major format it does not know.
const Format = 1

// Record is one Agent Trace record: the conversations behind one commit.
type Record struct {
	Version   string `json:"version"`
	ID        string `json:"id"`
	Timestamp string `json:"timestamp"`
	VCS       *VCS   `json:"vcs,omitempty"`
	Tool      *Tool  `json:"tool,omitempty"`
	Files     []File `json:"files"`
	// Metadata keeps other tools' keys as they were (a merge loses none).
	Metadata map[string]json.RawMessage `json:"metadata,omitempty"`

	meta *Meta // Metadata[MetaKey] decoded once (readers ask several times)
}

// VCS names the commit a record is about.
type VCS struct {
	Type     string `json:"type"`
	Revision string `json:"revision"`
}

// Tool is the program that wrote a record.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// File is one file of the commit and who wrote its added lines.
type File struct {
	Path          string         `json:"path"`
	Conversations []Conversation `json:"conversations"`
}

// Conversation is one contributor's lines in a file. URL names the
// conversation (ConversationURL); people's lines have none.
type Conversation struct {
	URL         string       `json:"url,omitempty"`
	Contributor *Contributor `json:"contributor,omitempty"`
	Ranges      []Range      `json:"ranges"`
}

// Contributor is ai, human, mixed or unknown.
type Contributor struct {
	Type    string `json:"type"`
	ModelID string `json:"model_id,omitempty"`
}

// Range is a run of lines at the record's revision, 1-based and inclusive.
type Range struct {
	StartLine   int    `json:"start_line"`
	EndLine     int    `json:"end_line"`
	ContentHash string `json:"content_hash,omitempty"`
}

// Meta is what git-convo keeps under metadata[MetaKey].
type Meta struct {
	Format int `json:"format"`
	// Writer names the clone that wrote the record (convo.shareWriter): a
	// clone replaces its own records on a commit and keeps everyone else's.
	Writer        string              `json:"writer,omitempty"`
	Conversations map[string]ConvMeta `json:"conversations,omitempty"`
	// Evidence holds per-line hashes of the lines each conversation wrote,
	// so the lines can be recognised in another commit (a squash merge).
	Evidence []Evidence `json:"evidence,omitempty"`
	// Withdrawn names conversations whose derived links (squash merges, by
	// any writer) on this commit the writer withdrew: readers drop them.
	Withdrawn []Withdrawal `json:"withdrawn,omitempty"`
}

// Withdrawal is a derived link a clone withdrew (git convo unlink, share
// clean): a false record can be taken back from the whole team.
type Withdrawal struct {
	Conversation string `json:"conversation"`
	Reason       string `json:"reason,omitempty"`
}

// ConvMeta describes one conversation linked to the commit.
type ConvMeta struct {
	Agent        string   `json:"agent,omitempty"`
	Model        string   `json:"model,omitempty"`
	Title        string   `json:"title,omitempty"`
	Summary      string   `json:"summary,omitempty"`
	Confidence   float64  `json:"confidence"`
	Status       string   `json:"status,omitempty"` // auto or manual
	Reason       string   `json:"reason,omitempty"`
	MatchedFiles []string `json:"matched_files,omitempty"`
	FirstPrompt  string   `json:"first_prompt,omitempty"` // only when sharing prompts
	StartedAt    string   `json:"started_at,omitempty"`
	LastActiveAt string   `json:"last_active_at,omitempty"`
	WrittenLines int      `json:"written_lines,omitempty"`
	AddedLines   int      `json:"added_lines,omitempty"`
	// PositionLines: of WrittenLines, those the writer's clone found where
	// the agent wrote them (evidence by position); absent in notes written
	// before it, whose lines read as text matches.
	PositionLines int `json:"position_lines,omitempty"`
	// Derived says how the link was derived rather than recorded: "squash"
	// for a squash or rebase merge recognised from other notes' evidence.
	Derived string `json:"derived,omitempty"`
	// SharedBy names the clone whose note gave this link (its writer),
	// where the record's own writer does not: the teammate whose note a
	// derived link came from, or each clone's link in a merge of several
	// clones' records. Readers show it as the link's sharer.
	SharedBy string `json:"shared_by,omitempty"`
	// RewrittenFrom is set by a reader, never written to a note: the link
	// is a record about this commit, which an amend or a rebase in the
	// reader's clone rewrote into the record's commit (copied by rewrite).
	RewrittenFrom string `json:"rewritten_from,omitempty"`
}

// IsDerived reports whether a link was derived from other notes: marked so,
// or written before the mark existed (a "squash of" reason).
func (c ConvMeta) IsDerived() bool {
	return c.Derived != "" || strings.HasPrefix(c.Reason, "squash of ")
}

// Evidence is the hashes of the lines one conversation wrote in one file.
type Evidence struct {
	Path         string   `json:"path"`
	Conversation string   `json:"conversation"`
	Lines        []string `json:"lines"`
}

// Meta returns git-convo's part of the metadata (ok false when absent or
// unreadable).
func (r *Record) Meta() (Meta, bool) {
	if r.meta != nil {
		return *r.meta, true
	}
	var m Meta
	raw, ok := r.Metadata[MetaKey]
	if !ok || json.Unmarshal(raw, &m) != nil {
		return Meta{}, false
	}
	r.meta = &m
	return m, true
}

// SetMeta stores git-convo's part of the metadata.
func (r *Record) SetMeta(m Meta) {
	b, err := json.Marshal(m)
	if err != nil {
		return // a Meta always marshals
	}
	if r.Metadata == nil {
		r.Metadata = map[string]json.RawMessage{}
	}
	r.Metadata[MetaKey] = b
	r.meta = &m
}
