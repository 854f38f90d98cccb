package app

import (
	"context"
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
	query func(context.Context, []string) (map[string][]LinkedConversation, error)
	ok    func() bool // the store ready and anything linked: else nothing is queried
	queue chan *linksRead
	done  chan struct{} // closed once the goroutine has returned

	mu      sync.Mutex
	pending map[string]*linksRead // by hash, until take takes it
	// stopped is set under mu, read without it by the goroutine: add holds
	// mu while it waits for room in the queue, which the goroutine makes.
	stopped atomic.Bool
}

// linksRead is one batch's links: read once ready is closed.
type linksRead struct {
	hashes []string
	ready  chan struct{}
	got    map[string][]LinkedConversation
	err    error
}

func newLinksAhead(ctx context.Context, ok func() bool,
	query func(context.Context, []string) (map[string][]LinkedConversation, error)) *linksAhead {
	a := &linksAhead{query: query, ok: ok, queue: make(chan *linksRead, 8), done: make(chan struct{}),
		pending: map[string]*linksRead{}}
	go func() {
		defer close(a.done)
		for r := range a.queue {
			if ctx.Err() == nil && !a.stopped.Load() && a.ok() {
				r.got, r.err = a.query(ctx, r.hashes)
			}
			close(r.ready)
		}
	}()
	return a
}

// add queues the links of hashes to be read (nothing once stopped).
func (a *linksAhead) add(hashes []string) {
	r := &linksRead{hashes: hashes, ready: make(chan struct{})}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.stopped.Load() {
		return
	}
	for _, h := range hashes {
		a.pending[h] = r
	}
	a.queue <- r // under the lock, which stop closes the queue under
}

// take is the links read ahead for hashes, waiting for their reads, and
// the hashes no read was queued for.
func (a *linksAhead) take(hashes []string) (map[string][]LinkedConversation, []string, error) {
	reads := make([]*linksRead, len(hashes))
	var missing []string
	a.mu.Lock()
	for i, h := range hashes {
		if reads[i] = a.pending[h]; reads[i] == nil {
			missing = append(missing, h)
		}
		delete(a.pending, h) // each hash is shown once: let its read go with it
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
