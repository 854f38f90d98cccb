package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-convo/git-convo/pkg/app"
	"github.com/git-convo/git-convo/pkg/mcpserver"
	"github.com/git-convo/git-convo/pkg/share/fetchwatch"
	"github.com/git-convo/git-convo/pkg/share/notes"
	"github.com/git-convo/git-convo/pkg/util/mstime"
)

// A squash merge made on the server arrives by a bare git fetch, which runs
// no hook: the next read command notices the fetch (FETCH_HEAD against
// git-convo's stamp) and attributes the squash before it answers.

// primed fetches and reads once in B, so that B's stamp exists before the
// squash arrives: the next fetch is then examined by what it moved.
func primed(t *testing.T, b teammate) {
	t.Helper()
	b.run(b.dir, "git", "fetch", "-q")
	b.convo(b.dir, "log", "-n", "1")
	if _, err := os.Stat(stampOf(b)); err != nil {
		t.Fatalf("no stamp after a fetch and a read: %v", err)
	}
}

func stampOf(b teammate) string { return filepath.Join(b.dir, ".git", fetchwatch.StampName) }

// checkNamesSquash checks that show and log of rev name each conversation
// of sources (conversation -> short sha) with the reason "squash of <sha>".
func checkNamesSquash(t *testing.T, b teammate, dir, rev string, sources map[string]string) {
	t.Helper()
	var logged showJSON
	if err := json.Unmarshal([]byte(b.convo(dir, "log", "--json", "-n", "1", rev)), &logged); err != nil {
		t.Fatal(err)
	}
	for what, got := range map[string]showJSON{"show": b.showJSON(dir, rev), "log": logged} {
		byID := map[string]conversationJSON{}
		for _, c := range got.Conversations {
			byID[c.ID] = c
		}
		for id, src := range sources {
			if c, ok := byID[id]; !ok || !strings.HasPrefix(c.Reason, "squash of "+src+": ") || c.Title == "" || c.Origin != "notes" {
				t.Errorf("B's %s %s, conversation %s: %+v (all: %+v)", what, rev, id, c, got.Conversations)
			}
		}
	}
}

func TestSquashAttributedAfterBareFetch(t *testing.T) {
	for _, tc := range []struct {
		name             string
		prime, worktree  bool
		share, readInWT  bool
		gitDir           bool // the read runs elsewhere, GIT_DIR naming B's repository
		wantNoteInShared bool
	}{
		{name: "fetched and read in the work tree", prime: true},
		{name: "the first read ever, after a fetch", prime: false},
		{name: "fetched in a linked worktree, read in the main one", prime: true, worktree: true},
		{name: "fetched in the main work tree, read in a linked one", prime: true, worktree: true, readInWT: true},
		{name: "B shares: the record goes to its notes for the next push", prime: true, share: true, wantNoteInShared: true},
		{name: "read with GIT_DIR from outside the work tree", prime: true, gitDir: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base, bare := newTeam(t)
			b := cloneAs(t, bare, "b")
			if tc.share {
				b.convo(b.dir, "share", "on")
			}
			wt := filepath.Join(b.root, "b-wt")
			if tc.worktree {
				b.run(b.dir, "git", "worktree", "add", "-q", "-b", "side", wt)
			}
			if tc.prime {
				primed(t, b)
			}
			squash, sources := squashedFeature(t, base, bare)
			fetchIn, readIn := b.dir, b.dir
			if tc.worktree && !tc.readInWT {
				fetchIn = wt
			} else if tc.readInWT {
				readIn = wt
			}
			b.run(fetchIn, "git", "fetch", "-q") // a bare fetch: no hook runs
			if tc.gitDir {
				r := b.runEnv(b.root, b.with("GIT_DIR="+filepath.Join(b.dir, ".git")), "", "git", "convo", "show", "--json", "origin/main")
				for id, src := range sources {
					if r.code != 0 || !strings.Contains(r.stdout, `"id":"`+id+`"`) || !strings.Contains(r.stdout, "squash of "+src+": ") {
						t.Errorf("show with GIT_DIR names no %s (squash of %s): %d %s%s", id, src, r.code, r.stdout, r.stderr)
					}
				}
			} else {
				checkNamesSquash(t, b, readIn, "origin/main", sources)
			}
			if got := b.noteText(notes.Ref, squash) != ""; got != tc.wantNoteInShared {
				t.Errorf("a note on the squash commit in refs/notes/convo: %v, want %v", got, tc.wantNoteInShared)
			}
			if tc.share { // and the next push shares it
				b.convo(b.dir, "push")
				r := b.runEnv(b.root, b.env, "", "git", "--git-dir="+bare, "notes", "--ref="+notes.Ref, "show", squash)
				if r.code != 0 || !strings.Contains(r.stdout, "squash of") {
					t.Errorf("the remote's note on the squash commit after B's push: %d %s%s", r.code, r.stdout, r.stderr)
				}
			}
		})
	}
}

