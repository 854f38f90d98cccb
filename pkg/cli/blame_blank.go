package cli

import (
	"github.com/git-convo/git-convo/pkg/app"
	"github.com/git-convo/git-convo/pkg/attribution/link"
	"github.com/git-convo/git-convo/pkg/git/gitx"
)

// blankWriters gives blank lines the writer that their position shows, for
// commits whose lines are known by text match (recorded before evidence by
// position, or shared in notes): a blank line an agent's located edit wrote
// is recorded as such, and one it did not write is a person's.
// Blank lines are no evidence by their text (every edit has them), so record
// stores no writer for them; but a run of blank lines that one commit added
// between two lines one conversation wrote, all adjacent in that commit's
// file, stands inside that conversation's edits: the agent wrote it (the
// prompt is the line above's; not the same prompt, as the line above may be
// one a later edit also wrote, such as a closing brace). A blank line at the
// edge of an edit, or between an agent's line and a person's or another
// conversation's, stays the person's. writers is completed in place.
func blankWriters(lines []gitx.BlameLine, writers map[string]map[string]map[int]app.LineWriter) {
	// adjacent: b follows a in the same commit's version of the same file.
	adjacent := func(a, b gitx.BlameLine) bool {
		return a.Commit == b.Commit && a.Filename == b.Filename && b.OrigLine == a.OrigLine+1 && b.Line == a.Line+1
	}
	writer := func(l gitx.BlameLine) (app.LineWriter, bool) {
		w, ok := writers[l.Commit][link.NormPath(l.Filename)][l.OrigLine]
		return w, ok
	}
	for i := 0; i < len(lines); i++ {
		if link.Countable(lines[i].Text) {
			continue
		}
		end := i // the run of blank lines lines[i..end]
		for end+1 < len(lines) && !link.Countable(lines[end+1].Text) && adjacent(lines[end], lines[end+1]) {
			end++
		}
		if i > 0 && end+1 < len(lines) && adjacent(lines[i-1], lines[i]) && adjacent(lines[end], lines[end+1]) {
			above, okA := writer(lines[i-1])
			below, okB := writer(lines[end+1])
			// Position evidence records the blank lines an agent wrote where
			// it wrote them: this guess is for text evidence only.
			if okA && okB && above.ConversationID == below.ConversationID &&
				above.Evidence != app.EvidencePosition && below.Evidence != app.EvidencePosition {
				for _, l := range lines[i : end+1] {
					writers[l.Commit][link.NormPath(l.Filename)][l.OrigLine] = above
				}
			}
		}
		i = end
	}
}
