// Package store owns links.sqlite: opening it safely, migrating it, and every
// query git-convo makes against it. It is the only package that speaks SQL to
// links.sqlite; of git-convo's packages it imports only sqliteuri (its file: URI)
// and textmatch (search's case folding, as an SQL function).
package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	sqlite3 "github.com/mattn/go-sqlite3"

	"github.com/git-convo/git-convo/pkg/util/sqliteuri"
	"github.com/git-convo/git-convo/pkg/util/textmatch"
)

// BusyTimeout is how long a connection waits on another writer before SQLite
// reports SQLITE_BUSY. Cursor fires many hooks at once; each write transaction
// is short, so this is generous.
const BusyTimeout = 5 * time.Second

// Store is an open links.sqlite.
type Store struct {
	db       *sql.DB
	path     string
	now      func() time.Time
	attempts int             // write attempts when SQLite stays busy
	busy     time.Duration   // the connection's busy timeout
	empty    *emptyConnector // OpenEmpty's store: its connection, made on first use
}

// Options tune Open.
type Options struct {
	// MustExist refuses to create a new database (read commands use it so a
	// typo in GIT_CONVO_DB does not silently create an empty one).
	MustExist bool
	// Now overrides the clock (tests).
	Now func() time.Time
	// BusyTimeout overrides how long to wait on another writer (0: the
	// default). Hooks pass a short one: Cursor's hook timeout is seconds, and
	// a capture that cannot write in time is spooled instead (package spool).
	BusyTimeout time.Duration
	// Resolver lets Open adopt a database the prototype wrote (see
	// prototype.go); without it such a database is refused, untouched.
	Resolver *Resolver
}

// Typed errors, so callers can tell the user what to do.
var (
	// ErrNotFound: no database at the path (with MustExist).
	ErrNotFound = errors.New("links database not found")
	// ErrCorrupt: the file is not a usable SQLite database.
	ErrCorrupt = errors.New("links database is corrupt")
	// ErrTooNew: written by a newer git-convo.
	ErrTooNew = errors.New("links database was written by a newer git-convo")
)

// Open opens (creating if needed, unless opts.MustExist) the links database at
// path and brings its schema up to date. A corrupt database, or one written by a
// newer version, is reported and never reset.
func Open(ctx context.Context, path string, opts Options) (*Store, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if err := prepareFile(abs, opts.MustExist); err != nil {
		return nil, err
	}
	repairModes(abs)
	busy := BusyTimeout
	attempts := 4
	if opts.BusyTimeout > 0 {
		busy, attempts = opts.BusyTimeout, 1
	}
	// Should it fail (out of memory), closing costs a checkpoint, nothing more.
	_ = registerNoCkptOnClose()
	db := sql.OpenDB(connector{dsn(abs, busy)})
	// One connection per process: SQLite allows one writer at a time anyway,
	// and a single connection keeps transactions and pragmas predictable.
	db.SetMaxOpenConns(1)
	s := &Store{db: db, path: abs, now: time.Now, attempts: attempts, busy: busy}
	if opts.Now != nil {
		s.now = opts.Now
	}
	// SQLite can answer BUSY at once, without its busy handler, while many
	// processes race to create the file and switch it to WAL: try again.
	for attempt := 1; ; attempt++ {
		err = s.migrate(ctx, opts.Resolver)
		if err == nil || !isBusy(err) || attempt >= attempts {
			break
		}
		time.Sleep(time.Duration(20*attempt) * time.Millisecond)
	}
	if err != nil {
		db.Close()
		return nil, cannotOpen(abs, err)
	}
	return s, nil
}

