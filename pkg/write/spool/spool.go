// Package spool keeps hook payloads in files until links.sqlite takes them:
// an agent's edit event, which the capture writes here so the agent's hook
// never opens SQLite, and any hook's work the database could not take
// (locked for too long, read-only, corrupt, disk full), so nothing a hook
// received is lost. The next git-convo process that records or reads
// replays them in order. The directory exists only while entries wait (a
// drain that empties it removes it), so a reader checks for work with one
// stat.
package spool

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/git-convo/git-convo/pkg/util/atomicfile"
	"github.com/git-convo/git-convo/pkg/util/filelock"
	"github.com/git-convo/git-convo/pkg/util/regfile"
)

// MaxEntry bounds one entry a drain reads: a hook payload (at most 64 MiB,
// see hookrun) and its envelope. A larger entry, or one that is not a
// regular file (a FIFO, a device, a link), is set aside unread.
const MaxEntry = 72 << 20

// Dir is the spool directory beside the links database.
func Dir(dbPath string) string { return filepath.Join(filepath.Dir(dbPath), "spool") }

// lockPath is the drains' lock, beside dir so that an empty spool
// directory can go.
func lockPath(dir string) string { return dir + ".lock" }

// Put stores one entry atomically (0600: payloads can hold prompts). Its
// name sorts by now, the time the entry stands for, then by when it was
// put; with the process id it is unique, so entries put at once, or under
// a fixed clock, never replace each other.
func Put(dir string, data []byte, now time.Time) error {
	name := fmt.Sprintf("%020d-%020d-%d.json", now.UnixNano(), time.Now().UnixNano(), os.Getpid())
	var err error
	// A drain that emptied the directory removes it: between our MkdirAll
	// and the write it may be gone, and is made again.
	for range 10 {
		if err = os.MkdirAll(dir, 0o700); err != nil {
			return err
		}
		if err = atomicfile.Write(filepath.Join(dir, name), data, 0o600); !os.IsNotExist(err) {
			return err
		}
	}
	return err
}

// Waiting reports whether entries wait to be replayed: one stat when none
// do (the directory is gone), a directory read when it is there.
func Waiting(dir string) bool {
	if _, err := os.Stat(dir); err != nil {
		return false
	}
	files, _ := held(dir)
	return len(files) > 0
}

// Pending lists the entries waiting, oldest first.
func Pending(dir string) ([]string, error) { return list(dir, false) }

// SetAsideDir holds the entries a replay failed on for a reason that will
// not go away by waiting (a commit amended away and collected, a payload
// that no longer parses): kept for `git convo doctor --replay-spool`, out of
// the way of the entries behind them.
func SetAsideDir(dir string) string { return filepath.Join(dir, "set-aside") }

// Result counts what one Drain did.
type Result struct {
	Replayed int
	SetAside []string // names of the entries set aside, each with why
}

// held lists the entries waiting, and those a drain claimed and was killed
// before it finished (by their unclaimed names), oldest first.
func held(dir string) ([]string, error) { return list(dir, true) }

func list(dir string, claimed bool) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		if claimed {
			name = strings.TrimSuffix(name, ".claimed")
		}
		if !e.IsDir() && strings.HasSuffix(name, ".json") && !strings.HasPrefix(name, ".") {
			out = append(out, filepath.Join(dir, name))
		}
	}
	sort.Strings(out)
	return out, nil
}

// Drain replays every entry, oldest first, removing each once apply
// succeeded, and removes the directory when it is left empty. Drains are
// serialised by a lock: a second drain waits up to wait for the first (a
// read command then answers with the entries recorded), and an entry a
// killed drain had claimed is replayed by the next. When apply fails with
// an error transient reports (the database busy, locked, read-only, full),
// the entry stays and the drain stops, to resume next time; any other
// failure sets the entry aside and the drain goes on, so one entry can
// never block the others for ever. apply must be idempotent: an entry whose
// drain was killed after apply is applied again.
func Drain(dir string, wait time.Duration, apply func(data []byte) error, transient func(error) bool) (Result, error) {
	return DrainBatches(dir, wait, nil, apply, transient)
}

// Batch bounds what DrainBatches hands applyAll at once: a turn's worth of
// edit events, and never more than a few payloads' bytes in memory.
const (
	batchEntries = 256
	batchBytes   = 16 << 20
)

