package hookrun

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/attribution/position"
)

// A tool that names the files it writes but not the text (VS Code's
// editFiles) gives its lines by a diff: capture keeps each file's content at
// the tool's PreToolUse (Activity.Before) and diffs it at its PostToolUse
// (Activity.After), or at the turn's end when the tool wrote it after its
// PostToolUse (diffLate). The kept copies live beside links.sqlite, one
// file per conversation, tool call and path, and go once diffed or after a
// day.

const (
	// maxBeforeBytes bounds a kept file: a larger one gives no lines (as
	// for locating any edit), and the hook stays fast.
	maxBeforeBytes = 4 << 20
	// maxBeforeFiles bounds the files one tool call keeps.
	maxBeforeFiles = 64
	// beforeTTL is how long a copy whose PostToolUse never came is kept.
	beforeTTL = 24 * time.Hour
	// absentMark starts the copy of a file that did not exist: all its
	// lines are the tool's.
	absentMark = "\x00absent\n"
)

// beforeDir is where the copies are kept; "" when the database has no path.
func (o Options) beforeDir() string {
	if o.DBPath == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(o.DBPath), "before")
}

// beforeKey names the copy of one file of one tool call.
func beforeKey(a source.Activity, path string) string {
	h := sha256.Sum256([]byte(a.ConversationID + "\x00" + a.ToolCall + "\x00" + path))
	return hex.EncodeToString(h[:16])
}

// absPath is a payload's path, absolute from the event's first root.
func absPath(a source.Activity, p string) string {
	if !filepath.IsAbs(p) && len(a.Roots) > 0 {
		return filepath.Join(a.Roots[0], p)
	}
	return p
}

// keepBefore keeps the content of the files the tool is about to write.
// Failures only lose the diff's lines: the edit is still recorded.
func (o Options) keepBefore(a source.Activity) {
	dir := o.beforeDir()
	if dir == "" || len(a.Before) == 0 {
		return
	}
	if os.MkdirAll(dir, 0o700) != nil {
		return
	}
	o.pruneBefore(dir)
	for i, f := range a.Before {
		if i == maxBeforeFiles {
			break
		}
		p := absPath(a, f)
		content := absentMark
		if fi, err := os.Stat(p); err == nil {
			if !fi.Mode().IsRegular() || fi.Size() > maxBeforeBytes {
				continue
			}
			b, err := os.ReadFile(p)
			if err != nil {
				continue
			}
			content = string(b)
		}
		_ = os.WriteFile(filepath.Join(dir, beforeKey(a, p)), []byte(content), 0o600)
	}
}

// diffAfter turns the files the tool wrote into whole-file writes against
// their kept content: the lines the tool inserted are the written lines,
// and the rest of the file is not the tool's. A file with no kept copy keeps
// whatever its payload gave; one the tool has not changed yet (the event
// came before the write: VS Code's apply_patch) keeps its copy, marked for
// a later PostToolUse or the turn's end (diffLate).
func (o Options) diffAfter(a source.Activity) source.Activity {
	dir := o.beforeDir()
	if dir == "" || len(a.After) == 0 {
		return a
	}
	for _, f := range a.After {
		p := absPath(a, f)
		key := beforeKey(a, p)
		kept := filepath.Join(dir, key)
		before, err := os.ReadFile(kept)
		if err != nil {
			continue
		}
		now, state := readAfter(p, string(before))
		switch state {
		case afterGone:
			os.Remove(kept)
		case afterUnwritten:
			o.markLate(dir, a.ConversationID, key, p, a.Added[f])
		case afterWritten:
			os.Remove(kept)
			os.Remove(filepath.Join(dir, lateName(a.ConversationID, key)))
			// The diff supersedes what the payload said of the file.
			delete(a.Writes, f)
			delete(a.Added, f)
			a = withDiff(a, f, strings.TrimPrefix(string(before), absentMark), now, nil)
		}
	}
	return a
}

// The state of a kept file when its tool's event comes.
const (
	afterGone      = iota // no longer a regular file within the size cap: nothing to diff
	afterUnwritten        // as it was kept: the tool has not written it (yet)
	afterWritten          // changed: diff it
	afterUnread           // could not be read now: try again later
)