// cannotOpen names the file and the likely cause where SQLite could not
// open an existing links.sqlite or write it (its schema brought up to
// date on every open): SQLite's own words ("unable to open database
// file: no such file or directory") name neither, and on a read-only
// mount they speak of a -wal file the user never made.
func cannotOpen(abs string, err error) error {
	var se sqlite3.Error
	if !errors.As(err, &se) || se.Code != sqlite3.ErrCantOpen && se.Code != sqlite3.ErrReadonly {
		return err
	}
	cause, _ := WriteFix(abs)
	if cause == "" {
		cause = "SQLite creates links.sqlite-wal and -shm beside it, and every command brings its schema up to date: is its directory on a read-only mount?"
	}
	return fmt.Errorf("%s cannot be opened for writing (%s): %w; `git convo doctor` says more", abs, cause, err)
}

// connector opens connections to links.sqlite with convo_fold, search's
// case folding (textmatch.Fold), registered: SQLite's LIKE folds ASCII only.
type connector struct{ dsn string }

func (c connector) Connect(context.Context) (driver.Conn, error) { return c.Driver().Open(c.dsn) }

func (connector) Driver() driver.Driver {
	return &sqlite3.SQLiteDriver{ConnectHook: func(conn *sqlite3.SQLiteConn) error {
		return conn.RegisterFunc("convo_fold", textmatch.Fold, true)
	}}
}

// dsn builds the connection string with net/url so unusual paths (spaces, '?',
// '#') survive: WAL for concurrent readers, a busy timeout for concurrent
// writers, BEGIN IMMEDIATE so a write transaction takes the lock up front
// instead of failing half way.
func dsn(abs string, busy time.Duration) string {
	q := url.Values{}
	q.Set("_journal_mode", "WAL")
	q.Set("_busy_timeout", fmt.Sprint(busy.Milliseconds()))
	q.Set("_txlock", "immediate")
	q.Set("_synchronous", "NORMAL")
	// Deleted content is overwritten with zeros, overflow pages included
	// (FAST leaves freed overflow pages, so any prompt over a page, as
	// they were): `forget` must really forget (conversations can hold secrets).
	q.Set("_secure_delete", "ON")
	// Cache prepared statements: log runs the same batch query many times.
	q.Set("_stmt_cache_size", "32")
	// No SQLite mutex per call (SQLITE_OPEN_NOMUTEX): database/sql hands a
	// connection to one goroutine at a time (and sqlite3_interrupt, which
	// cancellation calls from another, takes none), while FULLMUTEX locked
	// the connection's mutex for every column of every row read: 12 % of
	// the CPU of log's links query (perf, 100,000 conversations).
	q.Set("_mutex", "no")
	// No checkpoint when the last connection closes (nockpt.go).
	q.Set(noCkptParam, "1")
	return sqliteuri.File(abs, q)
}

// prepareFile creates the directory (0700) and an empty database file (0600)
// so SQLite never creates it with the umask's looser mode: conversations can
// hold secrets. SQLite gives the -wal and -shm files the same mode. A
// dangling symlink at abs (a dotfiles manager, a data folder moved to another
// disk) is followed: O_EXCL never follows one, and SQLite would create its
// target with the umask's mode.
func prepareFile(abs string, mustExist bool) error {
	for hops := 0; ; hops++ {
		if _, err := os.Stat(abs); err == nil {
			return nil
		} else if !errors.Is(err, os.ErrNotExist) {
			return err
		}
		if mustExist {
			return fmt.Errorf("%w at %s", ErrNotFound, abs)
		}
		if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
			return err
		}
		f, err := os.OpenFile(abs, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err == nil {
			return f.Close()
		}
		if !errors.Is(err, os.ErrExist) {
			return err
		}
		target, lerr := os.Readlink(abs)
		if lerr != nil || hops >= 40 { // not a link: another process won the race
			return nil
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(abs), target)
		}
		abs = target
	}
}

// Path is the absolute path of the database file.
func (s *Store) Path() string { return s.path }

// Close closes the database, checkpointing first when the log is long.
func (s *Store) Close() error {
	s.checkpointIfLong()
	return s.db.Close()
}

// walTruncateBytes is the log size past which Close checkpoints and
// truncates it: 64 pages, a dozen or so captures.
const walTruncateBytes = 64 * 4096

