//go:build !windows

package store

import (
	"context"
	"crypto/sha1"
	"fmt"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the process's user and system CPU so far: under a loaded
// machine it moves far less than wall time, so benchmarks here report it
// per op (cpu-ns/op) beside Go's wall-clock ns/op.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchLinks fills a store the way a big repository's would look: convs
// conversations, commits commits each linked to two of them, written in
// one transaction straight into the tables (the write path is not what is
// measured), each commit recorded from git a minute after the one before.
// It returns the linked commits' hashes and times, newest first.
func benchLinks(b *testing.B, convs, commits int) (*Store, []string, []int64) {
	b.Helper()
	ctx := context.Background()
	s := openTemp(b)
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	for i := range convs {
		title := ""
		if i%3 != 0 {
			title = fmt.Sprint("title ", i)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO conversations (conversationId, title, firstPrompt, agent, activityMs) VALUES (?, ?, ?, 'claude', ?)`,
			fmt.Sprintf("conv-%06d", i), title, fmt.Sprint("prompt ", i), i); err != nil {
			b.Fatal(err)
		}
	}
	hashes, secs := make([]string, commits), make([]int64, commits)
	for i := range commits {
		h := fmt.Sprintf("%x", sha1.Sum([]byte(fmt.Sprint(i)))) // random, as commit hashes are
		hashes[commits-1-i], secs[commits-1-i] = h, 1_700_000_000+60*int64(i)
		if _, err := tx.ExecContext(ctx, `INSERT INTO commits (commitHash, committedMs, gitMs) VALUES (?1, ?2, ?2)`, h, secs[commits-1-i]*1000); err != nil {
			b.Fatal(err)
		}
		for k := range 2 {
			if _, err := tx.ExecContext(ctx, `INSERT INTO links (conversationId, commitHash, confidence, status, createdAt) VALUES (?, ?, ?, 'auto', '')`,
				fmt.Sprintf("conv-%06d", (i*7+k*13)%convs), h, 0.5+float64(k)/4); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	return s, hashes, secs
}

// BenchmarkLogLinks1000: log -n 1000's links queries, in log's batches (32,
// then 128), against 100,000 conversations and 50,000 linked commits: by
// the commits' times, as the walk hands them, and by whole hashes, where
// no time is known.
func BenchmarkLogLinks1000(b *testing.B) {
	s, hashes, secs := benchLinks(b, 100_000, 50_000)
	ctx := context.Background()
	for _, timed := range []bool{true, false} {
		b.Run(map[bool]string{true: "by-time", false: "by-hash"}[timed], func(b *testing.B) {
			cpu := cpuTime()
			defer func() { b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op") }()
			for range b.N {
				n := 0
				for start, size := 0, 32; start < 1000; start, size = start+size, 128 {
					end := min(start+size, 1000)
					var ss []int64
					if timed {
						ss = secs[start:end]
					}
					got, err := s.LogLinksForCommits(ctx, hashes[start:end], ss)
					if err != nil {
						b.Fatal(err)
					}
					n += len(got)
				}
				if n != 1000 {
					b.Fatalf("linked commits %d, want 1000", n)
				}
			}
		})
	}
}

// BenchmarkBlameWriters: blame's line evidence for a file with 1,000
// blamed commits, each of which also wrote 30 lines in 10 other files (the
// issue's 31,140 rows read to use 1,773): all paths, against the blamed
// path only.
func BenchmarkBlameWriters(b *testing.B) {
	ctx := context.Background()
	s := openTemp(b)
	hashes := make([]string, 1000)
	for i := range hashes {
		hashes[i] = fmt.Sprintf("%040x", uint64(i+1)*0x9e3779b97f4a7c15)
		lines := []CommitLine{{Path: "hot.go", Line: i, ConversationID: "c"}, {Path: "hot.go", Line: i + 1, ConversationID: "c"}}
		for f := range 10 {
			for n := range 3 {
				lines = append(lines, CommitLine{Path: fmt.Sprintf("pkg/other%d.go", f), Line: n, ConversationID: "c"})
			}
		}
		if err := s.SetCommitLines(ctx, hashes[i], nil, lines); err != nil {
			b.Fatal(err)
		}
	}
	for _, bc := range []struct {
		name string
		read func() (int, error)
	}{
		{"all-paths", func() (int, error) {
			w, _, err := s.CommitLineWriters(ctx, hashes)
			return len(w), err
		}},
		{"blamed-path", func() (int, error) {
			w, _, err := s.CommitLineWritersIn(ctx, hashes, []string{"hot.go"})
			return len(w), err
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			cpu := cpuTime()
			for range b.N {
				if n, err := bc.read(); err != nil || n != len(hashes) {
					b.Fatalf("%d commits: %v", n, err)
				}
			}
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

// BenchmarkBulkWrites: 1,000 conversations of 10 events each and their
// enrichments, each through its own transaction (Store.RecordActivity,
// Store.ApplyEnrichment) against Bulk. events/s is the rate of events.
func BenchmarkBulkWrites(b *testing.B) {
	ctx := context.Background()
	const convs, events = 1000, 10
	for _, bc := range []struct {
		name  string
		write func(s *Store) error
	}{
		{"one-by-one", func(s *Store) error {
			for c := range convs {
				as, e := benchEvents(c, events, 1_700_000_000_000)
				for _, a := range as {
					if err := s.RecordActivity(ctx, a); err != nil {
						return err
					}
				}
				if err := s.ApplyEnrichment(ctx, e); err != nil {
					return err
				}
			}
			return nil
		}},
		{"bulk", func(s *Store) error {
			bulk := s.Bulk()
			for c := range convs {
				as, e := benchEvents(c, events, 1_700_000_000_000)
				for _, a := range as {
					if err := bulk.RecordActivity(ctx, a); err != nil {
						return err
					}
				}
				if err := bulk.ApplyEnrichment(ctx, e); err != nil {
					return err
				}
			}
			return bulk.Flush(ctx)
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var took time.Duration
			cpu := time.Duration(0)
			for range b.N {
				b.StopTimer()
				s := openTemp(b)
				b.StartTimer()
				start, c0 := time.Now(), cpuTime()
				if err := bc.write(s); err != nil {
					b.Fatal(err)
				}
				took += time.Since(start)
				cpu += cpuTime() - c0
				b.StopTimer()
				s.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(convs*events*b.N)/took.Seconds(), "events/s")
		})
	}
}
