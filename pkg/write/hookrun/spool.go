package hookrun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/write/ingest"
	"github.com/git-convo/git-convo/pkg/write/spool"
)

// put keeps one hook's work in the spool beside links.sqlite.
func (o Options) put(e ingest.Spooled) error {
	if o.DBPath == "" {
		return o.PathErr
	}
	b, _ := json.Marshal(e)
	return spool.Put(spool.Dir(o.DBPath), b, o.Now())
}

// keep spools an agent's event that could not be recorded, so it is not
// keep spools an agent's event that could not be recorded, so it is not
// lost, and says so in the log only: the hook prints nothing (README), not
// even when the disk is full and the event is lost; doctor shows the log.
func (o Options) keep(payload []byte, a source.Activity, agent string, atMs int64, cause error) {
	event := a.Event
	msg := fmt.Sprintf("links database unavailable (%v): the %s event is kept in the spool and recorded by the next hook that can write", cause, orUnknown(event))
	if err := o.spoolEvent(payload, a, agent, atMs); err != nil {
		msg = fmt.Sprintf("links database unavailable (%v) and the spool too (%v): the %s event is lost", cause, err, orUnknown(event))
	}
	o.Log.Printf("capture", "%s", msg)
}

// spoolCommit keeps a git hook's commit or rewrite that the database could
// not take; the error says where it went.
func (o Options) spoolCommit(e ingest.Spooled, cause error) error {
	if err := o.put(e); err != nil {
		return fmt.Errorf("links database unavailable (%v) and the spool too (%v)", cause, err)
	}
	return fmt.Errorf("links database unavailable (%v): kept in the spool for the next hook", cause)
}

// spoolEvent puts an agent's event into the spool, which the next process
// that records or reads replays (the capture's fast path: no SQLite opened
// in the agent's hook).
func (o Options) spoolEvent(payload []byte, a source.Activity, agent string, atMs int64) error {
	return o.put(ingest.Spooled{Event: a.Event, Agent: agent, AtMs: atMs, Payload: json.RawMessage(payload), Spans: a.Spans, Unknown: a.Unknown != ""})
}

// lazyStore is the store a drain records into: the caller's, or opened on
// first use (and closed by close) so a drain with no work opens nothing.
type lazyStore struct {
	o      Options
	s      *store.Store
	opened bool
}

// errOpen marks a failure to open the store: the work waits, whatever the cause.
type errOpen struct{ error }

func (l *lazyStore) get(ctx context.Context) (*store.Store, error) {
	if l.s == nil {
		s, err := l.o.open(ctx, 0)
		if err != nil {
			return nil, errOpen{err}
		}
		l.s, l.opened = s, true
	}
	return l.s, nil
}

func (l *lazyStore) close() {
	if l.opened {
		l.s.Close()
	}
}

// DrainSpool records into s (nil: open the store when there is work) the
// agents' events the captures spooled and the work kept while the
// database was unavailable, oldest first, each at the time it arrived,
// waiting at most wait for another process's drain. When nothing waits it
// costs one stat. What cannot be replayed is set aside (doctor
// --replay-spool retries it); errors go to the log.
func (o Options) DrainSpool(ctx context.Context, s *store.Store, wait time.Duration) {
	l := &lazyStore{o: o, s: s}
	defer l.close()
	o.drainSpool(ctx, l, wait)
}

func (o Options) drainSpool(ctx context.Context, l *lazyStore, wait time.Duration) {
	if o.DBPath == "" {
		return
	}
	recorder := func(s *store.Store) func(*gitx.Repo) *ingest.Recorder {
		return func(repo *gitx.Repo) *ingest.Recorder { return o.Recorder(ctx, repo, s) }
	}
	// A batch (a turn's edits) is replayed in one transaction; a batch that
	// fails is replayed entry by entry, which sets aside only the bad one.
	all := func(bs [][]byte) error {
		es := make([]ingest.Spooled, len(bs))
		for i, b := range bs {
			if json.Unmarshal(b, &es[i]) != nil {
				return errors.New("not a spooled event")
			}
		}
		s, err := l.get(ctx)
		if err != nil {
			return err
		}
		return o.Writer(ctx, s).ReplayAll(ctx, es, recorder(s))
	}
	res, err := spool.DrainBatches(spool.Dir(o.DBPath), wait, all, func(b []byte) error {
		var e ingest.Spooled
		if json.Unmarshal(b, &e) != nil {
			return errors.New("not a spooled event") // set aside, never blocking the spool
		}
		s, err := l.get(ctx)
		if err != nil {
			return err
		}
		return o.Writer(ctx, s).Replay(ctx, e, recorder(s))
	}, func(err error) bool { return errors.As(err, new(errOpen)) || store.IsTransient(err) })
	for _, why := range res.SetAside {
		o.Log.Printf("capture", "spooled event set aside, it cannot be replayed: %s (git convo doctor --replay-spool retries it)", why)
	}
	if err != nil {
		o.Log.Printf("capture", "replayed %d spooled events, the others wait for the next drain: %v", res.Replayed, err)
	}
}
