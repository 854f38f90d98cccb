// Package spool keeps hook payloads that could not be written to links.sqlite
// (locked for too long, read-only, corrupt, disk full) in files, so nothing a
// hook received is lost; the next hook that can write replays them in order.
package spool

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/git-convo/git-convo/pkg/atomicfile"
)

// Dir is the spool directory beside the links database.
func Dir(dbPath string) string { return filepath.Join(filepath.Dir(dbPath), "spool") }

// Put stores one entry atomically (0600: payloads can hold prompts).
func Put(dir string, data []byte, now time.Time) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	name := fmt.Sprintf("%020d-%d.json", now.UnixNano(), os.Getpid())
	return atomicfile.Write(filepath.Join(dir, name), data, 0o600)
}

// Pending lists the entries waiting, oldest first.
func Pending(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") && !strings.HasPrefix(e.Name(), ".") {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(out)
	return out, nil
}

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

// Drain replays up to max entries, oldest first, removing each once apply
// succeeded. When apply fails with an error transient reports (the database
// busy, locked, read-only, full), the entry stays and the drain stops, to
// resume next time; any other failure sets the entry aside and the drain
// goes on, so one entry can never block the others for ever. An entry
// another process is draining at the same time is replayed once: the
// rename claims it.
func Drain(dir string, max int, apply func(data []byte) error, transient func(error) bool) (Result, error) {
	var res Result
	files, err := Pending(dir)
	if err != nil {
		return res, err
	}
	for _, f := range files {
		if res.Replayed+len(res.SetAside) >= max {
			break
		}
		claimed := f + ".claimed"
		if err := os.Rename(f, claimed); err != nil {
			continue // another process took it
		}
		data, err := os.ReadFile(claimed)
		if err == nil {
			err = apply(data)
		}
		switch {
		case err == nil:
			os.Remove(claimed)
			res.Replayed++
		case transient(err):
			os.Rename(claimed, f) // put it back for next time
			return res, err
		default:
			if serr := setAside(dir, claimed, filepath.Base(f)); serr != nil {
				os.Rename(claimed, f)
				return res, fmt.Errorf("%v, and setting it aside failed: %v", err, serr)
			}
			res.SetAside = append(res.SetAside, fmt.Sprintf("%s (%v)", filepath.Base(f), err))
		}
	}
	return res, nil
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
// must not wait in the spool).
func Remove(dir string, match func(data []byte) bool) (int, error) {
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
			if data, err := os.ReadFile(p); err == nil && match(data) {
				if err := os.Remove(p); err != nil {
					return n, err
				}
				n++
			}
		}
	}
	return n, nil
}
