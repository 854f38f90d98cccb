package app

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
)

// linksAhead reads log's links a batch of the walk ahead: the walk's
// goroutine hands it each batch's hashes (gitx.LogOptions.Ahead) as soon
// as the commits are read, and a goroutine of its own queries them, in
// order, while the walk reads on and log prints the batches before. Links
// then takes what was read for its hashes, and queries itself only those
// nobody handed ahead (where git walked them).
//
// One goroutine, not two: a second query at once (its own connection)
// gained no wall time on two cores and cost the connection's opening.
type linksAhead struct {
	query func(context.Context, []string, []int64) (map[string][]LinkedConversation, error)
	ok    func() bool // the store ready and anything linked: else nothing is queried
	queue chan *linksRead
	done  chan struct{} // closed once the goroutine has returned

	// pending is the reads not yet taken whole, in the order added, which
	// is the order log shows the commits in; next is the first hash of
	// pending[0] not yet taken.
	mu      sync.Mutex
	pending []*linksRead
	next    int
	// stopped is set under mu, read without it by the goroutine: add holds
	// mu while it waits for room in the queue, which the goroutine makes.
	stopped atomic.Bool
}

// errAheadStopped: a read let go by stop (nothing takes it).
var errAheadStopped = errors.New("log's links read ahead: stopped")

// linksRead is one batch's links: read once ready is closed.
type linksRead struct {
	hashes []string
	secs   []int64 // the commits' times, as the walk read them
	ready  chan struct{}
	got    map[string][]LinkedConversation
	err    error
}

func newLinksAhead(ctx context.Context, ok func() bool,
	query func(context.Context, []string, []int64) (map[string][]LinkedConversation, error)) *linksAhead {
	a := &linksAhead{query: query, ok: ok, queue: make(chan *linksRead, 8), done: make(chan struct{})}
	go func() {
		defer close(a.done)
		for r := range a.queue {
			// A read not made is an error, never an empty answer: log
			// would print the batch as linked to nothing.
			switch {
			case ctx.Err() != nil:
				r.err = ctx.Err()
			case a.stopped.Load():
				r.err = errAheadStopped
			case a.ok():
				r.got, r.err = a.query(ctx, r.hashes, r.secs)
			}
			close(r.ready)
		}
	}()
	return a
}

// add queues the links of hashes (secs: their commits' times) to be read
// (nothing once stopped).
func (a *linksAhead) add(hashes []string, secs []int64) {
	if len(hashes) == 0 {
		return
	}
	r := &linksRead{hashes: hashes, secs: secs, ready: make(chan struct{})}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.stopped.Load() {
		return
	}
	a.pending = append(a.pending, r)
	a.queue <- r // under the lock, which stop closes the queue under
}

// take is the links read ahead for hashes, waiting for their reads, and
// the hashes no read was queued for (git walked them). Hashes are taken in
// the order they were added: log shows each commit once, in the walk's
// order.
func (a *linksAhead) take(hashes []string) (map[string][]LinkedConversation, []string, error) {
	reads := make([]*linksRead, len(hashes))
	var missing []string
	a.mu.Lock()
	for i, h := range hashes {
		if len(a.pending) == 0 || a.pending[0].hashes[a.next] != h {
			missing = append(missing, h)
			continue
		}
		reads[i] = a.pending[0]
		if a.next++; a.next == len(reads[i].hashes) {
			a.pending[0] = nil
			a.pending, a.next = a.pending[1:], 0
		}
	}
	a.mu.Unlock()
	out := make(map[string][]LinkedConversation, len(hashes))
	for i, r := range reads {
		if r == nil {
			continue
		}
		<-r.ready
		if r.err != nil {
			return nil, nil, r.err
		}
		if lcs, ok := r.got[hashes[i]]; ok {
			out[hashes[i]] = lcs
		}
	}
	return out, missing, nil
}

// stop ends the reading ahead (what is queued is let go unread) and
// waits for its goroutine: the store may be closed after.
func (a *linksAhead) stop() {
	a.mu.Lock()
	if !a.stopped.Load() {
		a.stopped.Store(true)
		close(a.queue)
	}
	a.mu.Unlock()
	<-a.done
}
