//go:build !windows

package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/write/queue"
	"github.com/git-convo/git-convo/pkg/write/spool"
)

// TestHostileLostQueueRecordsAreCaughtUp (issue 28, item 10): the
// queue's append fails silently on a full disk, and the next drain
// recorded HEAD (and at most 8 commits made minutes before it) only. Now a
// drain records every unrecorded commit back to the last recorded one.
func TestHostileLostQueueRecordsAreCaughtUp(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("full")
	sb.convo(repo, "install", "--cursor=none")
	sb.write(repo, "a.txt", "recorded\n")
	anchor := sb.commit(repo, "recorded", "a.txt") // recorded in the foreground
	if b := sb.branchOf(anchor); b != "main" {
		t.Fatalf("the first commit is not recorded: %s", b)
	}
	// The disk is full: every append to the queue fails (a directory where
	// the file goes fails the same way, and the hook stays silent).
	q := filepath.Join(sb.queueDir(), queue.FileName)
	os.Remove(q)
	if err := os.MkdirAll(q, 0o700); err != nil {
		t.Fatal(err)
	}
	var lost []string
	when := time.Now().Add(-48 * time.Hour)
	for i := range 12 { // more than 8, an hour apart
		sb.write(repo, fmt.Sprintf("f%d.txt", i), "x\n")
		sb.run(repo, "git", "add", "-A")
		date := fmt.Sprintf("GIT_COMMITTER_DATE=%d +0000", when.Add(time.Duration(i)*time.Hour).Unix())
		r := sb.runEnv(repo, sb.with("GIT_CONVO_SYNC=", date), "", "git", "commit", "-q", "-m", fmt.Sprint("lost ", i))
		if r.code != 0 || r.stderr != "" {
			t.Fatalf("commit on a full disk: exit %d %q", r.code, r.stderr)
		}
		lost = append(lost, strings.TrimSpace(sb.run(repo, "git", "rev-parse", "HEAD")))
	}
	os.Remove(q) // room again: the next commit queues
	sb.write(repo, "z.txt", "z\n")
	sb.run(repo, "git", "add", "-A")
	sb.runQueued(repo, "git", "commit", "-q", "-m", "after")
	sb.convo(repo, "log", "-n", "1") // a read drains the queue
	for i, h := range lost {
		if b := sb.branchOf(h); b != "main" {
			t.Errorf("commit %d made while the queue could not be written: %s", i, b)
		}
	}
}

// TestHostileSpecialFilesNeverHangHooksOrReads (issue 28, item 11), end to end: a
// FIFO in the spool hung every drain, the Stop hook and a synchronous
// commit; a FIFO at the queue file blocked git commit. Each command runs
// under a timeout.
func TestHostileSpecialFilesNeverHangHooksOrReads(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("fifo")
	sb.convo(repo, "install", "--cursor=none")
	dir := spool.Dir(sb.linksDB)
	os.MkdirAll(dir, 0o700)
	if err := syscall.Mkfifo(filepath.Join(dir, "00000000000000000001-1-1.json"), 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	os.Symlink("/dev/zero", filepath.Join(dir, "00000000000000000002-1-1.json"))
	q := filepath.Join(sb.queueDir(), queue.FileName)
	os.Remove(q)
	if err := syscall.Mkfifo(q, 0o600); err != nil {
		t.Fatal(err)
	}
	sb.write(repo, "a.txt", "a\n")
	sb.run(repo, "git", "add", "-A")
	done := make(chan result, 1)
	go func() { done <- sb.runEnv(repo, sb.queued(), "", "git", "commit", "-q", "-m", "queued") }()
	select {
	case r := <-done:
		if r.code != 0 {
			t.Fatalf("commit: %d %s", r.code, r.stderr)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("git commit blocked on the FIFO at the queue file")
	}
	sb.write(repo, "b.txt", "b\n")
	sb.run(repo, "git", "add", "-A")
	// A synchronous commit drains the spool; the Stop hook too; a read too.
	for _, args := range [][]string{{"commit", "-q", "-m", "sync"}} {
		r := sb.runWithinGit(time.Minute, repo, args...)
		if r.code != 0 {
			t.Errorf("git %v: %d %s", args, r.code, r.stderr)
		}
	}
	sb.capture(repo, "conv-1", "stop", map[string]any{"status": "completed", "loop_count": 0})
	if r := sb.runWithin(time.Minute, repo, "log", "-n", "1"); r.code != 0 {
		t.Errorf("log: %d %s", r.code, r.stderr)
	}
	if fi, err := os.Lstat(q); err == nil && !fi.Mode().IsRegular() {
		t.Errorf("the FIFO at the queue file is still there after a drain")
	}
	if left, _ := spool.Pending(dir); len(left) != 0 {
		t.Errorf("spool entries left in place: %v", left)
	}
}