// DrainBatches is Drain with the entries handed, in order and up to a
// bound at once, to applyAll, and removed together once it succeeded
// (nil applyAll: one by one). When a batch fails, its entries are applied
// one by one with apply, as Drain does, so a transient failure still stops
// the drain where it is and an entry that cannot be replayed is set aside
// alone; applyAll must therefore leave nothing that apply cannot repeat.
func DrainBatches(dir string, wait time.Duration, applyAll func(batch [][]byte) error, apply func(data []byte) error, transient func(error) bool) (Result, error) {
	var res Result
	if !Waiting(dir) {
		return res, nil
	}
	unlock, err := filelock.Lock(lockPath(dir), wait)
	if err != nil {
		return res, err
	}
	defer unlock()
	defer os.Remove(dir) // only when empty: set-aside entries keep it
	files, err := held(dir)
	if err != nil {
		return res, err
	}
	for len(files) > 0 {
		var batch []claimedEntry
		size := 0
		for len(files) > 0 && len(batch) < batchEntries && size < batchBytes {
			e, err := claim(files[0])
			if err != nil {
				return res, err
			}
			files = files[1:]
			if e.gone {
				continue // another process took it (where there is no lock)
			}
			batch = append(batch, e)
			size += len(e.data)
			if applyAll == nil {
				break
			}
		}
		if applyAll != nil && len(batch) > 1 {
			if err := applyBatch(batch, applyAll); err == nil {
				for _, e := range batch {
					os.Remove(e.claimed)
				}
				res.Replayed += len(batch)
				continue
			}
		}
		for i, e := range batch {
			if err := res.one(dir, e, apply, transient); err != nil {
				for _, rest := range batch[i+1:] {
					os.Rename(rest.claimed, rest.path) // put them back for next time
				}
				return res, err
			}
		}
	}
	return res, nil
}

// claimedEntry is an entry a drain renamed to its claimed name, and what
// reading it gave.
type claimedEntry struct {
	path, claimed string
	data          []byte
	readErr       error
	gone          bool
}

func claim(f string) (claimedEntry, error) {
	e := claimedEntry{path: f, claimed: f + ".claimed"}
	if err := os.Rename(f, e.claimed); err != nil && !os.IsNotExist(err) {
		return e, err
	}
	e.data, e.readErr = regfile.Read(e.claimed, MaxEntry)
	e.gone = os.IsNotExist(e.readErr)
	return e, nil
}

// applyBatch hands applyAll the batch's data, or fails at once when an
// entry could not be read (the one-by-one path sets it aside).
func applyBatch(batch []claimedEntry, applyAll func([][]byte) error) error {
	data := make([][]byte, len(batch))
	for i, e := range batch {
		if e.readErr != nil {
			return e.readErr
		}
		data[i] = e.data
	}
	return applyAll(data)
}

// one replays a claimed entry alone: removed once applied, put back on a
// transient failure (returned: the drain stops), set aside on any other.
func (res *Result) one(dir string, e claimedEntry, apply func([]byte) error, transient func(error) bool) error {
	err := e.readErr
	if err == nil {
		err = apply(e.data)
	}
	switch {
	case err == nil:
		os.Remove(e.claimed)
		res.Replayed++
	case transient(err):
		os.Rename(e.claimed, e.path) // put it back for next time
		return err
	default:
		if serr := setAside(dir, e.claimed, filepath.Base(e.path)); serr != nil {
			os.Rename(e.claimed, e.path)
			return fmt.Errorf("%v, and setting it aside failed: %v", err, serr)
		}
		res.SetAside = append(res.SetAside, fmt.Sprintf("%s (%v)", filepath.Base(e.path), err))
	}
	return nil
}

func setAside(dir, claimed, name string) error {
	aside := SetAsideDir(dir)
	if err := os.MkdirAll(aside, 0o700); err != nil {
		return err
	}
	return os.Rename(claimed, filepath.Join(aside, name))
}

// Replay moves the set-aside entries back into the spool, so the next drain
// tries them again (after the user fixed what they failed on).
func Replay(dir string) (int, error) {
	files, err := Pending(SetAsideDir(dir))
	n := 0
	for _, f := range files {
		if err := os.Rename(f, filepath.Join(dir, filepath.Base(f))); err != nil {
			return n, err
		}
		n++
	}
	return n, err
}

// Remove deletes every entry, pending, being replayed or set aside, for
// which match reports true (forget: a forgotten conversation's payloads
// must not wait in the spool). It waits up to wait for a drain, so that
// none is replaying an entry it removes.
func Remove(dir string, wait time.Duration, match func(data []byte) bool) (int, error) {
	if unlock, err := filelock.Lock(lockPath(dir), wait); err == nil {
		defer unlock()
	}
	n := 0
	for _, d := range []string{dir, SetAsideDir(dir)} {
		entries, err := os.ReadDir(d)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return n, err
		}
		for _, e := range entries {
			name := e.Name()
			if e.IsDir() || !(strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".json.claimed")) {
				continue
			}
			p := filepath.Join(d, name)
			if data, err := regfile.Read(p, MaxEntry); err == nil && match(data) {
				if err := os.Remove(p); err != nil {
					return n, err
				}
				n++
			}
		}
	}
	return n, nil
}
