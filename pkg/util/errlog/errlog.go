// Package errlog is git-convo's error log: hooks must never print to the
// user's terminal mid-commit or fail a Cursor action, so what goes wrong there
// is appended here, and `git convo doctor` shows it.
package errlog

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/git-convo/git-convo/pkg/util/atomicfile"
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
	if err := appendLine(l.Path, line); err != nil {
		// The log cannot be written (a full disk, most often): keep the
		// line in the preallocated record so doctor can say what was lost.
		writeRecord(l.Path, line)
		return
	}
	if prev := takeRecord(l.Path); prev != "" {
		_ = appendLine(l.Path, "(earlier, when the log could not be written) "+prev)
	}
	prepareRecord(l.Path)
}

func appendLine(path, line string) error {
	_ = os.MkdirAll(filepath.Dir(path), 0o700)
	if fi, err := os.Stat(path); err == nil && fi.Size() > MaxSize {
		_ = os.Rename(path, path+".1")
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	_, werr := f.WriteString(line)
	return errors.Join(werr, f.Close())
}

// The last-error record: a file of RecordSize bytes beside the log,
// allocated (written with zeros, not sparse) while the disk has room, then
// only ever overwritten in place. A write that does not grow a file needs no
// new blocks, so when the disk is full and the log cannot take a line, the
// record still can, and doctor can say that something was lost.
const RecordSize = 4096

// RecordPath is the last-error record's path for the log at logPath.
func RecordPath(logPath string) string { return logPath + ".last-error" }

// prepareRecord allocates the record if it is missing.
func prepareRecord(logPath string) {
	p := RecordPath(logPath)
	if _, err := os.Stat(p); err == nil {
		return
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	_, werr := f.Write(make([]byte, RecordSize))
	if errors.Join(werr, f.Sync(), f.Close()) != nil {
		os.Remove(p)
	}
}

// Prepare makes sure the log's directory and last-error record exist, so a
// later full disk can still be reported (install and doctor call it).
func Prepare(logPath string) {
	_ = os.MkdirAll(filepath.Dir(logPath), 0o700)
	prepareRecord(logPath)
}

// writeRecord overwrites the record with line, in place and at full size.
func writeRecord(logPath, line string) {
	f, err := os.OpenFile(RecordPath(logPath), os.O_WRONLY, 0)
	if err != nil {
		return
	}
	defer f.Close()
	buf := make([]byte, RecordSize)
	copy(buf[:RecordSize-1], line)
	_, _ = f.WriteAt(buf, 0)
}

// LastError returns the line kept in the record while the log could not be
// written ("" when none is waiting).
func LastError(logPath string) string {
	b, err := os.ReadFile(RecordPath(logPath))
	if err != nil {
		return ""
	}
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return strings.TrimSpace(string(b))
}

// Flush moves the record's line into the log when the log can take it again
// (doctor calls it after reporting the line), so it is reported once and
// then kept with the other errors.
func Flush(logPath string) {
	line := LastError(logPath)
	if line == "" {
		return
	}
	if appendLine(logPath, "(earlier, when the log could not be written) "+line+"\n") == nil {
		writeRecord(logPath, "")
	}
}

// takeRecord returns the record's line and clears it (once the log can be
// written again, the line moves into the log).
func takeRecord(logPath string) string {
	line := LastError(logPath)
	if line != "" {
		writeRecord(logPath, "")
	}
	return line
}

// Scrub removes from the log (and its rotated copy) every line holding
// needle: `forget` leaves no entry about a forgotten conversation.
func Scrub(logPath, needle string) error {
	if needle == "" {
		return nil
	}
	for _, p := range []string{logPath, logPath + ".1"} {
		b, err := os.ReadFile(p)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return err
		}
		if !bytes.Contains(b, []byte(needle)) {
			continue
		}
		var kept []byte
		for _, line := range bytes.SplitAfter(b, []byte("\n")) {
			if !bytes.Contains(line, []byte(needle)) {
				kept = append(kept, line...)
			}
		}
		if err := atomicfile.Write(p, kept, 0o600); err != nil {
			return err
		}
	}
	if strings.Contains(LastError(logPath), needle) {
		writeRecord(logPath, "")
	}
	return nil
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
