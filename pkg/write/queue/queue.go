// Package queue is the commit queue: git's post-commit and post-merge hooks
// append one record to it with shell builtins (no process starts), and the
// next git-convo process drains it. A record only says "this work tree made
// a commit"; which commits, and on which branch, the drain reads from the
// work tree's reflogs, so a record lost, doubled or replayed changes nothing
// that matters: recording a commit twice stores it once.
package queue

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/git-convo/git-convo/pkg/util/filelock"
	"github.com/git-convo/git-convo/pkg/util/regfile"
)

// FileName is the queue file the hook blocks append to, in Dir.
const FileName = "commits"

// magic starts every record, so a torn or foreign line is skipped.
const magic = "gcq1"

// MaxFile bounds one queue file a drain reads: a record is a few hundred
// bytes, so this is tens of thousands of commits. A larger file is no queue
// the hooks wrote; it is refused like a FIFO or a link, and the commits
// behind it are found again in the reflog (see ingest's RecordNew).
const MaxFile = 16 << 20

// ErrRefused: a drain found queue entries that are not regular files (a
// FIFO, a device, a link) or are too large, and removed them unread.
var ErrRefused = errors.New("queue entries that are not regular files or are too large were removed unread")

// lateWriteGrace is how long a claimed file stays after a drain read it: a
// hook that opened the queue just before it was claimed may still append.
const lateWriteGrace = 2 * time.Second

// Dir is the queue directory beside the links database.
func Dir(dbPath string) string { return filepath.Join(filepath.Dir(dbPath), "queue") }

// Path is the queue file the hooks append to.
func Path(dbPath string) string { return filepath.Join(Dir(dbPath), FileName) }

// Record is one hook's note: the directory it ran in and the GIT_DIR and
// GIT_WORK_TREE it saw (empty when unset; GIT_DIR may be relative to Dir).
type Record struct {
	Hook     string
	Dir      string
	GitDir   string
	WorkTree string
}

// Key identifies the work tree a record is about.
func (r Record) Key() string { return r.Dir + "\x00" + r.GitDir + "\x00" + r.WorkTree }

// Format is a record as the hook blocks write it: NUL-separated fields (a
// path holds anything but NUL), ended by NUL and a newline.
func Format(r Record) []byte {
	return []byte(magic + "\x00" + r.Hook + "\x00" + r.Dir + "\x00" + r.GitDir + "\x00" + r.WorkTree + "\x00\n")
}

// Parse reads the records in data, skipping what it cannot read: a record
// torn by a full disk, or anything else between records. A record is its
// magic and four fields, each ended by NUL, then a newline; a field may hold
// a newline.
func Parse(data []byte) []Record {
	recs, _ := parse(data)
	return recs
}

// parse is Parse that also says where the last whole record ends: a record
// being written while it is read is read again whole next time.
func parse(data []byte) ([]Record, int) {
	var out []Record
	start := []byte(magic + "\x00")
	pos, end := 0, 0
	for {
		i := bytes.Index(data[pos:], start)
		if i < 0 {
			return out, end
		}
		i += pos
		rest := data[i+len(start):]
		var f [4]string
		ok := true
		for k := range f {
			nul := bytes.IndexByte(rest, 0)
			if nul < 0 {
				ok = false
				break
			}
			f[k], rest = string(rest[:nul]), rest[nul+1:]
		}
		if ok && len(rest) > 0 && rest[0] == '\n' && validHook(f[0]) && absolute(f[1]) {
			pos = len(data) - len(rest) + 1
			end = pos
			out = append(out, Record{Hook: f[0], Dir: f[1], GitDir: f[2], WorkTree: f[3]})
			continue
		}
		pos = i + 1 // torn: look for the next record
	}
}

// validHook reports a hook name as the blocks write it ("post-commit"): with
// paths free to hold newlines, a torn record's fields can swallow the next
// record's magic, and checking the two fields with a known shape lets the
// parser step past such a frame to the real record.
func validHook(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if (c < 'a' || c > 'z') && c != '-' {
			return false
		}
	}
	return true
}

// absolute reports a directory as $PWD spells it: "/..." (Git for Windows'
// sh too: "/c/...").
func absolute(dir string) bool { return strings.HasPrefix(dir, "/") }

