package spool

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

func TestPutDrain(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "spool")
	base := time.Now()
	for i := range 5 {
		if err := Put(dir, []byte(fmt.Sprint(i)), base.Add(time.Duration(i))); err != nil {
			t.Fatal(err)
		}
	}
	fi, _ := os.Stat(dir)
	if fi.Mode().Perm() != 0o700 {
		t.Errorf("dir mode %v", fi.Mode().Perm())
	}
	files, _ := Pending(dir)
	if len(files) != 5 {
		t.Fatalf("%d pending", len(files))
	}
	if fi, _ := os.Stat(files[0]); fi.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v", fi.Mode().Perm())
	}
	var got []string
	fail := errors.New("still locked")
	n, err := Drain(dir, 10, func(b []byte) error {
		if string(b) == "3" {
			return fail
		}
		got = append(got, string(b))
		return nil
	})
	if n != 3 || !errors.Is(err, fail) || fmt.Sprint(got) != "[0 1 2]" {
		t.Fatalf("drain: %d %v %v", n, err, got)
	}
	n, err = Drain(dir, 10, func(b []byte) error { got = append(got, string(b)); return nil })
	if n != 2 || err != nil || fmt.Sprint(got) != "[0 1 2 3 4]" {
		t.Fatalf("second drain: %d %v %v", n, err, got)
	}
	if left, _ := Pending(dir); len(left) != 0 {
		t.Errorf("%d left", len(left))
	}
}

func TestConcurrentDrainsReplayOnce(t *testing.T) {
	dir := t.TempDir()
	for i := range 100 {
		Put(dir, []byte(fmt.Sprint(i)), time.Unix(0, int64(i)))
	}
	var mu sync.Mutex
	seen := map[string]int{}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			Drain(dir, 1000, func(b []byte) error {
				mu.Lock()
				seen[string(b)]++
				mu.Unlock()
				return nil
			})
		}()
	}
	wg.Wait()
	if len(seen) != 100 {
		t.Fatalf("%d entries replayed, want 100", len(seen))
	}
	for k, n := range seen {
		if n != 1 {
			t.Errorf("%s replayed %d times", k, n)
		}
	}
}
