package spool

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/util/filelock"
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
	locked := errors.New("still locked")
	isLocked := func(err error) bool { return errors.Is(err, locked) }
	res, err := Drain(dir, time.Second, func(b []byte) error {
		if string(b) == "3" {
			return locked
		}
		got = append(got, string(b))
		return nil
	}, isLocked)
	if res.Replayed != 3 || !errors.Is(err, locked) || fmt.Sprint(got) != "[0 1 2]" {
		t.Fatalf("drain: %+v %v %v", res, err, got)
	}
	res, err = Drain(dir, time.Second, func(b []byte) error { got = append(got, string(b)); return nil }, isLocked)
	if res.Replayed != 2 || err != nil || fmt.Sprint(got) != "[0 1 2 3 4]" {
		t.Fatalf("second drain: %+v %v %v", res, err, got)
	}
	if left, _ := Pending(dir); len(left) != 0 {
		t.Errorf("%d left", len(left))
	}
}

// TestEntryThatCannotSucceed: an entry failing for good (its commit is
// gone) is set aside and the entries behind it are replayed; Replay puts it
// back for another try.
func TestEntryThatCannotSucceed(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "spool")
	base := time.Now()
	for i, body := range []string{"gone-commit", "prompt-1", "prompt-2"} {
		Put(dir, []byte(body), base.Add(time.Duration(i)))
	}
	var got []string
	apply := func(b []byte) error {
		if string(b) == "gone-commit" {
			return errors.New("unknown revision")
		}
		got = append(got, string(b))
		return nil
	}
	never := func(error) bool { return false }
	for range 2 { // the second drain finds nothing left to block on
		if _, err := Drain(dir, time.Second, apply, never); err != nil {
			t.Fatal(err)
		}
	}
	if fmt.Sprint(got) != "[prompt-1 prompt-2]" {
		t.Errorf("replayed %v", got)
	}
	aside, _ := Pending(SetAsideDir(dir))
	if len(aside) != 1 {
		t.Fatalf("set aside: %v", aside)
	}
	if n, err := Replay(dir); n != 1 || err != nil {
		t.Fatalf("replay: %d %v", n, err)
	}
	res, _ := Drain(dir, time.Second, func([]byte) error { return nil }, never)
	if res.Replayed != 1 {
		t.Errorf("after replay: %+v", res)
	}
}

func TestRemove(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "spool")
	Put(dir, []byte("conv-a secret"), time.Unix(0, 1))
	Put(dir, []byte("conv-b"), time.Unix(0, 2))
	Drain(dir, time.Second, func(b []byte) error {
		if string(b) == "conv-a secret" {
			return errors.New("bad")
		}
		return errors.New("locked")
	}, func(err error) bool { return err.Error() == "locked" })
	n, err := Remove(dir, time.Second, func(b []byte) bool { return string(b) == "conv-a secret" })
	if n != 1 || err != nil {
		t.Fatalf("remove: %d %v", n, err)
	}
	left, _ := Pending(dir)
	aside, _ := Pending(SetAsideDir(dir))
	if len(left) != 1 || len(aside) != 0 {
		t.Errorf("left %v, aside %v", left, aside)
	}
}

func TestConcurrentDrainsReplayOnce(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "spool")
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
			Drain(dir, time.Minute, func(b []byte) error {
				mu.Lock()
				seen[string(b)]++
				mu.Unlock()
				return nil
			}, func(error) bool { return true })
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

// TestWaitingIsTheDirectory: the directory exists only while entries wait,
// so a reader's check is one stat; a Put after a drain removed it makes it
// again, and set-aside entries alone are not work for a reader.
func TestWaitingIsTheDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "spool")
	if Waiting(dir) {
		t.Fatal("waiting before any entry")
	}
	Put(dir, []byte("a"), time.Unix(0, 1))
	if !Waiting(dir) {
		t.Fatal("an entry put is not waiting")
	}
	never := func(error) bool { return false }
	if res, err := Drain(dir, time.Second, func([]byte) error { return nil }, never); res.Replayed != 1 || err != nil {
		t.Fatalf("drain: %+v %v", res, err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) || Waiting(dir) {
		t.Fatalf("an emptied spool directory is kept: %v", err)
	}
	if err := Put(dir, []byte("b"), time.Unix(0, 2)); err != nil || !Waiting(dir) {
		t.Fatalf("put after the directory went: %v", err)
	}
	Drain(dir, time.Second, func([]byte) error { return errors.New("bad") }, never)
	if aside, _ := Pending(SetAsideDir(dir)); len(aside) != 1 || Waiting(dir) {
		t.Errorf("set aside %v, waiting %v", aside, Waiting(dir))
	}
}

// TestKilledDrainLosesNothing: an entry a drain claimed and was killed
// before finishing is replayed by the next drain, in its place in time.
func TestKilledDrainLosesNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "spool")
	for i := range 3 {
		Put(dir, []byte(fmt.Sprint(i)), time.Unix(0, int64(i+1)))
	}
	files, _ := Pending(dir)
	if err := os.Rename(files[1], files[1]+".claimed"); err != nil { // the killed drain's claim
		t.Fatal(err)
	}
	var got []string
	res, err := Drain(dir, time.Second, func(b []byte) error { got = append(got, string(b)); return nil }, func(error) bool { return false })
	if res.Replayed != 3 || err != nil || fmt.Sprint(got) != "[0 1 2]" {
		t.Errorf("drain after a killed one: %+v %v %v", res, err, got)
	}
}

// TestDrainWaitsForTheLock: a drain while another holds the lock waits,
// then gives up with the entries kept.
func TestDrainWaitsForTheLock(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "spool")
	Put(dir, []byte("a"), time.Unix(0, 1))
	unlock, err := filelock.Lock(lockPath(dir), 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Drain(dir, 0, func([]byte) error { return nil }, func(error) bool { return false }); !errors.Is(err, filelock.ErrBusy) || !Waiting(dir) {
		t.Errorf("a drain while another holds the lock: %v", err)
	}
	unlock()
}
