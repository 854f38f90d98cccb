package notes

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/trace"
)

// floodNote is one commit's note holding n records, each by its own
// writer and conversation, over the same three files: the note a flood of
// teammates (or one hostile one) can push. Each record names commit, as a
// record must to be read as a claim on it.
func floodNote(commit string, n int) []byte {
	added := map[string][]gitx.AddedLine{}
	for _, p := range []string{"a.go", "b.go", "c.go"} {
		for l := 1; l <= 12; l++ {
			added[p] = append(added[p], gitx.AddedLine{Line: l, Text: fmt.Sprintf("line %d of %s", l, p)})
		}
	}
	recs := make([]trace.Record, 0, n)
	for i := range n {
		conv := fmt.Sprintf("conv-%05d", i)
		writers := map[string]map[int]string{}
		for p := range added {
			writers[p] = map[int]string{}
			for l := 1 + i%6; l <= 12; l += 3 {
				writers[p][l] = conv
			}
		}
		recs = append(recs, trace.Build(trace.Input{Commit: commit, Time: time.Unix(1700000000+int64(i), 0),
			Writer: fmt.Sprintf("clone-%05d", i), Added: added, Writers: writers,
			Links: []trace.Link{{ID: conv, Title: "title " + conv, Confidence: 0.5}}}))
	}
	return Encode(recs)
}

func benchmarkCombine(b *testing.B, n int) {
	note := floodNote("c0ffee", n)
	b.SetBytes(int64(len(note)))
	b.ResetTimer()
	for range b.N {
		_, _ = Combine(Decode(note)) // past the bounds: skipped
	}
}

// benchmarkMerge is the merge alone, past the bounds Decode keeps.
func benchmarkMerge(b *testing.B, n int) {
	var recs []trace.Record
	for _, line := range bytes.Split(bytes.TrimSpace(floodNote("c0ffee", n)), []byte{'\n'}) {
		var r trace.Record
		if err := json.Unmarshal(line, &r); err != nil {
			b.Fatal(err)
		}
		recs = append(recs, r)
	}
	b.ResetTimer()
	for range b.N {
		_ = trace.MergeAll(recs)
	}
}

func BenchmarkMergeAll1000(b *testing.B) { benchmarkMerge(b, 1000) }
func BenchmarkMergeAll4000(b *testing.B) { benchmarkMerge(b, 4000) }

func BenchmarkCombine1000(b *testing.B) { benchmarkCombine(b, 1000) }
func BenchmarkCombine4000(b *testing.B) { benchmarkCombine(b, 4000) }

// guard fails the test when fn runs past a minute: a regression takes
// minutes (a cubic merge) and must fail, not hang CI.
func guard(t *testing.T, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatalf("%s: still running after a minute", what)
	}
}

// rawNote puts text as the note of commit on Ref, as anyone who can push
// could, without git-convo.
func rawNote(t *testing.T, g Git, commit string, text []byte) {
	t.Helper()
	f := filepath.Join(t.TempDir(), "note")
	if err := os.WriteFile(f, text, 0o600); err != nil {
		t.Fatal(err)
	}
	git(t, g, "", "notes", "--ref="+Ref, "add", "-f", "-F", f, commit)
}

// TestHostileNotesAreBounded (issue 28, item 9): a note of 2,000 records (5.6 MB)
// merged in about cubic time (minutes) and a note of any size was decoded.
// Now the records are merged in one pass, those past MaxNoteRecords are
// skipped, a note over MaxNoteBytes is never decoded nor held (by the
// in-process reader, by cat-file, or by a writer, which leaves it as it
// is), and Bounds counts what was skipped.
func TestHostileNotesAreBounded(t *testing.T) {
	ctx := context.Background()
	g, hs := repoWithCommits(t, 3)
	flood := floodNote(hs[0], MaxNoteRecords+1000)
	if len(flood) > MaxNoteBytes {
		t.Fatalf("the flood is %d bytes, over the byte bound: it tests nothing", len(flood))
	}
	rawNote(t, g, hs[0], flood)
	huge := bytes.Repeat([]byte(`{"files":[],"x":"`+strings.Repeat("y", 1000)+`"}`+"\n"), MaxNoteBytes/1000+10)
	rawNote(t, g, hs[1], huge)
	t.Setenv("HOME", os.Getenv("HOME")) // the reader runs git with the process's environment
	for _, kv := range g.Env {
		if k, v, ok := strings.Cut(kv, "="); ok && (k == "HOME" || strings.HasPrefix(k, "GIT_")) {
			t.Setenv(k, v)
		}
	}
	for _, inProcess := range []bool{true, false} {
		guard(t, "reading the notes", func() {
			rd := NewReader(ctx, g.Dir)
			defer rd.Close()
			<-rd.ready
			if !inProcess {
				rd.local = nil
			}
			recs, err := rd.Records(ctx, hs)
			if err != nil {
				t.Fatal(err)
			}
			r, ok := recs[hs[0]]
			m, _ := r.Meta()
			if !ok || len(m.Conversations) != MaxNoteRecords {
				t.Errorf("in process %v: the flooded note gives %d conversations, want the first %d", inProcess, len(m.Conversations), MaxNoteRecords)
			}
			if _, ok := recs[hs[1]]; ok {
				t.Errorf("in process %v: the note over %d bytes was decoded", inProcess, MaxNoteBytes)
			}
		})
	}
	o, err := g.Bounds(ctx, []string{Ref})
	if err != nil || o != (Over{TooLarge: 1, TooMany: 1, RecordsSkipped: 1000}) {
		t.Errorf("Bounds = %+v, %v", o, err)
	}
	// A writer leaves the note over the bound as it is, and writes the others.
	n, err := g.Write(ctx, map[string]*trace.Record{hs[1]: record(hs[1], "me", "c"), hs[2]: record(hs[2], "me", "c")}, "me", "m")
	if err != nil || n != 1 {
		t.Errorf("Write = %d, %v; want 1 (the huge note untouched)", n, err)
	}
	if got := git(t, g, "", "notes", "--ref="+Ref, "show", hs[1]); len(got) < MaxNoteBytes {
		t.Errorf("the huge note was rewritten: %d bytes", len(got))
	}
}

// TestMergeAllIsTheFold: merging in one pass gives what folding Merge over
// the records gives.
func TestMergeAllIsTheFold(t *testing.T) {
	recs := Decode(floodNote("c0ffee", 7))
	recs = append(recs, *record("c0ffee", "clone-00002", "conv-00002"), *record("c0ffee", "other", "conv-new"))
	fold := recs[0]
	for _, r := range recs[1:] {
		fold = trace.Merge(fold, r)
	}
	all := trace.MergeAll(recs)
	a, _ := json.Marshal(all)
	f, _ := json.Marshal(fold)
	if !bytes.Equal(a, f) {
		t.Errorf("MergeAll:\n%s\nfold of Merge:\n%s", a, f)
	}
}
