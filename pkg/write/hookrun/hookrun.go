// Package hookrun runs what git-convo's hooks do around the write path
// (pkg/write/ingest): an agent's hook event (Capture), a git hook's commits
// (RecordHook), and the two places hook work waits for links.sqlite: the
// spool (agents' events inside a turn, and events and commits kept while
// the database was locked, corrupt or read-only) and the queue (commits the
// git hooks appended with the shell alone). pkg/cli parses the flags and
// makes one call per hook; the read commands and the MCP server (in its
// own process, through pkg/app's Drain) drain both with DrainQueue, the
// spool first.
//
// A hook never fails and never blocks its agent or git: problems go to the
// log that `git convo doctor` shows (and a capture's, as one line, to
// stderr), and what could not be recorded is kept for the next hook.
package hookrun

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/git-convo/git-convo/pkg/agents"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/util/errlog"
	"github.com/git-convo/git-convo/pkg/util/term"
	"github.com/git-convo/git-convo/pkg/write/ingest"
)

// Options is the environment a hook runs in.
type Options struct {
	// DBPath is links.sqlite; "" when it cannot be named, and PathErr says
	// why (nothing opens, nothing is spooled).
	DBPath  string
	PathErr error
	Now     func() time.Time
	Getenv  func(string) string // GIT_CONVO_SYNC, and agents' data (CURSOR_DB_PATH)
	// Stderr gets a capture's problem as one line (agents show their
	// hooks' stderr in their output panel); nil: nowhere.
	Stderr   io.Writer
	Log      errlog.Log
	Resolver *store.Resolver // adopts a database the prototype wrote
	// Agents are the agents a payload may come from: another agent's
	// payload that reached an agent's hook is recorded as the sender's
	// (Activity.Sender). nil: as the hook's agent's, or not at all.
	Agents *agents.Registry
	// Writer is the write path into an open store, and Recorder a work
	// tree's commit recorder into it (pkg/app's: linking settings, notes
	// shared after).
	Writer   func(ctx context.Context, s *store.Store) ingest.Writer
	Recorder func(ctx context.Context, repo *gitx.Repo, s *store.Store) *ingest.Recorder
	// Pulled recognises squash merges after a work tree's queued merges
	// (post-merge records); nil: nothing.
	Pulled func(ctx context.Context, repo *gitx.Repo, merges int)
	// Spawn starts git-convo with args in the background, detached, and
	// does not wait.
	Spawn func(args ...string) error
}

// busyTimeout bounds how long a capture waits for links.sqlite: an agent
// gives a hook a few seconds; past this the event is spooled, not lost.
const busyTimeout = 2 * time.Second

// sync reports GIT_CONVO_SYNC=1: background work runs here and now (tests,
// scripts), or not at all when it is only a retry.
func (o Options) sync() bool { return o.Getenv("GIT_CONVO_SYNC") == "1" }

// open opens links.sqlite, waiting at most busy for another writer (0: the
// store's default).
func (o Options) open(ctx context.Context, busy time.Duration) (*store.Store, error) {
	if o.DBPath == "" {
		return nil, o.PathErr
	}
	s, err := store.Open(ctx, o.DBPath, store.Options{Now: o.Now, Resolver: o.Resolver, BusyTimeout: busy})
	if err == nil {
		// While the disk has room: the record lets doctor report a later full disk.
		errlog.Prepare(errlog.PathBeside(o.DBPath))
	}
	return s, err
}

// spawn starts git-convo in the background, logging a failure.
func (o Options) spawn(what string, args ...string) {
	if err := o.Spawn(args...); err != nil {
		o.Log.Printf("capture", "starting %s: %v", what, err)
	}
}

// failed reports a capture problem on stderr and in the log.
func (o Options) failed(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if o.Stderr != nil {
		fmt.Fprintf(o.Stderr, "git-convo capture: %s\n", term.Line(msg))
	}
	o.Log.Printf("capture", "%s", msg)
}
