package app

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"
)

// linksAhead gives each hash the links its read found, whatever the
// batches it was handed in and is taken in; the hashes never handed are
// left to the caller; an error reaches the taker of its batch; nothing is
// queried once stopped, or where nothing is linked.
func TestLinksAhead(t *testing.T) {
	hashes := make([]string, 40)
	for i := range hashes {
		hashes[i] = fmt.Sprintf("%040x", i)
	}
	linkedOf := func(h string) []LinkedConversation {
		var lc LinkedConversation
		lc.CommitHash, lc.ConversationID = h, "c-"+h[36:]
		return []LinkedConversation{lc}
	}
	boom := errors.New("boom")
	for _, tc := range []struct {
		name      string
		added     [][]string // handed ahead, batch by batch
		taken     [][]string // asked for by Links
		ok        bool
		failOn    string // the read holding this hash fails
		wantMiss  []string
		wantErr   error
		wantLinks int
	}{
		{"same batches", [][]string{hashes[:16], hashes[16:40]}, [][]string{hashes[:16], hashes[16:40]}, true, "", nil, nil, 40},
		{"other batches", [][]string{hashes[:16], hashes[16:30], hashes[30:]}, [][]string{hashes[:32], hashes[32:]}, true, "", nil, nil, 40},
		{"a walk handed over to git", [][]string{hashes[:16]}, [][]string{hashes[:32]}, true, "", hashes[16:32], nil, 16},
		{"nothing linked", [][]string{hashes[:16]}, [][]string{hashes[:16]}, false, "", nil, nil, 0},
		{"a read fails", [][]string{hashes[:16], hashes[16:32]}, [][]string{hashes[:20]}, true, hashes[18], nil, boom, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var queried []string
			query := func(_ context.Context, hs []string, _ []int64) (map[string][]LinkedConversation, error) {
				mu.Lock()
				queried = append(queried, hs...)
				mu.Unlock()
				if tc.failOn != "" && slices.Contains(hs, tc.failOn) {
					return nil, boom
				}
				out := map[string][]LinkedConversation{}
				for _, h := range hs {
					out[h] = linkedOf(h)
				}
				return out, nil
			}
			a := newLinksAhead(context.Background(), func() bool { return tc.ok }, query)
			for _, hs := range tc.added {
				a.add(hs, nil)
			}
			links := 0
			var missing []string
			var err error
			for _, hs := range tc.taken {
				var got map[string][]LinkedConversation
				var miss []string
				if got, miss, err = a.take(hs); err != nil {
					break
				}
				missing = append(missing, miss...)
				for h, lcs := range got {
					if len(lcs) != 1 || lcs[0].CommitHash != h || !slices.Contains(hs, h) {
						t.Errorf("%s: links %v", h, lcs)
					}
					links++
				}
			}
			a.stop()
			if !errors.Is(err, tc.wantErr) || links != tc.wantLinks || !slices.Equal(missing, tc.wantMiss) {
				t.Errorf("error %v, %d linked, missing %d; want %v, %d, %d", err, links, len(missing), tc.wantErr, tc.wantLinks, len(tc.wantMiss))
			}
			if !tc.ok && len(queried) > 0 {
				t.Errorf("nothing linked, yet %d hashes queried", len(queried))
			}
		})
	}
}

// add waits for room in the queue holding the lock stop needs: with the
// queue full and a read running, stop and the adds still all return.
func TestLinksAheadStopWhileAddWaits(t *testing.T) {
	release := make(chan struct{})
	a := newLinksAhead(context.Background(), func() bool { return true }, func(context.Context, []string, []int64) (map[string][]LinkedConversation, error) {
		<-release
		return map[string][]LinkedConversation{}, nil
	})
	added := make(chan struct{})
	go func() {
		defer close(added)
		for i := range 20 { // more than the queue holds: add waits, holding the lock
			a.add([]string{fmt.Sprint(i)}, nil)
		}
	}()
	stopped := make(chan struct{})
	go func() { a.stop(); close(stopped) }()
	close(release)
	<-added
	<-stopped
}

// A read the context's end kept from being made is its error, not an
// empty answer (log would print the batch as linked to nothing).
func TestLinksAheadCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	queried := false
	a := newLinksAhead(ctx, func() bool { return true }, func(context.Context, []string, []int64) (map[string][]LinkedConversation, error) {
		queried = true
		return map[string][]LinkedConversation{}, nil
	})
	a.add([]string{"a", "b"}, nil)
	got, missing, err := a.take([]string{"a", "b"})
	a.stop()
	if !errors.Is(err, context.Canceled) || got != nil || missing != nil || queried {
		t.Errorf("cancelled: %v, %v, missing %v, queried %v", got, err, missing, queried)
	}
}

// stop lets go of what is queued unread, returns once the goroutine has,
// and makes add a no-op: the store can be closed after it.
func TestLinksAheadStop(t *testing.T) {
	started, release := make(chan struct{}, 8), make(chan struct{})
	var mu sync.Mutex
	reads := 0
	query := func(_ context.Context, hs []string, _ []int64) (map[string][]LinkedConversation, error) {
		started <- struct{}{}
		<-release // the first read holds the goroutine while more are queued
		mu.Lock()
		reads++
		mu.Unlock()
		return map[string][]LinkedConversation{}, nil
	}
	a := newLinksAhead(context.Background(), func() bool { return true }, query)
	for i := range 5 {
		a.add([]string{fmt.Sprint(i)}, nil)
	}
	<-started
	stopped := make(chan struct{})
	go func() { a.stop(); close(stopped) }()
	select {
	case <-stopped:
		t.Fatal("stop returned while a read was running")
	default:
	}
	for !a.stopped.Load() { // stop has begun: let the running read end
		runtime.Gosched()
	}
	close(release)
	<-stopped
	a.add([]string{"late"}, nil) // no panic, nothing queued
	if reads != 1 {
		t.Errorf("%d reads ran; after stop only the one running may finish", reads)
	}
}
