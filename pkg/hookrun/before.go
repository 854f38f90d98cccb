package hookrun

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/git-convo/git-convo/pkg/position"
	"github.com/git-convo/git-convo/pkg/source"
)

// A tool that names the files it writes but not the text (VS Code's
// editFiles) gives its lines by a diff: capture keeps each file's content at
// the tool's PreToolUse (Activity.Before) and diffs it at its PostToolUse
// (Activity.After). The kept copies live beside links.sqlite, one file per
// conversation, tool call and path, and go once diffed or after a day.

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
// came before the write) keeps its copy for a later PostToolUse.
func (o Options) diffAfter(a source.Activity) source.Activity {
	dir := o.beforeDir()
	if dir == "" || len(a.After) == 0 {
		return a
	}
	for _, f := range a.After {
		p := absPath(a, f)
		kept := filepath.Join(dir, beforeKey(a, p))
		before, err := os.ReadFile(kept)
		if err != nil {
			continue
		}
		fi, err := os.Stat(p)
		if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxBeforeBytes {
			os.Remove(kept)
			continue
		}
		now, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		old := strings.TrimPrefix(string(before), absentMark)
		if old == string(now) && !strings.HasPrefix(string(before), absentMark) {
			continue // not written yet
		}
		os.Remove(kept)
		ins := position.Inserted(position.HashLines(position.SplitFile(old)), position.HashLines(position.SplitFile(string(now))))
		if a.Writes == nil {
			a.Writes = map[string][]position.Write{}
		}
		a.Writes[f] = []position.Write{{Whole: true, Old: old, New: string(now)}}
		if len(ins) > 0 {
			lines := position.SplitFile(string(now))
			var text []string
			for _, n := range ins {
				text = append(text, lines[n-1])
			}
			if a.Added == nil {
				a.Added = map[string][]string{}
			}
			a.Added[f] = []string{strings.Join(text, "\n")}
		}
		if !contains(a.Files, f) {
			a.Files = append(a.Files, f)
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
