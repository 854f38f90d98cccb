//go:build !windows

package hookrun

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/agents/cursor"
	"github.com/git-convo/git-convo/pkg/write/queue"
	"github.com/git-convo/git-convo/pkg/write/spool"
)

// cpuTime is the process's user and system CPU so far: on a loaded
// machine it moves far less than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// spoolEdits spools n afterFileEdit events of one conversation across 20
// files, as an agent's turn leaves them for its stop.
func spoolEdits(r *rig, n int) {
	cur := cursor.Source{Getenv: r.o.Getenv}
	for i := range n {
		p := filepath.Join(r.repo, fmt.Sprintf("f%02d.go", i%20))
		body := fmt.Sprintf("package a\n\nvar v%d = %d\n", i, i)
		os.WriteFile(p, []byte(body), 0o600)
		r.capture(cur, "", map[string]any{"conversation_id": "c1", "generation_id": fmt.Sprint("g", i/10), "hook_event_name": "afterFileEdit",
			"workspace_roots": []string{r.repo}, "file_path": p, "edits": []map[string]string{{"old_string": "", "new_string": body}}})
	}
}

// BenchmarkReplay200: the end of a turn's replay of 200 spooled edits
// (DrainSpool), per event; cpu-ns/event is the process's CPU.
func BenchmarkReplay200(b *testing.B) {
	const n = 200
	r := newRig(b)
	r.env["GIT_CONVO_SYNC"] = ""
	var wall, cpu time.Duration
	for range b.N {
		b.StopTimer()
		spoolEdits(r, n)
		if got, _ := spool.Pending(spool.Dir(r.o.DBPath)); len(got) != n {
			b.Fatalf("%d spooled, want %d", len(got), n)
		}
		b.StartTimer()
		t0, c0 := time.Now(), cpuTime()
		r.o.DrainSpool(context.Background(), nil, time.Minute)
		wall, cpu = wall+time.Since(t0), cpu+cpuTime()-c0
		if spool.Waiting(spool.Dir(r.o.DBPath)) {
			b.Fatal("events left in the spool")
		}
	}
	b.ReportMetric(float64(wall)/float64(b.N*n), "ns/event")
	b.ReportMetric(float64(cpu)/float64(b.N*n), "cpu-ns/event")
}

// cpuWithChildren is cpuTime plus the CPU of the child processes waited
// for (git): the drain's work is mostly git's.
func cpuWithChildren() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru)
	return cpuTime() + time.Duration(ru.Utime.Nano()+ru.Stime.Nano())
}

// BenchmarkDrain50: recording 50 queued commits (each adding 20 lines to
// one of 10 files) in one drain, per commit; cpu-ns/commit counts git's
// processes too.
func BenchmarkDrain50(b *testing.B) {
	const n = 50
	r := newRig(b)
	r.env["GIT_CONVO_SYNC"] = ""
	ctx := context.Background()
	var wall, cpu time.Duration
	k := 0
	for range b.N {
		b.StopTimer()
		for range n {
			p := filepath.Join(r.repo, fmt.Sprintf("f%d.go", k%10))
			f, _ := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
			for l := range 20 {
				fmt.Fprintf(f, "var v%d_%d = %d\n", k, l, l)
			}
			f.Close()
			git(b, r.repo, "add", ".")
			git(b, r.repo, "commit", "-q", "-m", fmt.Sprint("commit ", k))
			if err := queue.Append(queue.Dir(r.o.DBPath), queue.Record{Hook: "post-commit", Dir: r.repo}); err != nil {
				b.Fatal(err)
			}
			k++
		}
		b.StartTimer()
		t0, c0 := time.Now(), cpuWithChildren()
		r.o.DrainQueue(ctx, nil, time.Minute)
		wall, cpu = wall+time.Since(t0), cpu+cpuWithChildren()-c0
		if queue.Waiting(queue.Dir(r.o.DBPath)) != 0 {
			b.Fatal("commits left in the queue")
		}
	}
	if got := r.query(`SELECT count(*) FROM commits`); got != fmt.Sprint(n*b.N+1) { // and the rig's first commit
		b.Fatalf("%s commits recorded, want %d", got, n*b.N+1)
	}
	b.ReportMetric(float64(wall)/float64(b.N*n), "ns/commit")
	b.ReportMetric(float64(cpu)/float64(b.N*n), "cpu-ns/commit")
}
