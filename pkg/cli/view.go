package cli

import (
	"encoding/json"
	"io"

	"github.com/git-convo/git-convo/pkg/app"
	"github.com/git-convo/git-convo/pkg/util/mstime"
	"github.com/git-convo/git-convo/pkg/util/term"
)

// The --json shapes of the read commands. They are a documented contract
// (docs/json.md): add fields freely, never rename or remove one.

// commitJSON is a commit as show, log and the MCP tools print it.
type commitJSON struct {
	Hash        string   `json:"hash"`
	ShortHash   string   `json:"shortHash"`
	Author      string   `json:"author"` // "Name <email>"
	AuthorName  string   `json:"authorName"`
	AuthorEmail string   `json:"authorEmail"`
	Date        string   `json:"date"` // author date, ISO-8601
	Subject     string   `json:"subject"`
	Parents     []string `json:"parents"`
	Branch      string   `json:"branch,omitempty"`
	Recorded    bool     `json:"recorded"`
	Files       []string `json:"files,omitempty"`
	RewrittenTo string   `json:"rewrittenTo,omitempty"`
}

// conversationJSON is a conversation linked to a commit.
type conversationJSON struct {
	ID           string   `json:"id"`
	Title        string   `json:"title"`
	Confidence   float64  `json:"confidence"`
	Status       string   `json:"status"` // auto | manual
	MatchedFiles []string `json:"matchedFiles"`
	Reason       string   `json:"reason"`
	Source       string   `json:"source"`
	Origin       string   `json:"origin"`              // local | notes (a teammate's shared note)
	SharedBy     string   `json:"sharedBy,omitempty"`  // the clone whose note says so (origin notes)
	DerivedBy    string   `json:"derivedBy,omitempty"` // the clone that derived it from sharedBy's note (a squash merge)
	Summary      string   `json:"summary,omitempty"`
	FirstPrompt  string   `json:"firstPrompt,omitempty"`
	Model        string   `json:"model,omitempty"`
	Agent        string   `json:"agent,omitempty"`
	Started      string   `json:"started,omitempty"`
	LastActive   string   `json:"lastActive,omitempty"`
	LinkedAt     string   `json:"linkedAt,omitempty"`
	WrittenLines int      `json:"writtenLines"` // the commit's added lines this conversation wrote
	AddedLines   int      `json:"addedLines"`   // the commit's countable added lines (0: not examined)
	// PositionLines: of writtenLines, those known by position (the others
	// by text match); Evidence: what the link rests on (docs/json.md).
	PositionLines int    `json:"positionLines"`
	Evidence      string `json:"evidence"`
}

// showJSON is one commit with its conversations: show's output, and one line of log's.
type showJSON struct {
	Commit        commitJSON         `json:"commit"`
	Conversations []conversationJSON `json:"conversations"`
	OtherTools    []app.OtherWriter  `json:"otherTools,omitempty"` // docs/interop.md
}

func toConversationJSON(lc app.LinkedConversation) conversationJSON {
	matched := lc.MatchedFiles
	if matched == nil {
		matched = []string{}
	}
	return conversationJSON{
		ID:            lc.ConversationID,
		Title:         titleOf(lc.Conv),
		Confidence:    lc.Confidence,
		Status:        lc.Status,
		MatchedFiles:  matched,
		Reason:        lc.Reason,
		Source:        lc.Source,
		Origin:        app.Origin(lc.Source),
		SharedBy:      lc.SharedBy,
		DerivedBy:     lc.DerivedBy,
		Summary:       lc.Conv.Summary,
		FirstPrompt:   lc.Conv.FirstPrompt,
		Model:         lc.Conv.Model,
		Agent:         lc.Conv.Agent,
		Started:       mstime.ISO(lc.Conv.FirstSeenMs),
		LastActive:    mstime.ISO(lc.Conv.ActivityMs),
		LinkedAt:      lc.CreatedAt,
		WrittenLines:  lc.WrittenLines,
		AddedLines:    lc.AddedLines,
		PositionLines: lc.PositionLines,
		Evidence:      lc.Evidence(),
	}
}

func toConversationsJSON(lcs []app.LinkedConversation) []conversationJSON {
	out := make([]conversationJSON, 0, len(lcs))
	for _, lc := range lcs {
		out = append(out, toConversationJSON(lc))
	}
	return out
}

// titleOf is a conversation's title wherever one is given, text or JSON:
// its title, else the start of its first prompt (an agent without titles,
// such as the Cursor CLI, which has no Cursor database), else "".
func titleOf(c app.Conversation) string {
	if c.Title != "" || c.FirstPrompt == "" {
		return c.Title
	}
	return oneLine(c.FirstPrompt, 80)
}

// displayTitle is what a person sees for a conversation: titleOf, on one
// line and safe to print, else its id.
func displayTitle(c app.Conversation, id string) string {
	if t := titleOf(c); t != "" {
		return term.Line(t)
	}
	return "conversation " + shortID(id)
}

// sharedBy says, for a link read from a teammate's note, whose note it is
// ("shared by clone-…"), after sep; "" for this clone's own links.
func sharedBy(lc app.LinkedConversation, sep string) string {
	if lc.Source != app.SourceNotes {
		return ""
	}
	if lc.SharedBy == "" {
		return sep + "shared in git notes"
	}
	return sep + "shared by " + term.Line(lc.SharedBy)
}

// shortID is the start of a conversation id, safe to print.
func shortID(id string) string {
	if r := []rune(id); len(r) > 8 {
		id = string(r[:8])
	}
	return term.Line(id)
}

// jsonEncoder writes JSON without HTML escaping, with the characters a
// terminal acts on escaped (term.JSON).
func jsonEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(term.JSONWriter(w))
	enc.SetEscapeHTML(false)
	return enc
}