// readAfter reads the file at p and says how it stands against before, its
// kept copy.
func readAfter(p, before string) (string, int) {
	absent := strings.HasPrefix(before, absentMark)
	fi, err := os.Stat(p)
	if err != nil {
		if absent && os.IsNotExist(err) {
			return "", afterUnwritten // a file the tool creates, not there yet
		}
		return "", afterGone
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxBeforeBytes {
		return "", afterGone
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return "", afterUnread
	}
	if !absent && string(b) == before {
		return "", afterUnwritten
	}
	return string(b), afterWritten
}

// withDiff records the change of file f from old to now as the tool's
// write, with the inserted lines as its text. With said (the text the
// tool's payload says it wrote), only inserted lines that it says are kept,
// as the patch's own lines: a change by someone else to the file since the
// tool's event, or a formatter's, is not the tool's.
func withDiff(a source.Activity, f, old, now string, said []string) source.Activity {
	lines := position.SplitFile(now)
	ins := position.Inserted(position.HashLines(position.SplitFile(old)), position.HashLines(lines))
	w := position.Write{Whole: true, Old: old, New: now}
	if said != nil {
		ins, w = saidLines(lines, ins, said)
		if len(ins) == 0 {
			return a
		}
	}
	if a.Writes == nil {
		a.Writes = map[string][]position.Write{}
	}
	a.Writes[f] = append(a.Writes[f], w)
	if len(ins) > 0 {
		var text []string
		for _, n := range ins {
			text = append(text, lines[n-1])
		}
		if a.Added == nil {
			a.Added = map[string][]string{}
		}
		a.Added[f] = append(a.Added[f], strings.Join(text, "\n"))
	}
	if !contains(a.Files, f) {
		a.Files = append(a.Files, f)
	}
	return a
}

// saidLines keeps the inserted lines (1-based, of lines) whose text, white
// space aside, is among the lines of said, and the write that names them.
func saidLines(lines []string, ins []int, said []string) ([]int, position.Write) {
	squash := func(s string) string { return strings.Join(strings.Fields(s), "") }
	ok := map[string]bool{}
	for _, t := range said {
		for _, l := range strings.Split(t, "\n") {
			ok[squash(l)] = true
		}
	}
	var keep []int
	var w position.Write
	for _, n := range ins {
		if ok[squash(lines[n-1])] {
			keep = append(keep, n)
			w.Lines = append(w.Lines, position.PatchLine{N: n, Text: lines[n-1]})
		}
	}
	return keep, w
}

// maxLateFiles bounds the kept copies one turn's end diffs: the Stop hook
// stays fast (each is at most maxBeforeBytes); the others are dropped.
const maxLateFiles = 16

// latePrefix starts the marks of one conversation's copies whose tool had
// not written the file at its PostToolUse.
func latePrefix(conv string) string {
	h := sha256.Sum256([]byte(conv))
	return "late-" + hex.EncodeToString(h[:8]) + "-"
}

func lateName(conv, key string) string { return latePrefix(conv) + key }

// markLate notes that the copy key of the file at p waits for the turn's
// end. The mark holds the file's path and, after a NUL, the text the
// tool's payload says it wrote there, if any (within maxBeforeBytes).
func (o Options) markLate(dir, conv, key, p string, said []string) {
	mark := p
	if text := strings.Join(said, "\n"); len(said) > 0 && len(text) <= maxBeforeBytes {
		mark += "\x00" + text
	}
	_ = os.WriteFile(filepath.Join(dir, lateName(conv, key)), []byte(mark), 0o600)
}

// diffLate, at a turn's end, diffs the kept copies of the conversation's
// files that their tool had not written at its PostToolUse (VS Code's
// apply_patch reports before it writes): a file changed since then gives
// the tool's lines by position, as diffAfter would have; one still as kept
// was not written. At most maxLateFiles are diffed, each within
// maxBeforeBytes; every copy marked goes, and anything unreadable only
// loses those lines.
func (o Options) diffLate(a source.Activity) source.Activity {
	dir := o.beforeDir()
	if dir == "" || !a.EndsTurn {
		return a
	}
	marks, err := filepath.Glob(filepath.Join(dir, latePrefix(a.ConversationID)+"*"))
	if err != nil || len(marks) == 0 {
		return a
	}
	sort.Strings(marks)
	for i, mark := range marks {
		// Every mark goes now, diffed or not: at a later turn's end the
		// file may hold a person's changes made between the turns.
		kept := filepath.Join(dir, strings.TrimPrefix(filepath.Base(mark), latePrefix(a.ConversationID)))
		var m, before []byte
		var err1, err2 error
		if i < maxLateFiles {
			m, err1 = os.ReadFile(mark)
			before, err2 = os.ReadFile(kept)
		}
		os.Remove(mark)
		os.Remove(kept)
		p, text, hasText := strings.Cut(string(m), "\x00")
		if i >= maxLateFiles || err1 != nil || err2 != nil || !filepath.IsAbs(p) {
			continue
		}
		now, state := readAfter(p, string(before))
		if state == afterWritten {
			var said []string
			if hasText {
				said = []string{text}
			}
			a = withDiff(a, p, strings.TrimPrefix(string(before), absentMark), now, said)
			a.ToolEdit = a.ToolEdit || contains(a.Files, p)
		}
	}
	return a
}

// pruneBefore removes copies older than beforeTTL (a PostToolUse that
// never came).
func (o Options) pruneBefore(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	cutoff := o.Now().Add(-beforeTTL)
	for _, e := range entries {
		if fi, err := e.Info(); err == nil && fi.ModTime().Before(cutoff) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
