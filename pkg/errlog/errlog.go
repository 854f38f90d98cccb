// Package errlog is git-convo's error log: hooks must never print to the
// user's terminal mid-commit or fail a Cursor action, so what goes wrong there
// is appended here, and `git convo doctor` shows it.
package errlog

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// MaxSize is the size past which the log is rotated to <name>.1, so a hook
// failing on every edit cannot fill the disk.
const MaxSize = 1 << 20

// Log appends to one log file. The zero value discards everything.
type Log struct {
	Path string
	Now  func() time.Time
}

// PathBeside returns the log's path next to the links database.
func PathBeside(dbPath string) string {
	return filepath.Join(filepath.Dir(dbPath), "git-convo.log")
}

// Printf appends one line: time, component, message. It never fails loudly:
// a log that cannot be written must not break the hook that is logging.
// Callers must not pass prompt or message text (privacy).
func (l Log) Printf(component, format string, args ...any) {
	if l.Path == "" {
		return
	}
	now := time.Now
	if l.Now != nil {
		now = l.Now
	}
	msg := strings.ReplaceAll(fmt.Sprintf(format, args...), "\n", " ")
	line := fmt.Sprintf("%s %s[%d]: %s\n", now().UTC().Format(time.RFC3339), component, os.Getpid(), msg)
	_ = os.MkdirAll(filepath.Dir(l.Path), 0o700)
	if fi, err := os.Stat(l.Path); err == nil && fi.Size() > MaxSize {
		_ = os.Rename(l.Path, l.Path+".1")
	}
	f, err := os.OpenFile(l.Path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	_, _ = f.WriteString(line)
}

// Entry is one parsed log line.
type Entry struct {
	Time      time.Time
	Component string
	Message   string
	Raw       string
}

// Tail returns up to n of the most recent entries (oldest first).
func Tail(path string, n int) ([]Entry, error) {
	f, err := os.Open(path)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, err
	}
	defer f.Close()
	var ring []Entry
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		ring = append(ring, parse(sc.Text()))
		if len(ring) > n {
			ring = ring[1:]
		}
	}
	return ring, sc.Err()
}

func parse(line string) Entry {
	e := Entry{Raw: line, Message: line}
	ts, rest, ok := strings.Cut(line, " ")
	if !ok {
		return e
	}
	t, err := time.Parse(time.RFC3339, ts)
	if err != nil {
		return e
	}
	comp, msg, ok := strings.Cut(rest, ": ")
	if !ok {
		return e
	}
	if i := strings.IndexByte(comp, '['); i >= 0 {
		comp = comp[:i]
	}
	e.Time, e.Component, e.Message = t, comp, msg
	return e
}
