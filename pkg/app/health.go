package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/store/repokey"
)

// Finding is one line of doctor's report: what was checked, whether it is
// well (a warning is well, with something to look at), and the fix.
type Finding struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Warn   bool   `json:"warning,omitempty"`
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
	// At is the time Detail gives (RFC 3339) when it is one: the front end
	// may say it its own way.
	At time.Time `json:"-"`
}

// StoreHealth is what doctor finds of links.sqlite.
type StoreHealth struct {
	Findings []Finding
	// Writable: a hook's write would be recorded (or would create the
	// database): events waiting in the spool wait for nothing else.
	Writable bool
}

// StoreHealth opens links.sqlite as doctor does, never creating it: the
// database, its directory, whether it takes writes, and when a capture
// and a commit were last recorded.
func (a *App) StoreHealth(ctx context.Context) StoreHealth {
	var h StoreHealth
	add := func(f Finding) { h.Findings = append(h.Findings, f) }
	dbPath, err := a.DBPath()
	if err != nil {
		add(Finding{Name: "links db", OK: false, Detail: err.Error(), Fix: "set GIT_CONVO_DB"})
		return h
	}
	s, err := store.Open(ctx, dbPath, store.Options{MustExist: true, Resolver: repokey.Resolver()})
	switch {
	case errors.Is(err, store.ErrNotFound):
		// Normal before the first capture or recorded commit: not a
		// failure, unless the file cannot be created.
		if f, ok := dbDirCheck(dbPath); !ok {
			add(f)
		} else {
			h.Writable = true // created by the first write
			add(Finding{Name: "links db", OK: true, Detail: dbPath + ": nothing recorded yet (created when the first agent turn ends or the first commit is recorded)"})
		}
		return h
	case err != nil:
		if f, ok := dbDirCheck(dbPath); !ok {
			add(f) // the cause: its directory cannot be made or written
		} else {
			add(openFailure(dbPath, err))
		}
		return h
	}
	defer s.Close()
	v, _ := s.Version(ctx)
	counts, _ := s.Counts(ctx)
	if werr := s.CheckWritable(ctx); werr != nil {
		add(notWritable(dbPath, werr))
	} else {
		h.Writable = true
		add(Finding{Name: "links db", OK: true, Detail: fmt.Sprintf("%s (schema %d; %d conversations, %d commits, %d links)",
			dbPath, v, counts.Conversations, counts.Commits, counts.Links)})
	}
	for _, m := range []struct{ key, name, fix string }{
		{"lastCapture", "last capture", "no agent's hook has run yet: check the agents' hooks above, and restart the agent"},
		{"lastRecord", "last record", "no commit recorded yet: commit, or run git convo record"},
	} {
		at, _ := s.Meta(ctx, m.key)
		if at == "" {
			add(Finding{Name: m.name, OK: true, Warn: true, Detail: "never", Fix: m.fix})
			continue
		}
		f := Finding{Name: m.name, OK: true, Detail: at}
		if t, err := time.Parse(time.RFC3339, at); err == nil {
			f.At = t
		}
		add(f)
	}
	return h
}

// openFailure is doctor's finding for a links database that does not
// open: one piece of advice per cause, the same the error itself gives.
func openFailure(dbPath string, err error) Finding {
	fix := "move the file aside; git-convo starts a new one (links in the old file are not lost: keep it)"
	switch {
	case errors.Is(err, store.ErrNotFound) || os.IsNotExist(err):
		fix = "nothing recorded yet: work with Cursor's agent and commit"
	case errors.Is(err, store.ErrTooNew):
		fix = "upgrade git-convo: a newer version wrote this file (keep it; an older git-convo never changes it)"
	case store.IsReadOnly(err) || store.IsTransient(err) && !errors.Is(err, store.ErrCorrupt):
		fix = writeFix(dbPath, "make links.sqlite, its -wal and -shm files and their directory writable")
	}
	return Finding{Name: "links db", OK: false, Detail: err.Error(), Fix: fix}
}

// notWritable is doctor's finding for a database that opens but refuses
// writes: what sends every hook event to the spool.
func notWritable(dbPath string, err error) Finding {
	return Finding{Name: "links db", OK: false, Detail: fmt.Sprintf("%s opens but cannot be written: %v", dbPath, err),
		Fix: writeFix(dbPath, "make links.sqlite, its -wal and -shm files and their directory writable")}
}

func writeFix(dbPath, fallback string) string {
	if cause, fix := store.WriteFix(dbPath); fix != "" {
		return fix + " (" + cause + ")"
	}
	return fallback
}

// dbDirCheck reports a links database directory that cannot be created or
// written: then every capture and commit records nothing, and the error log
// beside the database cannot say why. ok is false only for that failure.
func dbDirCheck(dbPath string) (Finding, bool) {
	dir := filepath.Dir(dbPath)
	existing := dir
	for {
		st, err := os.Stat(existing)
		if err == nil {
			if !st.IsDir() {
				return Finding{Name: "links db", OK: false,
					Detail: fmt.Sprintf("%s cannot be created: %s is not a directory; nothing is recorded and the error log beside it cannot be written", dbPath, existing),
					Fix:    "set GIT_CONVO_DB to a path in a directory you can write"}, false
			}
			break
		}
		parent := filepath.Dir(existing)
		if parent == existing {
			break
		}
		existing = parent
	}
	f, err := os.CreateTemp(existing, ".git-convo-doctor-*")
	if err == nil {
		name := f.Name()
		f.Close()
		os.Remove(name)
		return Finding{}, true
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	what := "written"
	if existing != dir {
		what = "created (" + existing + " cannot be written)"
	}
	return Finding{Name: "links db", OK: false,
		Detail: fmt.Sprintf("%s: its directory %s cannot be %s: %v; commits and captures record nothing, and the error log beside it cannot be written", dbPath, dir, what, err),
		Fix:    "make " + existing + " writable, or set GIT_CONVO_DB to a writable path"}, false
}