// Append adds a record as a hook block does (tests, and hooks of a shell
// that cannot run the block).
func Append(dir string, r Record) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(dir, FileName), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(Format(r))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Pending reports whether anything waits in dir: a stat and a directory
// read on the path every command takes, so a command with nothing to drain
// pays nearly nothing (about 10 µs, BenchmarkPendingEmpty; a read command
// takes 10 ms). The directory read is needed: a killed drain's claimed file
// and a late hook's append after a claim (an .applied-N file) are records
// the queue file's stat cannot see, and the directory's own times cannot
// tell them from drained files without a second look.
func Pending(dir string) bool {
	// Lstat: a FIFO or a link put where the queue goes is pending too, so
	// a drain clears it (the hook blocks append to regular files only).
	if fi, err := os.Lstat(filepath.Join(dir, FileName)); err == nil && (fi.Size() > 0 || !fi.Mode().IsRegular()) {
		return true
	}
	held, _ := filepath.Glob(filepath.Join(dir, FileName+".*"))
	for _, f := range held {
		if strings.HasSuffix(f, ".claimed") || appliedBytes(f) >= 0 {
			return true
		}
	}
	return false
}

// appliedBytes is N for a file named "<claim>.applied-N": its first N bytes
// were applied. -1 for any other name.
func appliedBytes(name string) int {
	_, n, ok := strings.Cut(filepath.Base(name), ".applied-")
	if !ok {
		return -1
	}
	v, err := strconv.Atoi(n)
	if err != nil || v < 0 {
		return -1
	}
	return v
}

// Waiting counts the records not applied yet (for doctor and tests).
func Waiting(dir string) int {
	n := 0
	held, _ := filepath.Glob(filepath.Join(dir, FileName+"*"))
	for _, f := range held {
		from := appliedBytes(f)
		if from < 0 && f != filepath.Join(dir, FileName) && !strings.HasSuffix(f, ".claimed") {
			continue
		}
		data, err := regfile.Read(f, MaxFile)
		if err != nil {
			continue
		}
		recs, _ := parse(data[min(max(from, 0), len(data)):])
		n += len(recs)
	}
	return n
}

// Drain hands every queued record to apply, oldest first, and removes them
// once apply succeeded. Drains are serialised by a lock (a second drain waits
// up to wait for the first, so a read command answers with its commits
// recorded). The queue is claimed by renaming it, so hooks go on appending
// to a new file; a claimed file whose drain was killed is taken by the next
// drain; a failed apply leaves it for the next drain. A claimed file written
// to a moment ago is kept, named with how much of it was applied, for a hook
// that opened the queue just before the rename and appends after it; it goes
// once it is older than lateWriteGrace. apply must be idempotent (a record
// may be applied again after a drain was killed), and no record is lost. It
// returns how many records were applied.
func Drain(dir string, wait time.Duration, apply func([]Record) error) (int, error) {
	if !Pending(dir) {
		return 0, nil
	}
	unlock, err := filelock.Lock(filepath.Join(dir, ".lock"), wait)
	if errors.Is(err, filelock.ErrBusy) {
		return 0, ErrBusy
	}
	if err != nil {
		return 0, err
	}
	defer unlock()
	q := filepath.Join(dir, FileName)
	if fi, err := os.Lstat(q); err == nil && (fi.Size() > 0 || !fi.Mode().IsRegular()) {
		name := fmt.Sprintf("%s.%020d-%d.claimed", q, time.Now().UnixNano(), os.Getpid())
		if err := os.Rename(q, name); err != nil && !os.IsNotExist(err) {
			return 0, err
		}
	}
	held, err := filepath.Glob(q + ".*")
	if err != nil {
		return 0, err
	}
	sort.Strings(held) // oldest first: the names start with the claim time
	type file struct {
		path string
		base string // the name without its applied count
		end  int    // bytes applied once apply succeeds
	}
	var files []file
	var recs []Record
	refused := false
	for _, f := range held {
		from := appliedBytes(f)
		base := f
		switch {
		case from >= 0:
			base = f[:strings.LastIndex(f, ".applied-")]
		case strings.HasSuffix(f, ".claimed"):
			from = 0
		default:
			continue // the lock file, or anything else
		}
		data, err := regfile.Read(f, MaxFile)
		if regfile.Refused(err) {
			// No file the hooks wrote: a FIFO would block every drain,
			// a link to /dev/zero would never end. The link goes, not
			// what it names.
			os.Remove(f)
			refused = true
			continue
		}
		if err != nil {
			return 0, err
		}
		from = min(from, len(data))
		got, end := parse(data[from:])
		recs = append(recs, got...)
		files = append(files, file{path: f, base: base, end: from + end})
	}
	if len(recs) > 0 {
		if err := apply(recs); err != nil {
			return 0, err
		}
	}
	for _, f := range files {
		if fi, err := os.Stat(f.path); err == nil && time.Since(fi.ModTime()) < lateWriteGrace {
			if next := fmt.Sprintf("%s.applied-%d", f.base, f.end); next != f.path {
				os.Rename(f.path, next)
			}
			continue
		}
		os.Remove(f.path)
	}
	if refused {
		return len(recs), ErrRefused
	}
	return len(recs), nil
}

// ErrBusy: another drain held the lock longer than the caller would wait;
// the records stay queued for it or the next one.
var ErrBusy = errors.New("another git-convo process is recording the queued commits")
