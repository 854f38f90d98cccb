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

// Drain replays up to max entries, oldest first, removing each once apply
// succeeded. It stops at the first failure (the entry stays for next time)
// and reports how many it replayed. An entry another process is draining at
// the same time is replayed once: the rename claims it.
func Drain(dir string, max int, apply func(data []byte) error) (int, error) {
	files, err := Pending(dir)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, f := range files {
		if n >= max {
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
		if err != nil {
			os.Rename(claimed, f) // put it back for next time
			return n, err
		}
		os.Remove(claimed)
		n++
	}
	return n, nil
}
