package hookrun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/git-convo/git-convo/pkg/gitx"
	"github.com/git-convo/git-convo/pkg/ingest"
	"github.com/git-convo/git-convo/pkg/spool"
	"github.com/git-convo/git-convo/pkg/store"
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
// lost, and says so on stderr and in the log.
func (o Options) keep(payload []byte, event, agent string, atMs int64, cause error) {
	msg := fmt.Sprintf("links database unavailable (%v): the %s event is kept in the spool and recorded by the next hook that can write", cause, orUnknown(event))
	if err := o.put(ingest.Spooled{Event: event, Agent: agent, AtMs: atMs, Payload: json.RawMessage(payload)}); err != nil {
		msg = fmt.Sprintf("links database unavailable (%v) and the spool too (%v): the %s event is lost", cause, err, orUnknown(event))
	}
	o.failed("%s", msg)
}

// spoolCommit keeps a git hook's commit or rewrite that the database could
// not take; the error says where it went.
func (o Options) spoolCommit(e ingest.Spooled, cause error) error {
	if err := o.put(e); err != nil {
		return fmt.Errorf("links database unavailable (%v) and the spool too (%v)", cause, err)
	}
	return fmt.Errorf("links database unavailable (%v): kept in the spool for the next hook", cause)
}

// DrainSpool records into s the work spooled while the database was
// unavailable, oldest first, each at the time it arrived. What cannot be
// replayed is set aside (doctor --replay-spool retries it); errors go to
// the log.
func (o Options) DrainSpool(ctx context.Context, s *store.Store) {
	if o.DBPath == "" {
		return
	}
	w := o.Writer(ctx, s)
	res, err := spool.Drain(spool.Dir(o.DBPath), 500, func(b []byte) error {
		var e ingest.Spooled
		if json.Unmarshal(b, &e) != nil {
			return errors.New("not a spooled event") // set aside, never blocking the spool
		}
		return w.Replay(ctx, e, func(repo *gitx.Repo) *ingest.Recorder { return o.Recorder(ctx, repo, s) })
	}, store.IsTransient)
	for _, why := range res.SetAside {
		o.Log.Printf("capture", "spooled event set aside, it cannot be replayed: %s (git convo doctor --replay-spool retries it)", why)
	}
	if res.Replayed > 0 || err != nil {
		o.Log.Printf("capture", "replayed %d spooled events (%v)", res.Replayed, err)
	}
}
