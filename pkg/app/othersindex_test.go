package app

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/interop"
	"github.com/git-convo/git-convo/pkg/share/notes"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/util/testshared"
)

// notesRepo is a repository of n commits, each adding a line to a.go
// (made to hold 10 lines at the first), for other tools' notes.
type notesRepo struct {
	t       *testing.T
	dir     string
	commits []string
}

func newNotesRepo(t *testing.T, n int) *notesRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	r := &notesRepo{t: t, dir: t.TempDir()}
	r.git("init", "-q", "-b", "main")
	body := strings.Repeat("x\n", 10)
	for i := range n {
		body += "line " + strconv.Itoa(i) + "\n"
		if err := os.WriteFile(filepath.Join(r.dir, "a.go"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		r.git("add", "a.go")
		r.git("commit", "-q", "-m", "c"+strconv.Itoa(i))
		r.commits = append(r.commits, r.git("rev-parse", "HEAD"))
	}
	return r
}

func (r *notesRepo) git(args ...string) string {
	r.t.Helper()
	return r.gitIn(nil, args...)
}

func (r *notesRepo) gitIn(env []string, args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = r.dir
	cmd.Env = append(append(os.Environ(), "GIT_AUTHOR_NAME=A", "GIT_AUTHOR_EMAIL=a@b", "GIT_COMMITTER_NAME=A",
		"GIT_COMMITTER_EMAIL=a@b"), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// note adds (or replaces) commit's note on ref.
func (r *notesRepo) note(ref, commit, text string) {
	r.t.Helper()
	f := filepath.Join(r.t.TempDir(), "note")
	if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
		r.t.Fatal(err)
	}
	r.git("notes", "--ref="+ref, "add", "-f", "-F", f, commit)
}

// setNotes points ref at a new notes commit (parent: parent, "" none)
// holding exactly notes, at the paths given (flat or fanned out).
func (r *notesRepo) setNotes(ref, parent string, byPath map[string]string) string {
	r.t.Helper()
	env := []string{"GIT_INDEX_FILE=" + filepath.Join(r.t.TempDir(), "index")}
	for path, text := range byPath {
		f := filepath.Join(r.t.TempDir(), "note")
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			r.t.Fatal(err)
		}
		blob := r.git("hash-object", "-w", f)
		r.gitIn(env, "update-index", "--add", "--cacheinfo", "100644,"+blob+","+path)
	}
	tree := r.gitIn(env, "write-tree")
	args := []string{"commit-tree", tree, "-m", "notes"}
	if parent != "" {
		args = append(args, "-p", parent)
	}
	tip := r.git(args...)
	r.git("update-ref", ref, tip)
	return tip
}

func gitAINoteOf(commit, model string, from, to int) string {
	return "a.go\n  s_00112233445566::t_66554433221100 " + strconv.Itoa(from) + "-" + strconv.Itoa(to) + "\n  h_aabbccddeeff00 5\n---\n" +
		`{"schema_version":"authorship/3.0.0","base_commit_sha":"` + commit + `","prompts":{},` +
		`"sessions":{"s_00112233445566":{"agent_id":{"tool":"claude","id":"sess-1","model":"` + model + `"}}},` +
		`"humans":{"h_aabbccddeeff00":{"author":"Ann <ann@example.com>"}}}`
}

func agentTraceOf(commit string, from, to int) string {
	return `{"version":"0.1.0","id":"550e8400-e29b-41d4-a716-446655440000","timestamp":"2026-01-23T14:30:00Z",` +
		`"vcs":{"type":"git","revision":"` + commit + `"},"tool":{"name":"compass"},"files":[{"path":"a.go","conversations":[` +
		`{"url":"https://x.example/c/1","contributor":{"type":"ai","model_id":"openai/gpt-5"},"ranges":[{"start_line":` +
		strconv.Itoa(from) + `,"end_line":` + strconv.Itoa(to) + `}]}]}]}`
}

// openIndexStore is a links.sqlite file of its own.
func openIndexStore(t *testing.T) *store.Store {
	t.Helper()
	return openIndexStoreAt(t, filepath.Join(t.TempDir(), "links.sqlite"))
}

func openIndexStoreAt(t *testing.T, path string) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// fromIndex brings s's index up to date and answers for every commit.
func (r *notesRepo) fromIndex(s *store.Store) (map[string][]OtherWriter, []string) {
	r.t.Helper()
	ctx := context.Background()
	repo, g, refs := r.reader()
	x := NewOthersIndex(repo, refs)
	if x == nil {
		r.t.Fatalf("no index of %v", refs)
	}
	if !x.Update(ctx, s, interop.NewReader(repo, g, refs)) {
		r.t.Fatal("the index was not brought up to date")
	}
	ws, skips, err := x.Writers(ctx, s, r.commits)
	if err != nil {
		r.t.Fatal(err)
	}
	return ws, skipTexts(skips)
}

// fromNotes is what ReadWriters reads from the notes themselves.
func (r *notesRepo) fromNotes() (map[string][]OtherWriter, []string) {
	r.t.Helper()
	repo, g, refs := r.reader()
	rd := interop.NewReader(repo, g, refs)
	rd.ExpectMany()
	ws, skips, err := rd.ReadWriters(context.Background(), r.commits, nil)
	if err != nil {
		r.t.Fatal(err)
	}
	return ws, skipTexts(skips)
}

func (r *notesRepo) reader() (*gitx.Repo, notes.Git, []string) {
	r.t.Helper()
	g := notes.Git{Dir: r.dir}
	repo, ok := gitx.Discover(r.dir, os.Getenv)
	if !ok {
		r.t.Fatal("no repository")
	}
	return repo, g, interop.Refs(context.Background(), g)
}

func skipTexts(skips []interop.Skip) []string {
	var out []string
	for _, s := range skips {
		out = append(out, s.Error())
	}
	sort.Strings(out)
	return out
}

// agree holds the index's answers in s to the notes' own.
func (r *notesRepo) agree(s *store.Store, what string) {
	r.t.Helper()
	got, gotSkips := r.fromIndex(s)
	want, wantSkips := r.fromNotes()
	if !reflect.DeepEqual(got, want) {
		r.t.Errorf("%s: the index says\n%+v\nthe notes say\n%+v", what, got, want)
	}
	if !reflect.DeepEqual(gotSkips, wantSkips) {
		r.t.Errorf("%s: the index skips\n%q\nthe notes' read skips\n%q", what, gotSkips, wantSkips)
	}
	// And a fresh build agrees with the one brought up to date.
	fresh, freshSkips := r.fromIndex(openIndexStore(r.t))
	if !reflect.DeepEqual(got, fresh) || !reflect.DeepEqual(gotSkips, freshSkips) {
		r.t.Errorf("%s: brought up to date\n%+v %q\nbuilt afresh\n%+v %q", what, got, gotSkips, fresh, freshSkips)
	}
}

// TestOthersIndexAsRead: the index answers what ReadWriters reads from the
// notes, over the hostile notes the read tests build (escapes in a model
// name, a log copied onto another commit, 100,000 entries, a range past any
// file, claims past MaxClaimedLines, a note over 8 MiB, an Agent Trace
// record that does not validate) and git-ai's real notes.
func TestOthersIndexAsRead(t *testing.T) {
	r := newNotesRepo(t, 16)
	c := r.commits
	_, meta, _ := strings.Cut(gitAINoteOf(c[0], "m", 1, 1), "---\n")
	metaOf := func(commit string) string { return strings.Replace(meta, c[0], commit, 1) }
	r.note("refs/notes/ai", c[0], gitAINoteOf(c[0], "claude-sonnet-4-6", 1, 3))
	r.note("refs/notes/ai", c[1], gitAINoteOf(c[1], `\u001b]52;c;aGk=\u0007`, 1, 3)) // escapes
	r.note("refs/notes/ai", c[2], gitAINoteOf(c[0], "m", 1, 3))                      // about another commit
	var many strings.Builder
	many.WriteString("a.go\n")
	for i := range 100_000 {
		many.WriteString("  s_00112233445566::t_66554433221100 " + strconv.Itoa(i%2+1) + "\n")
	}
	r.note("refs/notes/ai", c[3], many.String()+"---\n"+metaOf(c[3]))
	r.note("refs/notes/ai", c[4], "a.go\n  s_00112233445566::t_66554433221100 1-999999999999\n---\n"+metaOf(c[4]))
	var wide strings.Builder
	wide.WriteString("a.go\n")
	for range 300 {
		wide.WriteString("  s_00112233445566::t_66554433221100 1-1000000\n")
	}
	r.note("refs/notes/ai", c[5], wide.String()+"---\n"+metaOf(c[5]))
	r.note("refs/notes/ai", c[6], "b.go\n  s_00112233445566::t_66554433221100 900-990\n"+ // past any file: read as written
		"a.go\n  s_00112233445566::t_66554433221100 2-6,4-9\n  h_aabbccddeeff00 1\n"+
		"b.go\n  h_aabbccddeeff00 3\n---\n"+metaOf(c[6]))
	big := filepath.Join(t.TempDir(), "big")
	if err := os.WriteFile(big, []byte(strings.Repeat("p", 9<<20)), 0o644); err != nil {
		t.Fatal(err)
	}
	r.git("notes", "--ref=refs/notes/ai", "add", "-f", "-F", big, c[7]) // over 8 MiB
	r.note("refs/notes/agent-trace", c[0], agentTraceOf(c[0], 3, 4)+"\n"+strings.Replace(agentTraceOf(c[0], 5, 6), `"ai"`, `"robot"`, 1)+"\n")
	r.note("refs/notes/agent-trace", c[8], `{"version":"2.0","ledger":{}}`)
	r.note("refs/notes/agent-trace", c[9], "["+agentTraceOf(c[9], 1, 2)+","+agentTraceOf(c[9], 2, 8)+"]")
	// git-ai's real notes: as written (about their own commits: skipped),
	// and each made about a commit here.
	if dir, ok := testshared.Fixture("git-ai", "notes"); ok {
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for i, e := range ents {
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			_, base, _ := strings.Cut(strings.TrimSuffix(e.Name(), ".txt"), "__")
			if i%2 == 0 {
				r.note("refs/notes/remotes/origin/ai", c[10+i%6], string(b))
			} else {
				r.note("refs/notes/remotes/origin/ai", c[10+i%6], strings.ReplaceAll(string(b), base, c[10+i%6]))
			}
		}
	} else {
		t.Log("no ../shared/fixtures/git-ai: git-ai's real notes not indexed")
	}
	// The same note on two refs counts once (interop.CompareRefs).
	r.note("refs/notes/remotes/origin/ai", c[0], gitAINoteOf(c[0], "claude-sonnet-4-6", 1, 3))
	s := openIndexStore(t)
	r.agree(s, "hostile and real notes")
	got, skips := r.fromIndex(s)
	if len(got[c[0]]) == 0 || len(got[c[6]]) == 0 || len(skips) < 8 {
		t.Errorf("the notes gave too little to compare: %d and %d writers, %d skips", len(got[c[0]]), len(got[c[6]]), len(skips))
	}
}

// TestOthersIndexIncremental: the index brought up to date note by note
// (added, edited, removed, moved to fanned-out paths, the ref rewritten to
// an unrelated history, the old tip gone) answers what the notes say and
// what an index built afresh says, reading only the notes that changed.
func TestOthersIndexIncremental(t *testing.T) {
	ctx := context.Background()
	r := newNotesRepo(t, 8)
	c := r.commits
	const ref = "refs/notes/ai"
	s := openIndexStore(t)
	r.note(ref, c[0], gitAINoteOf(c[0], "m0", 1, 3))
	r.note(ref, c[1], gitAINoteOf(c[1], "m1", 1, 4))
	r.note("refs/notes/agent-trace", c[0], agentTraceOf(c[0], 2, 5))
	r.agree(s, "first build")

	changed := func(old string) ([]interop.NoteBlob, bool) {
		t.Helper()
		repo, g, refs := r.reader()
		tip, _ := repo.RefTip(ref)
		ch, full, err := interop.NewReader(repo, g, refs).NoteChanges(ctx, ref, old, tip)
		if err != nil {
			t.Fatal(err)
		}
		return ch, full
	}
	tip := func() string { return r.git("rev-parse", ref) }

	old := tip()
	r.note(ref, c[2], gitAINoteOf(c[2], "m2", 2, 9))
	if ch, full := changed(old); full || len(ch) != 1 || ch[0].Commit != c[2] {
		t.Errorf("a note added: %+v (full %v)", ch, full)
	}
	r.agree(s, "a note added")

	old = tip()
	r.note(ref, c[0], gitAINoteOf(c[0], "m0-edited", 1, 7))
	if ch, full := changed(old); full || len(ch) != 1 || ch[0].Commit != c[0] || ch[0].Blob == "" {
		t.Errorf("a note edited: %+v (full %v)", ch, full)
	}
	r.agree(s, "a note edited")

	old = tip()
	r.git("notes", "--ref="+ref, "remove", c[1])
	if ch, full := changed(old); full || len(ch) != 1 || ch[0].Commit != c[1] || ch[0].Blob != "" {
		t.Errorf("a note removed: %+v (full %v)", ch, full)
	}
	r.agree(s, "a note removed")

	// The same notes fanned out (ab/cdef…, ab/cd/ef…), one more added: the
	// moved notes read as removed and added at once.
	old = tip()
	fan := map[string]string{
		c[0][:2] + "/" + c[0][2:]:                   gitAINoteOf(c[0], "m0-edited", 1, 7),
		c[2][:2] + "/" + c[2][2:4] + "/" + c[2][4:]: gitAINoteOf(c[2], "m2", 2, 9),
		c[3][:2] + "/" + c[3][2:]:                   gitAINoteOf(c[3], "m3", 1, 1),
	}
	r.setNotes(ref, old, fan)
	if ch, full := changed(old); full || len(ch) != 5 {
		t.Errorf("fanned out: %+v (full %v), want 2 removed, 3 added", ch, full)
	}
	r.agree(s, "fanned out")

	// Rewritten to an unrelated history (no parent in common): diffed all
	// the same while the old tip exists.
	old = tip()
	r.setNotes(ref, "", map[string]string{c[4]: gitAINoteOf(c[4], "m4", 1, 2), c[0]: gitAINoteOf(c[0], "m0-other", 3, 3)})
	if _, full := changed(old); full {
		t.Error("an unrelated history was rebuilt from scratch, its old tip still there")
	}
	r.agree(s, "rewritten to an unrelated history")

	// The old tip gone (the ref rewritten, its old commits pruned): the
	// one rebuild from scratch.
	old = tip()
	r.setNotes(ref, "", map[string]string{c[5]: gitAINoteOf(c[5], "m5", 1, 2)})
	r.git("reflog", "expire", "--expire=now", "--all")
	r.git("gc", "-q", "--prune=now")
	if r.gitIn(nil, "cat-file", "-t", tip()) != "commit" {
		t.Fatal("the new tip went too")
	}
	if ch, full := changed(old); !full || len(ch) != 1 {
		t.Errorf("old tip gone: %+v (full %v), want every note at the tip, from scratch", ch, full)
	}
	r.agree(s, "old tip gone")
	if ws, _ := r.fromIndex(s); len(ws[c[0]]) != 1 || ws[c[0]][0].Source != interop.SourceAgentTrace {
		t.Errorf("after the rebuild, commit 0: %+v, want the Agent Trace record only", ws[c[0]])
	}
}

// TestOthersIndexFallsBack: a store in memory (no links.sqlite) or a ref
// whose tip the ref files do not give leaves the read to the notes.
func TestOthersIndexFallsBack(t *testing.T) {
	r := newNotesRepo(t, 1)
	r.note("refs/notes/ai", r.commits[0], gitAINoteOf(r.commits[0], "m", 1, 2))
	repo, g, refs := r.reader()
	mem, err := store.OpenEmpty(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	x := NewOthersIndex(repo, refs)
	if x == nil || x.Update(context.Background(), mem, interop.NewReader(repo, g, refs)) {
		t.Error("an index in memory was used")
	}
	if NewOthersIndex(repo, []string{"refs/notes/none"}) != nil {
		t.Error("an index of a ref the files do not name")
	}
	db := filepath.Join(t.TempDir(), "links.sqlite")
	a := New(Config{Getenv: func(k string) string {
		if k == "GIT_CONVO_DB" {
			return db
		}
		return os.Getenv(k)
	}})
	if a.OthersIndexFor(repo, refs) != nil {
		t.Error("an index with no links.sqlite: a read never creates one")
	}
	openIndexStoreAt(t, db)
	if a.OthersIndexFor(repo, refs) == nil {
		t.Error("no index with a links.sqlite")
	}
	// A read-only links.sqlite (by its modes: the log would read the
	// notes, fail to write, and read them again).
	if err := os.Chmod(db, 0o400); err != nil {
		t.Fatal(err)
	}
	if a.OthersIndexFor(repo, refs) != nil {
		t.Error("an index in a read-only links.sqlite")
	}
}

// TestOthersIndexOneGitAINote: a commit has one git-ai note, the first of
// refs/notes/ai and the remotes' copies by name (interop.CompareRefs): the
// index answers from that note alone, as ReadWriters does, however the
// copies agree or differ, one names no writer, or the local note goes; an
// index an older version wrote (which counted every copy) is rebuilt.
func TestOthersIndexOneGitAINote(t *testing.T) {
	ctx := context.Background()
	r := newNotesRepo(t, 4)
	c := r.commits
	_, meta, _ := strings.Cut(gitAINoteOf(c[0], "m", 1, 1), "---\n")
	r.note("refs/notes/ai", c[0], gitAINoteOf(c[0], "local", 1, 3))
	r.note("refs/notes/remotes/origin/ai", c[0], gitAINoteOf(c[0], "local", 1, 3)) // the same note
	r.note("refs/notes/ai", c[1], gitAINoteOf(c[1], "local", 1, 3))
	r.note("refs/notes/remotes/origin/ai", c[1], gitAINoteOf(c[1], "remote", 1, 9)) // differs
	r.note("refs/notes/remotes/zed/ai", c[2], gitAINoteOf(c[2], "zed", 1, 9))
	r.note("refs/notes/remotes/alpha/ai", c[2], gitAINoteOf(c[2], "alpha", 1, 2))
	r.note("refs/notes/ai", c[3], "---\n"+strings.Replace(meta, c[0], c[3], 1)) // names no writer
	r.note("refs/notes/remotes/origin/ai", c[3], gitAINoteOf(c[3], "remote", 1, 9))
	r.note("refs/notes/agent-trace", c[0], agentTraceOf(c[0], 3, 4)) // another tool's: read beside it
	s := openIndexStore(t)
	r.agree(s, "copies on two refs")
	model := func(ws []OtherWriter) string {
		var out []string
		for _, w := range ws {
			out = append(out, w.Source+":"+w.Model+w.Person+":"+strconv.Itoa(w.Lines))
		}
		return strings.Join(out, " ")
	}
	want := []string{
		"git-ai:local:3 agent-trace:openai/gpt-5:2 git-ai:Ann <ann@example.com>:1",
		"git-ai:local:3 git-ai:Ann <ann@example.com>:1",
		"git-ai:alpha:2 git-ai:Ann <ann@example.com>:1",
		"",
	}
	got, skips := r.fromIndex(s)
	if len(skips) != 0 {
		t.Errorf("skips %q", skips)
	}
	for i, w := range want {
		if m := model(got[c[i]]); m != w {
			t.Errorf("commit %d: %q, want %q", i, m, w)
		}
	}

	// The local note gone: origin's copy answers.
	r.git("notes", "--ref=refs/notes/ai", "remove", c[1])
	r.agree(s, "the local note removed")
	if got, _ := r.fromIndex(s); model(got[c[1]]) != "git-ai:remote:9 git-ai:Ann <ann@example.com>:1" {
		t.Errorf("after the local note went: %q", model(got[c[1]]))
	}

	// An index written by version 1 (every copy counted, no row for a note
	// naming no writer) at the refs' tips: rebuilt, not used as it is.
	repo, _, refs := r.reader()
	old := openIndexStore(t)
	key := NewOthersIndex(repo, refs).key
	for _, ref := range refs {
		tip := r.git("rev-parse", ref)
		u := store.NotesUpdate{Tip: tip, Version: 1, Full: true,
			Notes: []store.IndexedNote{{Ref: ref, Commit: c[3], Writers: "stale"}}}
		if err := old.UpdateNotes(ctx, key, ref, u, 0); err != nil {
			t.Fatal(err)
		}
	}
	r.agree(old, "an index of version 1")
	tips, err := old.NotesTips(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	for ref, tip := range tips {
		if tip.Version != interop.IndexVersion {
			t.Errorf("%s: version %d after the update", ref, tip.Version)
		}
	}
}