// After a fetch is examined, reads do no work until the next fetch; a
// fetch that brings nothing squash-like links nothing.
func TestFetchWatchWorksOncePerFetch(t *testing.T) {
	base, bare := newTeam(t)
	b := cloneAs(t, bare, "b")
	primed(t, b)
	squash, sources := squashedFeature(t, base, bare)
	b.run(b.dir, "git", "fetch", "-q")
	checkNamesSquash(t, b, b.dir, squash, sources)

	// Take away what the fetch's examination derived: a read that examined
	// the fetch again would derive it again.
	derived := filepath.Join(b.dir, ".git", "git-convo-derived.jsonl")
	if err := os.Remove(derived); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(stampOf(b))
	if err != nil {
		t.Fatal(err)
	}
	if out := b.showJSON(b.dir, squash); len(out.Conversations) != 0 {
		t.Errorf("a second read examined the fetch again: %+v", out.Conversations)
	}
	if _, err := os.Stat(derived); err == nil {
		t.Error("a second read derived records again")
	}
	if after, _ := os.ReadFile(stampOf(b)); !bytes.Equal(before, after) {
		t.Errorf("a second read rewrote the stamp:\n%s\n%s", before, after)
	}

	// A teammate pushes a commit of their own lines: nothing squash-like.
	c := filepath.Join(base.root, "squasher") // squashedFeature's clone
	base.run(c, "git", "pull", "-q", "--ff-only")
	base.write(c, "notes.txt", "a human wrote this line\nand this one too\n")
	base.run(c, "git", "add", "notes.txt")
	base.run(c, "git", "commit", "-q", "-m", "human notes")
	plain := strings.TrimSpace(base.run(c, "git", "rev-parse", "HEAD"))
	base.run(c, "git", "push", "-q", "origin", "main")
	b.run(b.dir, "git", "fetch", "-q")
	if out := b.showJSON(b.dir, plain); len(out.Conversations) != 0 {
		t.Errorf("a plain commit got conversations: %+v", out.Conversations)
	}
	after, _ := os.ReadFile(stampOf(b))
	if bytes.Equal(before, after) || !strings.Contains(string(after), plain) {
		t.Errorf("the fetch was not examined (the stamp names no new tip):\n%s", after)
	}
	if b, err := os.ReadFile(derived); err == nil && len(b) > 0 {
		t.Errorf("a fetch with nothing squash-like derived records:\n%s", b)
	}
}

// The MCP server runs the same check before a tool answers.
func TestFetchWatchBeforeMCPAnswers(t *testing.T) {
	base, bare := newTeam(t)
	b := cloneAs(t, bare, "b")
	primed(t, b)
	squash, sources := squashedFeature(t, base, bare)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	session := b.mcpSession(ctx, b.dir)
	b.run(b.dir, "git", "fetch", "-q") // while the server runs
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "get_commit_conversations", Arguments: map[string]any{"commitHash": squash}})
	if err != nil || res.IsError {
		t.Fatalf("get_commit_conversations: %v %+v", err, res)
	}
	var out mcpserver.CommitOutput
	raw, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(raw, &out)
	byID := map[string]string{}
	for _, c := range out.Conversations {
		byID[c.ID] = c.Reason
	}
	for id, src := range sources {
		if !strings.HasPrefix(byID[id], "squash of "+src+": ") {
			t.Errorf("MCP's conversations of the squash commit: %s", raw)
		}
	}
}

// A commit carried over that is gone by the time it is examined (a forced
// push, then gc) fails that batch: the error goes to the log doctor shows,
// the read answers all the same, and the next read does no work again.
func TestFetchWatchErrorGoesToDoctor(t *testing.T) {
	base, bare := newTeam(t)
	b := cloneAs(t, bare, "b")
	primed(t, b)
	squashedFeature(t, base, bare) // notes to match against
	b.run(b.dir, "git", "fetch", "-q")
	b.convo(b.dir, "log", "-n", "1")
	st, err := os.ReadFile(stampOf(b))
	if err != nil {
		t.Fatal(err)
	}
	_, body, _ := strings.Cut(string(st), "\n")
	var v map[string]any
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatal(err)
	}
	v["pending"] = []string{strings.Repeat("ab", 20)}
	nb, _ := json.Marshal(v)
	os.WriteFile(stampOf(b), append([]byte("carried 1\n"), nb...), 0o644)

	if r := b.runEnv(b.dir, b.env, "", "git", "convo", "log", "-n", "1"); r.code != 0 || r.stderr != "" {
		t.Fatalf("the read failed for the watch: %d %s", r.code, r.stderr)
	}
	if out := b.convo(b.dir, "doctor"); !strings.Contains(out, "recognising squash merges after a fetch") {
		t.Errorf("doctor shows no error:\n%s", out)
	}
	if fetchwatch.Due(filepath.Join(b.dir, ".git")) {
		t.Error("the failed batch is due again")
	}
}