// checkpointIfLong copies a long log into the database and truncates it.
// SQLite's own checkpoint on commit (wal_autocheckpoint) cannot do this job
// here: it never resets the log, and the next process, opening the database
// alone, rebuilds the log's index by reading all of it (WAL recovery) and
// finds nothing checkpointed, so the log would only grow and every open
// would read more of it. It does not wait on readers: a busy log is
// truncated by a later Close.
func (s *Store) checkpointIfLong() {
	fi, err := os.Stat(s.path + "-wal")
	if err != nil || fi.Size() <= walTruncateBytes {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if _, err := s.db.ExecContext(ctx, `PRAGMA busy_timeout = 0`); err == nil {
		s.db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
	}
}

// write runs fn in a short immediate transaction, retrying when SQLite stays
// busy past the busy timeout, so a burst of hooks loses nothing.
func (s *Store) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	var err error
	for attempt := 0; attempt < s.attempts; attempt++ {
		err = s.tryWrite(ctx, fn)
		if !isBusy(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(50*(attempt+1)) * time.Millisecond):
		}
	}
	return err
}

func (s *Store) tryWrite(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return classify(s.path, err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return classify(s.path, err)
	}
	return classify(s.path, tx.Commit())
}

func isBusy(err error) bool {
	var se sqlite3.Error
	if errors.As(err, &se) {
		return se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked
	}
	return false
}

// classify turns SQLite's corruption codes into ErrCorrupt with the path, so
// every caller reports the same clear message.
func classify(path string, err error) error {
	if err == nil {
		return nil
	}
	var se sqlite3.Error
	if errors.As(err, &se) && (se.Code == sqlite3.ErrNotADB || se.Code == sqlite3.ErrCorrupt) {
		return fmt.Errorf("%w: %s: %v (move it aside and run `git convo doctor`; it is never reset automatically)", ErrCorrupt, path, err)
	}
	return err
}

// IsBusy reports an error caused by another process holding the database.
func IsBusy(err error) bool { return isBusy(err) }

// IsTransient reports an error that waiting (or the user fixing permissions
// or freeing disk space) can cure: the database busy, locked, read-only,
// full, unreadable, or the work cancelled. A spooled event failing with any
// other error will fail the same way every time.
func IsTransient(err error) bool {
	var se sqlite3.Error
	if errors.As(err, &se) {
		switch se.Code {
		case sqlite3.ErrBusy, sqlite3.ErrLocked, sqlite3.ErrReadonly, sqlite3.ErrFull, sqlite3.ErrIoErr,
			sqlite3.ErrCantOpen, sqlite3.ErrNotADB, sqlite3.ErrCorrupt, sqlite3.ErrPerm:
			return true
		}
	}
	return errors.Is(err, ErrCorrupt) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// IsReadOnly reports an error caused by a read-only database file or directory.
func IsReadOnly(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && se.Code == sqlite3.ErrReadonly
}

// isoTime formats t like git's strict ISO-8601, in UTC.
func isoTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// padded returns values padded with "" up to a few fixed sizes, so a batch
// query has one of few shapes and its prepared statement is reused. No
// stored key is "".
func padded(values []string) []any {
	size := paddedLen(len(values))
	out := anys(values)
	for len(out) < size {
		out = append(out, "")
	}
	return out
}

// paddedLen is how many values padded makes of n.
func paddedLen(n int) int {
	for _, bucket := range []int{32, 128, chunkSize} {
		if n <= bucket {
			return bucket
		}
	}
	return n
}

// placeholders returns "?,?,?" for n values.
func placeholders(n int) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat("?,", n-1) + "?"
}

// CopyTo writes a consistent copy of the database to path (VACUUM INTO).
func (s *Store) CopyTo(ctx context.Context, path string) error {
	_, err := s.db.ExecContext(ctx, `VACUUM INTO ?`, path)
	return classify(s.path, err)
}
