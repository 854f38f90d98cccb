//go:build !windows

package notes

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/store"
)

// cpu is the CPU time of this process (RUSAGE_SELF) or of the children it
// waited for (RUSAGE_CHILDREN: git).
func cpu(who int) time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(who, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkBlameNotes is blame's reading of teammates' notes on a
// generated history: the blamed commits' links, then their lines in the
// blamed file, clipped to each commit's diff. GIT_CONVO_BENCH_REPO is the
// repository, GIT_CONVO_BENCH_HASHES a file of the blamed commits (one a
// line), GIT_CONVO_BENCH_PATH the blamed file (scripts/bench.sh,
// BENCH=big); skipped without them. "twice, every file" is how blame read
// them before Keep and MergeLineWritersIn; "diffs kept" takes the clip's
// diffs from a links.sqlite a first read filled (UseAddedCache).
// own-cpu-ns/op is this process's CPU, cpu-ns/op with git's.
func BenchmarkBlameNotes(b *testing.B) {
	dir, list, path := os.Getenv("GIT_CONVO_BENCH_REPO"), os.Getenv("GIT_CONVO_BENCH_HASHES"), os.Getenv("GIT_CONVO_BENCH_PATH")
	if dir == "" || list == "" || path == "" {
		b.Skip("GIT_CONVO_BENCH_REPO, GIT_CONVO_BENCH_HASHES and GIT_CONVO_BENCH_PATH name a generated history")
	}
	data, err := os.ReadFile(list)
	if err != nil {
		b.Fatal(err)
	}
	hashes := strings.Fields(string(data))
	ctx := context.Background()
	kept, err := store.Open(ctx, filepath.Join(b.TempDir(), "links.sqlite"), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer kept.Close()
	for _, way := range []string{"twice, every file", "once, the blamed file", "once, the blamed file's diffs kept"} {
		once := way != "twice, every file"
		var cache AddedCache
		if strings.HasSuffix(way, "kept") {
			cache = kept
			warm := NewReader(ctx, dir) // the first blame keeps them
			warm.Keep()
			warm.UseAddedCache(cache)
			err := warm.MergeLineWritersIn(ctx, hashes, []string{path}, map[string]map[string]map[int]store.LineWriter{}, map[string]bool{})
			warm.Close()
			if err != nil {
				b.Fatal(err)
			}
		}
		b.Run(way, func(b *testing.B) {
			own, all := cpu(syscall.RUSAGE_SELF), cpu(syscall.RUSAGE_SELF)+cpu(syscall.RUSAGE_CHILDREN)
			for range b.N {
				rd := NewReader(ctx, dir)
				linked := map[string][]store.LinkedConversation{}
				writers, recorded := map[string]map[string]map[int]store.LineWriter{}, map[string]bool{}
				var err error
				if once {
					rd.Keep()
				}
				if cache != nil {
					rd.UseAddedCache(cache)
				}
				if err = rd.MergeLinked(ctx, hashes, linked); err == nil {
					if once {
						err = rd.MergeLineWritersIn(ctx, hashes, []string{path}, writers, recorded)
					} else {
						err = rd.MergeLineWriters(ctx, hashes, writers, recorded)
					}
				}
				rd.Close()
				if err != nil || len(linked) == 0 || len(writers) == 0 {
					b.Fatal(err, len(linked), len(writers))
				}
			}
			b.ReportMetric(float64(cpu(syscall.RUSAGE_SELF)-own)/float64(b.N), "own-cpu-ns/op")
			b.ReportMetric(float64(cpu(syscall.RUSAGE_SELF)+cpu(syscall.RUSAGE_CHILDREN)-all)/float64(b.N), "cpu-ns/op")
		})
	}
}