// A squash merge fetched before the notes it matches (A pushed its branch
// alone and its notes later) had nothing to match when B's first fetch
// brought it; the bare fetch that brings the notes has the next read look
// again.
func TestSquashFetchedBeforeItsNotes(t *testing.T) {
	base, bare := newTeam(t)
	b := cloneAs(t, bare, "b")
	primed(t, b)
	squash, sources, a := squashedFeatureNotes(t, base, bare, false)
	if hasRef(base, bare, notes.Ref) {
		t.Fatal("A's notes reached the remote with its branch")
	}
	b.run(b.dir, "git", "fetch", "-q")
	if out := b.showJSON(b.dir, "origin/main"); out.Commit.Hash != squash || len(out.Conversations) != 0 {
		t.Fatalf("the squash before any notes: %s %+v", out.Commit.Hash, out.Conversations)
	}

	a.convo(a.dir, "push") // the notes, later
	b.run(b.dir, "git", "fetch", "-q")
	checkNamesSquash(t, b, b.dir, "origin/main", sources)
}

// share status counts a plain git fetch of teammates' notes, per remote:
// from the tracking ref's reflog, or, with reflogs off, from the fetch
// watch's stamp (the fetch's time).
func TestShareStatusCountsPlainFetch(t *testing.T) {
	for _, tc := range []struct {
		name    string
		reflogs bool
	}{{"reflogs on", true}, {"reflogs off", false}} {
		t.Run(tc.name, func(t *testing.T) {
			base, bare := newTeam(t)
			b := cloneAs(t, bare, "b")
			if !tc.reflogs {
				b.run(b.dir, "git", "config", "core.logAllRefUpdates", "false")
			}
			if out := b.convo(b.dir, "share", "status"); !strings.Contains(out, "fetched: never\n") {
				t.Errorf("before any notes:\n%s", out)
			}
			squashedFeature(t, base, bare) // A shares and pushes its notes
			b.run(b.dir, "git", "fetch", "-q")
			tracking := notes.TrackingRef("origin")
			if _, err := os.Stat(filepath.Join(b.dir, ".git", "logs", tracking)); (err == nil) != tc.reflogs {
				t.Fatalf("the tracking ref's reflog: %v, want one %v", err, tc.reflogs)
			}
			fh, err := os.Stat(filepath.Join(b.dir, ".git", "FETCH_HEAD"))
			if err != nil {
				t.Fatal(err)
			}

			var st app.ShareStatus
			if err := json.Unmarshal([]byte(b.convo(b.dir, "share", "status", "--json")), &st); err != nil {
				t.Fatal(err)
			}
			at := st.FetchedAt["origin"]
			if at == "" || st.LastFetch != at || st.Fetched["origin"] != 2 {
				t.Errorf("share status --json after a plain fetch: %+v", st)
			}
			if !tc.reflogs && at != mstime.ISOTime(fh.ModTime()) {
				t.Errorf("fetched at %s, want the fetch's time %s", at, mstime.ISOTime(fh.ModTime()))
			}
			if out := b.convo(b.dir, "share", "status"); !strings.Contains(out, "fetched: "+at+" from origin\n") {
				t.Errorf("share status after a plain fetch:\n%s", out)
			}
			if out := b.convo(b.dir, "doctor"); !strings.Contains(out, "notes last fetched") || !strings.Contains(out, at) {
				t.Errorf("doctor after a plain fetch:\n%s", out)
			}
		})
	}
}

// When notes arrive, only commits with no local link are looked at again:
// B's own agent commit, whose lines are the same as A's, stays B's.
func TestNotesArrivalLeavesLinkedCommits(t *testing.T) {
	base, bare := newTeam(t)
	b := cloneAs(t, bare, "b")
	primed(t, b)
	b.conversation(t, "conv-b", "B's own parser", "sb", "pb", "parse.go", "package config\n\nfunc Parse(b []byte) (Config, error) {\n\treturn decode(b)\n}\n")
	own := b.commit(b.dir, "parse", "parse.go")
	b.run(b.dir, "git", "push", "-q", "origin", "main")
	_, sources, a := squashedFeatureNotes(t, base, bare, false)
	b.run(b.dir, "git", "fetch", "-q")
	b.convo(b.dir, "log", "-n", "1")
	a.convo(a.dir, "push")
	b.run(b.dir, "git", "fetch", "-q")
	// Parse's lines were in the repository before the squash (B's own
	// commit, another file), so their text tells nothing; but the squash's
	// config.go is the branch tip's byte for byte, and blame there names
	// conv-sq1's commit: both are claimed, by position.
	checkNamesSquash(t, b, b.dir, "origin/main", sources)
	if cs := b.showJSON(b.dir, "origin/main").Conversations; len(cs) != 2 {
		t.Errorf("the squash's conversations: %+v", cs)
	}
	got := b.showJSON(b.dir, own)
	if len(got.Conversations) != 1 || got.Conversations[0].ID != "conv-b" {
		t.Errorf("B's own commit after A's notes came: %+v", got.Conversations)
	}
}
