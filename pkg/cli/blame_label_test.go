package cli

import (
	"testing"

	"github.com/git-convo/git-convo/pkg/app"
	"github.com/git-convo/git-convo/pkg/git/gitx"
)

// TestBlameLabel: text blame's column gives the answer --json gives
// (lineAttribution's): a conversation's title only for a line its edit
// wrote, "(by hand)" for a person's, and nothing where no one is known to
// have written the line, however the commit is linked. A commit-level link
// names no line's writer: not a conversation whose line evidence is of other
// lines (a teammate's amend of the agent's commit, read where the copy of
// the agent's record is not shared), nor one linked by its files only.
func TestBlameLabel(t *testing.T) {
	const c, x, y = "c0ffee", "11111111-2222-4333-8444-555555555555", "22222222-2222-4333-8444-555555555555"
	cursor := app.LinkedConversation{Link: app.Link{ConversationID: x, CommitHash: c, Confidence: 0.9, WrittenLines: 3, AddedLines: 5, PositionLines: 3},
		Conv: app.Conversation{ID: x, Title: "Add rate limiting"}}
	claude := app.LinkedConversation{Link: app.Link{ConversationID: y, CommitHash: c, Confidence: 0.83, WrittenLines: 4, AddedLines: 14, PositionLines: 4},
		Conv: app.Conversation{ID: y}}
	filesOnly := app.LinkedConversation{Link: app.Link{ConversationID: x, CommitHash: c, Confidence: 0.4}, Conv: cursor.Conv}
	line := gitx.BlameLine{Commit: c, Filename: "limiter.go", OrigLine: 2}
	wrote := func(conv, file string) map[string]map[string]map[int]app.LineWriter {
		return map[string]map[string]map[int]app.LineWriter{c: {file: {2: {ConversationID: conv, Evidence: "position"}}}}
	}
	for _, tc := range []struct {
		name      string
		writers   map[string]map[string]map[int]app.LineWriter
		linked    []app.LinkedConversation
		recorded  bool
		attr      string
		key, want string
	}{
		{"a conversation's line", wrote(x, "limiter.go"), []app.LinkedConversation{cursor, claude}, true, attrAgent, x, "Add rate limiting"},
		{"the writer second among the links", wrote(y, "limiter.go"), []app.LinkedConversation{cursor, claude}, true, attrAgent, y, "conversation 22222222"},
		{"a writer no link names", wrote(y, "limiter.go"), nil, false, attrAgent, y, y},
		{"a person's line in an examined commit", wrote(y, "other.go"), []app.LinkedConversation{claude}, true, attrHuman, "", "(by hand)"},
		{"a line of an examined commit linked by its files only", nil, []app.LinkedConversation{filesOnly}, true, attrHuman, "", "(by hand)"},
		{"a line the partial record of a teammate's amend does not name", wrote(y, "other.go"), []app.LinkedConversation{claude}, false, attrUnknown, "", ""},
		{"a commit not examined, a conversation's lines elsewhere", wrote(y, "other.go"), []app.LinkedConversation{cursor, claude}, false, attrUnknown, "", ""},
		{"a commit recorded before line evidence", nil, []app.LinkedConversation{filesOnly}, false, attrUnknown, "", ""},
		{"no conversation", nil, nil, false, attrUnknown, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, attr := lineAttribution(line, tc.writers, tc.linked, map[string]bool{c: tc.recorded})
			if attr != tc.attr {
				t.Fatalf("attribution %s, want %s", attr, tc.attr)
			}
			key, label := blameLabel(w, attr, tc.linked)
			if key != tc.key || label != tc.want {
				t.Errorf("column %q (color of %q), want %q (%q): --json says %s, written by %q", label, key, tc.want, tc.key, attr, w.ConversationID)
			}
		})
	}
}
