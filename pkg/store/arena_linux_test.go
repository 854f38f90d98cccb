package store

import (
	"context"
	"runtime"
	"sync"
	"testing"
)

// SQLite's allocations share one malloc arena, whichever threads run the
// queries (arena_linux.go): glibc would give each thread its own.
func TestOneMallocArena(t *testing.T) {
	if mallocArenas() < 0 {
		t.Skip("not glibc's malloc")
	}
	s := openTemp(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			runtime.LockOSThread() // a thread of its own, let go of at the end
			if _, err := s.LogLinksForCommits(ctx, []string{"0123456789abcdef0123456789abcdef01234567"}, nil); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if n := mallocArenas(); n != 1 {
		t.Errorf("malloc arenas: %d, want 1", n)
	}
}
