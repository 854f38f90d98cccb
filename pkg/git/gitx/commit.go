package gitx

import (
	"context"
	"strings"
	"time"
)

// Commit is one commit's metadata.
type Commit struct {
	Hash        string
	Abbrev      string // git's unique abbreviation of Hash (StreamLog with Abbrev)
	Parents     []string
	Author      string // "Name <email>"
	AuthorName  string
	AuthorEmail string
	AuthorTime  time.Time // in the author's own time zone
	CommitTime  time.Time
	Subject     string   // the first paragraph on one line, as git's %s
	Body        string   // the message after the subject paragraph
	Branch      string   // HEAD's branch when the commit is its tip (ReadCommit only)
	Refs        []string // decorations, as git's %D prints them (StreamLog with Decorate)
	Decoration  string   // decorations as git's %d prints them, colored (StreamLog with ColorDecorate)
	Files       []string // changed paths against the first parent, sorted (ReadCommit; StreamLog with Files)
	Notes       string   // the notes of LogOptions.Notes' refs, as git's %N prints them (StreamLog)
	NotesOver   bool     // Notes were longer than LogOptions.MaxNotes: read past, left out
	Mark        string   // git's %m (StreamLog with Mark)
	Source      string   // git's %S, the ref --source names (StreamLog with Source)
}

// IsMerge reports a commit with more than one parent.
func (c *Commit) IsMerge() bool { return len(c.Parents) > 1 }

// ReadCommit reads one commit and the paths it changes against its first
// parent (every path for a root commit; a rename lists both names), with
// go-git where it can (no subprocess) and the git CLI otherwise: SHA-256
// repositories, revisions other than HEAD or a full hash, objects go-git
// cannot reach (shallow or partial clones).
func (r *Repo) ReadCommit(ctx context.Context, rev string) (*Commit, error) {
	if !r.CLIOnly && (r.ObjectFormat == "sha1" || r.ObjectFormat == "") {
		if c, err := r.readCommitGoGit(rev); err == nil {
			return c, nil
		}
	}
	return r.readCommitCLI(ctx, rev)
}

// gitSpace is what git's isspace takes for white space (not \v, \f or
// Unicode's spaces).
const gitSpace = " \t\n\r"

// splitMessage splits a commit message as git's %s and %b do: the subject is
// the first paragraph with its lines joined by spaces, the body what follows
// the blank lines after it.
func splitMessage(msg string) (subject, body string) {
	rest := msg
	var parts []string
	// Leading blank lines are no paragraph.
	for rest != "" {
		line, after, _ := strings.Cut(rest, "\n")
		if strings.TrimRight(line, gitSpace) != "" {
			break
		}
		rest = after
	}
	for rest != "" {
		line, after, _ := strings.Cut(rest, "\n")
		if strings.TrimRight(line, gitSpace) == "" {
			break
		}
		parts = append(parts, strings.TrimRight(line, " \t\r"))
		rest = after
	}
	for rest != "" {
		line, after, _ := strings.Cut(rest, "\n")
		if strings.TrimRight(line, gitSpace) != "" {
			break
		}
		rest = after
	}
	return strings.Join(parts, " "), strings.TrimRight(rest, "\n")
}
