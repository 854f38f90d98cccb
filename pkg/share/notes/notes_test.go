package notes

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/trace"
	"github.com/git-convo/git-convo/pkg/store"
)

// gitEnv isolates git from the user's configuration.
func gitEnv(t testing.TB) []string {
	home := t.TempDir()
	cfg := filepath.Join(home, "gitconfig")
	os.WriteFile(cfg, []byte("[user]\n\tname = T\n\temail = t@example.com\n[init]\n\tdefaultBranch = main\n"), 0o644)
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") && !strings.HasPrefix(kv, "HOME=") {
			env = append(env, kv)
		}
	}
	return append(env, "HOME="+home, "GIT_CONFIG_GLOBAL="+cfg, "GIT_CONFIG_NOSYSTEM=1")
}

func git(t testing.TB, g Git, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = g.Dir, g.Env
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// repoWithCommits makes a repository with n commits, each adding one line
// to its own file, in one fast-import; it returns their hashes, oldest first.
func repoWithCommits(t testing.TB, n int) (Git, []string) {
	t.Helper()
	g := Git{Dir: t.TempDir(), Env: gitEnv(t)}
	git(t, g, "", "init", "-q")
	var s strings.Builder
	for i := 1; i <= n; i++ {
		body := fmt.Sprintf("line %d of work\n", i)
		fmt.Fprintf(&s, "commit refs/heads/main\nmark :%d\ncommitter T <t@example.com> %d +0000\ndata 2\nc\n", i, 1700000000+i)
		if i > 1 {
			fmt.Fprintf(&s, "from :%d\n", i-1)
		}
		fmt.Fprintf(&s, "M 100644 inline f%d.txt\ndata %d\n%s\n", i, len(body), body)
	}
	git(t, g, s.String(), "fast-import", "--quiet")
	hashes := strings.Fields(git(t, g, "", "rev-list", "--reverse", "main"))
	if len(hashes) != n {
		t.Fatalf("%d commits, want %d", len(hashes), n)
	}
	return g, hashes
}

func record(commit, writer, conv string) *trace.Record {
	r := trace.Build(trace.Input{Commit: commit, Time: time.Unix(1700000000, 0), Writer: writer,
		Links: []trace.Link{{ID: conv, Title: "t " + conv, Confidence: 0.5}}})
	return &r
}

func TestWriteKeepsOtherWriters(t *testing.T) {
	ctx := context.Background()
	g, hs := repoWithCommits(t, 3)
	if n, err := g.Write(ctx, map[string]*trace.Record{hs[0]: record(hs[0], "a@x", "ca"), hs[1]: record(hs[1], "a@x", "ca")}, "a@x", "m"); err != nil || n != 2 {
		t.Fatalf("write: %d %v", n, err)
	}
	if n, _ := g.Write(ctx, map[string]*trace.Record{hs[0]: record(hs[0], "a@x", "ca")}, "a@x", "m"); n != 0 {
		t.Errorf("rewriting the same record changed %d notes", n)
	}
	if _, err := g.Write(ctx, map[string]*trace.Record{hs[0]: record(hs[0], "b@x", "cb")}, "b@x", "m"); err != nil {
		t.Fatal(err)
	}
	texts, err := g.Read(ctx, []string{Ref}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if recs := Decode(texts[hs[0]]); len(recs) != 2 {
		t.Fatalf("two writers, one note: %s", texts[hs[0]])
	}
	merged, _ := Combine(Decode(texts[hs[0]]))
	if m, _ := merged.Meta(); len(m.Conversations) != 2 {
		t.Errorf("combined: %+v", m.Conversations)
	}
	// a@x unlinks everything: only b@x's record stays; then b@x too: no note.
	g.Write(ctx, map[string]*trace.Record{hs[0]: nil}, "a@x", "m")
	texts, _ = g.Read(ctx, []string{Ref}, map[string]bool{hs[0]: true})
	if recs := Decode(texts[hs[0]]); len(recs) != 1 || !strings.Contains(string(texts[hs[0]]), "cb") {
		t.Errorf("after a@x's removal: %s", texts[hs[0]])
	}
	g.Write(ctx, map[string]*trace.Record{hs[0]: nil}, "b@x", "m")
	if out := git(t, g, "", "notes", "--ref=convo", "list"); strings.Contains(out, hs[0]) {
		t.Errorf("an empty note is left: %s", out)
	}
	if parents := strings.Fields(git(t, g, "", "rev-list", "--count", Ref)); parents[0] != "4" {
		t.Errorf("each write is one notes commit on top of the last: %v", parents)
	}
}

func TestDecodeSkipsForeignText(t *testing.T) {
	good := record("abc", "w", "c")
	newer := record("abc", "w", "c2")
	m, _ := newer.Meta()
	m.Format = trace.Format + 1
	newer.SetMeta(m)
	text := string(Encode([]trace.Record{*good, *newer})) + "not json\n{\"files\": null}\n"
	recs := Decode([]byte(text))
	if len(recs) != 1 {
		t.Errorf("decoded %d records from %q, want only the one of a known format", len(recs), text)
	}
	if Encode(nil) != nil {
		t.Error("no records, no note")
	}
}

func TestReaderMergesRefsAndDerived(t *testing.T) {
	ctx := context.Background()
	g, hs := repoWithCommits(t, 3)
	g.Write(ctx, map[string]*trace.Record{hs[0]: record(hs[0], "a@x", "ca")}, "a@x", "m")
	// A teammate's notes, as a fetch leaves them in a tracking ref.
	git(t, g, "", "update-ref", TrackingRef("origin"), Ref)
	g.Write(ctx, map[string]*trace.Record{hs[0]: record(hs[0], "a@x", "ca2"), hs[1]: record(hs[1], "a@x", "cb")}, "a@x", "m")
	if err := g.SaveDerived(ctx, map[string]trace.Record{hs[2]: *record(hs[2], "a@x", "cs")}); err != nil {
		t.Fatal(err)
	}
	rd := NewReader(ctx, g.Dir)
	defer rd.Close()
	linked := map[string][]store.LinkedConversation{hs[1]: {{Link: store.Link{ConversationID: "cb", Source: "hook"}}}}
	if err := rd.MergeLinked(ctx, hs, linked); err != nil {
		t.Fatal(err)
	}
	ids := func(h string) []string {
		var out []string
		for _, lc := range linked[h] {
			out = append(out, lc.ConversationID+":"+Origin(lc.Source))
		}
		return out
	}
	// The tracking ref is an ancestor of the live ref: merged whole, so
	// a@x's older record there (ca) is not read beside its rewrite (ca2).
	if got := strings.Join(ids(hs[0]), " "); got != "ca2:notes" {
		t.Errorf("commit 0 (local note, and the merged tracking ref's older one): %s", got)
	}
	if got := ids(hs[1]); len(got) != 1 || got[0] != "cb:local" || linked[hs[1]][0].Conv.Title != "t cb" {
		t.Errorf("commit 1 (linked locally too): %v %+v", got, linked[hs[1]])
	}
	if got := ids(hs[2]); len(got) != 1 || got[0] != "cs:notes" {
		t.Errorf("commit 2 (derived): %v", got)
	}
}

// TestReaderReadsUnmergedRefs: a tracking ref the live ref has not merged
// (a teammate's notes a fetch brought) is read beside it; one it has merged
// whole is not, so this clone's own record rewritten since (an unlink) is
// not read with its older copy (the ref's tip reached within mergedMax
// commits; past that, or where the files cannot tell, it is read).
func TestReaderReadsUnmergedRefs(t *testing.T) {
	ctx := context.Background()
	g, hs := repoWithCommits(t, 1)
	g.Write(ctx, map[string]*trace.Record{hs[0]: record(hs[0], "a@x", "ca")}, "a@x", "m")
	// The teammate's history, not merged here: its own notes commit.
	teammate := string(Encode([]trace.Record{*record(hs[0], "b@x", "cb")}))
	blob := strings.TrimSpace(git(t, g, teammate, "hash-object", "-w", "--stdin"))
	tree := strings.TrimSpace(git(t, g, "100644 blob "+blob+"\t"+hs[0]+"\n", "mktree"))
	tip := strings.TrimSpace(git(t, g, "", "commit-tree", tree, "-m", "b's notes"))
	git(t, g, "", "update-ref", TrackingRef("origin"), tip)
	read := func() string {
		t.Helper()
		rd := NewReader(ctx, g.Dir)
		defer rd.Close()
		recs, err := rd.Records(ctx, hs)
		if err != nil {
			t.Fatal(err)
		}
		return convsOf(recs[hs[0]])
	}
	if got := read(); got != "ca cb" {
		t.Errorf("a teammate's unmerged notes: %q, want ca cb", got)
	}
	// Merged, then a@x rewrites its record: the tracking ref is an
	// ancestor of the live ref, and a@x's older record is not read.
	if _, err := g.Merge(ctx, TrackingRef("origin"), "a@x"); err != nil {
		t.Fatal(err)
	}
	git(t, g, "", "update-ref", TrackingRef("origin"), Ref)
	g.Write(ctx, map[string]*trace.Record{hs[0]: record(hs[0], "a@x", "ca2")}, "a@x", "m")
	if got := read(); got != "ca2 cb" {
		t.Errorf("after a@x's rewrite of its merged record: %q, want ca2 cb", got)
	}
	// More writes since the merge than mergedMax: the ref is read as
	// before (both of a@x's records).
	for i := range mergedMax {
		g.Write(ctx, map[string]*trace.Record{hs[0]: record(hs[0], "a@x", fmt.Sprint("ca", 3+i))}, "a@x", "m")
	}
	if got := read(); !slices.Contains(strings.Fields(got), "ca") {
		t.Errorf("past the bound, the merged ref is read (a@x's record there, ca, too): %q", got)
	}
}

// benchStore is a links.sqlite holding n linked commits of g, each with
// its added line written by a conversation.
func benchStore(b testing.TB, g Git, hashes []string) *store.Store {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(b.TempDir(), "links.sqlite"), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	repo, err := gitx.Open(ctx, g.Dir, false)
	if err != nil {
		b.Fatal(err)
	}
	for i, h := range hashes {
		conv := fmt.Sprintf("conv-%d", i%50)
		st.UpsertCommit(ctx, store.Commit{Hash: h, RepoPath: repo.TopLevel, RepoKey: repo.CommonDir, Files: []string{fmt.Sprintf("f%d.txt", i+1)}, CommittedAt: time.Unix(1700000000, 0)})
		st.AddAutoLinks(ctx, h, []store.Link{{ConversationID: conv, Confidence: 0.8, Reason: "1 of 1 added lines", WrittenLines: 1, AddedLines: 1}})
		st.SetCommitLines(ctx, h, nil, []store.CommitLine{{Path: fmt.Sprintf("f%d.txt", i+1), Line: 1, ConversationID: conv}})
	}
	return st
}

// BenchmarkShareOn5000 writes the notes of 5,000 linked commits, as
// `git convo share on` does (one build, one fast-import).
func BenchmarkShareOn5000(b *testing.B) {
	ctx := context.Background()
	g, hashes := repoWithCommits(b, 5000)
	st := benchStore(b, g, hashes)
	defer st.Close()
	s := Settings{On: true, Writer: "t@example.com"}
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		git(b, g, "", "update-ref", "-d", Ref)
		b.StartTimer()
		n, err := g.Update(ctx, st, hashes, s, "bench")
		if err != nil || n != 5000 {
			b.Fatalf("%d notes, %v", n, err)
		}
	}
}

// BenchmarkReadNotes1000 reads the shared records of 1,000 commits in
// batches of 32, then 128: the first by path, the rest from the listing
// (log itself has git print the notes, see NewInlineReaderAfter).
func BenchmarkReadNotes1000(b *testing.B) {
	ctx := context.Background()
	g, hashes := repoWithNotes(b, 1000)
	b.ResetTimer()
	for range b.N {
		rd := NewReader(ctx, g.Dir)
		for i, size := 0, 32; i < len(hashes); i, size = i+size, 128 {
			got, err := rd.Records(ctx, hashes[i:min(i+size, len(hashes))])
			if err != nil || len(got) == 0 {
				b.Fatal(err)
			}
		}
		rd.Close()
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(Encode([]trace.Record{*record("abc", "w", "c")}))
	f.Add([]byte("{\"files\":[]}\nnot json\n{"))
	f.Fuzz(func(t *testing.T, b []byte) {
		recs := Decode(b)
		again := Decode(Encode(recs))
		if len(again) != len(Decode(Encode(again))) {
			t.Fatalf("Encode/Decode is not stable on %q", b)
		}
		if r, ok := Combine(recs); ok {
			_ = Linked("abc", r)
		}
	})
}

func TestShareOnNamesEachClone(t *testing.T) {
	ctx := context.Background()
	var writers []string
	for range 2 { // one person's two clones: the same user.email
		g, _ := repoWithCommits(t, 1)
		if err := g.SetShare(ctx, true, false, ""); err != nil {
			t.Fatal(err)
		}
		g.SetShare(ctx, true, false, "") // a second share on keeps the name
		s, err := g.Settings(ctx)
		if err != nil || !s.On || !strings.HasPrefix(s.Writer, "clone-") {
			t.Fatalf("settings: %+v %v", s, err)
		}
		writers = append(writers, s.Writer)
	}
	if writers[0] == writers[1] {
		t.Errorf("two clones share the writer name %s: their records would replace each other", writers[0])
	}
}

func TestRefsFromFilesLooseAndPacked(t *testing.T) {
	ctx := context.Background()
	g, hs := repoWithCommits(t, 2)
	if refs, ok := g.refsFromFiles(); !ok || len(refs) != 0 {
		t.Fatalf("no notes yet: %v %v", refs, ok)
	}
	g.Write(ctx, map[string]*trace.Record{hs[0]: record(hs[0], "a@x", "ca")}, "a@x", "m")
	git(t, g, "", "update-ref", TrackingRef("origin"), Ref)
	git(t, g, "", "update-ref", "refs/notes/remotes/origin/other", Ref)
	want := []string{Ref, TrackingRef("origin")}
	for _, pack := range []bool{false, true} {
		if pack {
			git(t, g, "", "pack-refs", "--all")
		}
		refs, ok := g.refsFromFiles()
		if !ok || strings.Join(refs, " ") != strings.Join(want, " ") {
			t.Errorf("packed %v: %v %v, want %v", pack, refs, ok, want)
		}
	}
}

// TestReaderFindsFannedOutNotes: with many notes git stores them under
// fan-out directories; the reader, which asks by path, finds them there as
// well as flat ones.
func TestReaderFindsFannedOutNotes(t *testing.T) {
	ctx := context.Background()
	g, hashes := repoWithCommits(t, 600)
	recs := map[string]*trace.Record{}
	for _, h := range hashes[:300] {
		recs[h] = record(h, "t@example.com", "conv")
	}
	if _, err := g.Write(ctx, recs, "t@example.com", "m"); err != nil {
		t.Fatal(err)
	}
	if top := git(t, g, "", "ls-tree", Ref); !strings.Contains(top, " tree ") {
		t.Fatalf("300 notes are not fanned out; the test needs a fanned-out tree:\n%.300s", top)
	}
	// Few at a time, as show asks (by path), and all at once (listed).
	for _, size := range []int{byPathMax, len(hashes)} {
		rd := NewReader(ctx, g.Dir)
		got := map[string]trace.Record{}
		for i := 0; i < len(hashes); i += size {
			part, err := rd.Records(ctx, hashes[i:min(i+size, len(hashes))])
			if err != nil {
				t.Fatal(err)
			}
			maps.Copy(got, part)
		}
		rd.Close()
		checkFannedOut(t, got, hashes[:300])
	}
}

func checkFannedOut(t *testing.T, got map[string]trace.Record, want []string) {
	t.Helper()
	if len(got) != 300 {
		t.Fatalf("%d records, want 300", len(got))
	}
	for _, h := range want {
		rec := got[h]
		if m, _ := rec.Meta(); len(m.Conversations) != 1 {
			t.Errorf("%s: %+v", h, m)
		}
	}
}

// BenchmarkReadNotesShow is show's read: a fresh reader and one commit's
// note among 1,000.
func BenchmarkReadNotesShow(b *testing.B) {
	ctx := context.Background()
	g, hashes := repoWithNotes(b, 1000)
	b.ResetTimer()
	for range b.N {
		rd := NewReader(ctx, g.Dir)
		if got, err := rd.Records(ctx, hashes[5:6]); err != nil || len(got) != 1 {
			b.Fatal(err)
		}
		rd.Close()
	}
}

// repoWithNotes makes n commits, each with a note of one conversation.
func repoWithNotes(b *testing.B, n int) (Git, []string) {
	g, hashes := repoWithCommits(b, n)
	recs := map[string]*trace.Record{}
	for _, h := range hashes {
		recs[h] = record(h, "t@example.com", "conv")
	}
	if _, err := g.Write(context.Background(), recs, "t@example.com", "m"); err != nil {
		b.Fatal(err)
	}
	return g, hashes
}

// TestReaderOwnRecordsFromLive: where a tracking ref the live ref has not
// merged holds this clone's older record (a plain git fetch moved it after
// an unlink here), this clone's records are read from the live ref alone,
// a teammate's from both; Records and the %N reader's flag agree.
func TestReaderOwnRecordsFromLive(t *testing.T) {
	ctx := context.Background()
	g, hs := repoWithCommits(t, 2)
	git(t, g, "", "config", KeyWriter, "a@x")
	// The remote's history: a@x's older record on both commits, b@x's on
	// the second; not merged here.
	older := string(Encode([]trace.Record{*record(hs[0], "a@x", "ca")}))
	both := string(Encode([]trace.Record{*record(hs[1], "a@x", "ca"), *record(hs[1], "b@x", "cb")}))
	b0 := strings.TrimSpace(git(t, g, older, "hash-object", "-w", "--stdin"))
	b1 := strings.TrimSpace(git(t, g, both, "hash-object", "-w", "--stdin"))
	tree := strings.TrimSpace(git(t, g, "100644 blob "+b0+"\t"+hs[0]+"\n100644 blob "+b1+"\t"+hs[1]+"\n", "mktree"))
	git(t, g, "", "update-ref", TrackingRef("origin"), strings.TrimSpace(git(t, g, "", "commit-tree", tree, "-m", "the remote's notes")))
	// Here: a@x's record rewritten on the first commit, removed on the second.
	g.Write(ctx, map[string]*trace.Record{hs[0]: record(hs[0], "a@x", "ca2")}, "a@x", "m")
	rd := NewReader(ctx, g.Dir)
	defer rd.Close()
	if !rd.OwnFromLive() {
		t.Error("an unmerged tracking ref with this clone's writer configured: OwnFromLive false")
	}
	recs, err := rd.Records(ctx, hs)
	if err != nil {
		t.Fatal(err)
	}
	ids := func(h string) string { return convsOf(recs[h]) }
	if got := ids(hs[0]); got != "ca2" {
		t.Errorf("commit 0: %q, want ca2 (a@x's live record only)", got)
	}
	if got := ids(hs[1]); got != "cb" {
		t.Errorf("commit 1: %q, want cb (a@x's record gone here, b@x's from the tracking ref)", got)
	}
	// The same through the index of every note (All; Records of many).
	if recs, err = rd.All(ctx); err != nil {
		t.Fatal(err)
	}
	if got0, got1 := ids(hs[0]), ids(hs[1]); got0 != "ca2" || got1 != "cb" {
		t.Errorf("All: %q, %q; want ca2, cb", got0, got1)
	}
}

// convsOf is the conversations a record's metadata names, sorted, spaced.
func convsOf(rec trace.Record) string {
	m, _ := rec.Meta()
	ids := slices.Sorted(maps.Keys(m.Conversations))
	return strings.Join(ids, " ")
}
