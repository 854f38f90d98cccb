package prsummary

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/share/notes"
	"github.com/git-convo/git-convo/pkg/store"
)

// Transcript reads a conversation the local database knows from its own
// agent (its edits, each with the words before it): the registry's
// Conversation, through the front end that holds the environment.
type Transcript func(ctx context.Context, conv store.Conversation) (*source.Conversation, error)

// MaxTranscripts and MaxTranscriptBytes bound the conversations whose
// transcripts one summary reads for the words before the edits, and the
// bytes of those whose file the database names: each is read once, when a
// hunk first needs it. The rest are counted (Summary.WordsUnread), not
// read: a range of many long sessions stays as fast as its git work.
const (
	MaxTranscripts     = 24
	MaxTranscriptBytes = 64 << 20
)

// WordsNote says, when some transcripts were not read, for how many
// conversations the reports show no words because of the bounds ("" when
// none).
func (s *Summary) WordsNote() string {
	if s.WordsUnread == 0 {
		return ""
	}
	return fmt.Sprintf("The agent's words before the edits were not looked up for %d conversation%s: one report reads at most %d transcripts, %d MiB.",
		s.WordsUnread, plural(s.WordsUnread), MaxTranscripts, MaxTranscriptBytes>>20)
}

// edited is one edit of a transcript, as the words lookup matches it: its
// path (as the agent named it, made absolute against the conversation's
// working directory when it can be), its time and words.
type edited struct {
	path  string
	at    time.Time
	words string
}

// byText is a transcript's edits by the lines they added (trimmed,
// non-blank): a line's candidates are one lookup, however many edits the
// conversation made.
type byText map[string][]edited

// wordsOf finds the transcripts' words for the lines one conversation wrote
// in one hunk.
type wordsOf struct {
	read   Transcript
	edits  map[string]byText // per conversation id; nil entry: no transcript
	unread map[string]bool   // conversations past the bounds
	bytes  int64             // of the transcripts read
}

// line is an added line a conversation wrote: its text, the commit that
// added it, its path there.
type line struct {
	text, commit, path string
}

// words are the agent's words before the edit that wrote most of lines,
// each line matched to the transcript's edits of its file whose added
// lines hold its text: when several did, the last one made before the
// line's commit (at), none when their times cannot say. "" when the
// conversation is not local (a teammate's, from the notes: its transcript
// is not here), its transcript cannot be read, or no line is matched.
func (w *wordsOf) words(ctx context.Context, lc store.LinkedConversation, lines []line, at func(commit string) time.Time) string {
	if w.read == nil || notes.Origin(lc.Source) != "local" || lc.Conv.Agent == "" {
		return ""
	}
	id := lc.ConversationID
	eds, seen := w.edits[id]
	if !seen {
		if w.unread[id] {
			return ""
		}
		var size int64
		if p := lc.Conv.TranscriptPath; p != "" {
			if fi, err := os.Stat(p); err == nil {
				size = fi.Size()
			}
		}
		if len(w.edits) >= MaxTranscripts || w.bytes+size > MaxTranscriptBytes {
			w.unread[id] = true
			return ""
		}
		w.bytes += size
		eds = readEdits(ctx, w.read, lc.Conv)
		w.edits[id] = eds
	}
	if len(eds) == 0 {
		return ""
	}
	votes := map[string]int{}
	var order []string
	for _, l := range lines {
		words, ok := lineWords(eds, l, at(l.commit))
		if !ok {
			continue
		}
		if votes[words] == 0 {
			order = append(order, words)
		}
		votes[words]++
	}
	best, n := "", 0
	for _, words := range order { // a tie: the first line's
		if votes[words] > n {
			best, n = words, votes[words]
		}
	}
	return best
}

// lineWords are the words before the edit that wrote l (ok false: no edit
// matched, or the matches disagree and their times cannot order them).
func lineWords(eds byText, l line, commitAt time.Time) (string, bool) {
	var cands []edited
	for _, e := range eds[strings.TrimSpace(l.text)] {
		if samePath(e.path, l.path) && (e.at.IsZero() || commitAt.IsZero() || !e.at.After(commitAt.Add(time.Second))) {
			cands = append(cands, e)
		}
	}
	if len(cands) == 0 {
		return "", false
	}
	same := true
	for _, c := range cands[1:] {
		same = same && c.words == cands[0].words
	}
	if same {
		return cands[0].words, true
	}
	// Several edits wrote this text with different words: the last one
	// before the commit is the one whose line the commit holds.
	var last edited
	tie := false
	for _, c := range cands {
		if c.at.IsZero() || commitAt.IsZero() {
			return "", false
		}
		switch {
		case last.at.IsZero() || c.at.After(last.at):
			last, tie = c, false
		case c.at.Equal(last.at) && c.words != last.words:
			tie = true
		}
	}
	if tie {
		return "", false
	}
	return last.words, true
}

// samePath: the transcript's path p (absolute, or as the agent named it)
// is the repository's path rel: equal, or ending in "/"+rel (the agent
// worked in another checkout of the repository, or named it absolute).
func samePath(p, rel string) bool {
	return p == rel || strings.HasSuffix(p, "/"+rel)
}

// readEdits reads a conversation's edits, and those read for their words
// alone (WordEdits: Cursor's), nil when its transcript cannot be read: no
// words, rather than a guess.
func readEdits(ctx context.Context, read Transcript, conv store.Conversation) byText {
	c, err := read(ctx, conv)
	if err != nil || c == nil {
		return nil
	}
	out := byText{}
	eds := make([]source.Edit, 0, len(c.Edits)+len(c.WordEdits))
	for _, e := range append(append(eds, c.Edits...), c.WordEdits...) {
		if e.Added == "" || e.LinesOnly {
			continue
		}
		p := e.Path
		if !filepath.IsAbs(p) && c.Cwd != "" {
			p = filepath.Join(c.Cwd, p)
		}
		ed := edited{path: filepath.ToSlash(filepath.Clean(p)), at: e.At, words: e.Words}
		seen := map[string]bool{}
		for _, l := range strings.Split(e.Added, "\n") {
			if t := strings.TrimSpace(l); t != "" && !seen[t] {
				seen[t] = true
				out[t] = append(out[t], ed)
			}
		}
	}
	return out
}
