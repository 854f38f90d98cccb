package cli

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/app"
	"github.com/git-convo/git-convo/pkg/store"
)

func TestAbbrevOption(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"-n5"}, false},
		{[]string{"--abbrev=12"}, true},
		{[]string{"--no-abbrev", "-n1"}, true},
		{[]string{"--", "--abbrev=12"}, false}, // a path
	} {
		if got := abbrevOption(tc.args); got != tc.want {
			t.Errorf("%q: %v, want %v", tc.args, got, tc.want)
		}
	}
}

func TestMaxCount(t *testing.T) {
	for _, tc := range []struct {
		args []string
		n    int
		ok   bool
	}{
		{nil, 0, false},
		{[]string{"-n", "1000"}, 1000, true},
		{[]string{"-n5"}, 5, true},
		{[]string{"-3", "main"}, 3, true},
		{[]string{"--max-count=7"}, 7, true},
		{[]string{"--max-count", "9", "-n2"}, 2, true},
		{[]string{"--since=2.weeks", "f.txt"}, 0, false},
		{[]string{"-n", "-1"}, 0, false}, // git: no limit
		{[]string{"--", "-5"}, 0, false},
	} {
		if n, ok := maxCount(tc.args); n != tc.n || ok != tc.ok {
			t.Errorf("%q: %d %v, want %d %v", tc.args, n, ok, tc.n, tc.ok)
		}
	}
}

// TestDecorates: log.decorate, then the last --decorate option, as git's
// parse_decoration_style reads them; auto is the terminal's.
func TestDecorates(t *testing.T) {
	tests := []struct {
		args      []string
		terminal  bool
		cfg       string
		cfgSet    bool
		decorates bool
	}{
		{nil, true, "", false, true},
		{nil, false, "", false, false},
		{nil, true, "false", true, false},
		{nil, false, "short", true, true},
		// git compares the styles case-sensitively: FULL, Short and AUTO
		// decorate nothing (builtin/log.c: parse_decoration_style).
		{nil, false, "FULL", true, false},
		{nil, true, "Short", true, false},
		{nil, true, "AUTO", true, false},
		{nil, false, "full", true, true},
		{nil, false, "TRUE", true, true},
		{nil, true, "auto", true, true},
		{nil, false, "auto", true, false},
		{nil, true, "bogus", true, false},
		{[]string{"--decorate"}, false, "no", true, true},
		{[]string{"--decorate=auto"}, true, "no", true, true},
		{[]string{"--decorate=no"}, true, "", false, false},
		{[]string{"--decorate=yes"}, false, "", false, true},
		{[]string{"--decorate", "--no-decorate"}, false, "", false, false},
		{[]string{"--no-decorate", "--decorate=full"}, false, "", false, true},
		{[]string{"--", "--decorate"}, false, "", false, false},
	}
	for _, tt := range tests {
		config := func() (string, bool) { return tt.cfg, tt.cfgSet }
		if got := decorates(tt.args, tt.terminal, config); got != tt.decorates {
			t.Errorf("decorates(%q, terminal %v, log.decorate %q set %v) = %v", tt.args, tt.terminal, tt.cfg, tt.cfgSet, got)
		}
	}
}

// TestLogTrailers: log names the agents other tools' trailers name, as
// show does, from the bodies its one git log prints: across batches, with
// --name-only, and never a person's co-author or a trailer-like line
// that is not in the message's last paragraph.
func TestLogTrailers(t *testing.T) {
	sb := newSandbox(t)
	repo := sb.repo("trailers")
	var want []string // hashes with a claude trailer, newest first
	for i := range 40 {
		f := fmt.Sprintf("f%d.go", i)
		sb.write(repo, f, "x\n")
		msg := fmt.Sprintf("change %d", i)
		switch i % 4 {
		case 0:
			msg += "\n\nWhy it changed.\n\nCo-Authored-By: Claude <noreply@anthropic.com>"
		case 1:
			msg += "\n\nCo-authored-by: Ann Lee <ann@example.com>"
		case 2:
			msg += "\n\nCo-Authored-By: Claude <noreply@anthropic.com>\n\nthe last paragraph is prose"
		}
		h := sb.commit(repo, msg, f)
		if i%4 == 0 {
			want = append([]string{h}, want...)
		}
	}
	const line = "claude (which lines is not known; commit trailer, from a Co-Authored-By trailer)"
	for _, args := range [][]string{{"log"}, {"log", "--name-only"}, {"log", "--oneline", "-n", "40"}} {
		out := sb.convo(repo, args...)
		if n := strings.Count(out, line); n != len(want) {
			t.Errorf("%q: %d trailer lines, want %d:\n%s", args, n, len(want), out)
		}
		if strings.Contains(out, "Ann Lee") {
			t.Errorf("%q: a person's co-author shown as an agent:\n%s", args, out)
		}
	}
	var n int
	for _, l := range strings.Split(strings.TrimSpace(sb.convo(repo, "log", "--json")), "\n") {
		var obj struct {
			Commit struct {
				Hash string `json:"hash"`
			} `json:"commit"`
			OtherTools []app.OtherWriter `json:"otherTools"`
		}
		if err := json.Unmarshal([]byte(l), &obj); err != nil {
			t.Fatal(err)
		}
		if len(obj.OtherTools) == 0 {
			continue
		}
		if ot := obj.OtherTools[0]; len(obj.OtherTools) != 1 || !ot.Commit || ot.Tool != "claude" || ot.Evidence != "commit trailer" || obj.Commit.Hash != want[n] {
			t.Errorf("%s: %+v", obj.Commit.Hash, obj.OtherTools)
		}
		n++
	}
	if n != len(want) {
		t.Errorf("log --json: %d commits with trailers, want %d", n, len(want))
	}
}

// TestLogGitAINotesInline: with no shared notes, log takes git-ai's notes
// from its git log (%N); what it shows is what reading them in process
// shows (a notes option of the user's keeps %N for git: the reader then
// reads them), past a batch, with a note skipped.
func TestLogGitAINotesInline(t *testing.T) {
	sb := newSandbox(t)
	repo := sb.repo("inline")
	var last string
	for i := range 40 {
		f := fmt.Sprintf("f%d.go", i)
		sb.write(repo, f, "l1\nl2\nl3\nl4\nl5\n")
		h := sb.commit(repo, fmt.Sprintf("change %d", i), f)
		note := gitAINoteFor(h, f, fmt.Sprintf("model-%d", i%3))
		if i == 7 {
			note = gitAINoteFor(last, f, "m") // about another commit: skipped
		}
		sb.addRawNote(repo, "refs/notes/ai", h, note)
		last = h
	}
	// One clock for both runs: a second may pass between them, and the
	// relative dates would differ (seen in a full run of the suite).
	env := sb.with("GIT_CONVO_NOW=" + time.Now().UTC().Format(time.RFC3339))
	logAt := func(args ...string) string {
		r := sb.runEnv(repo, env, "", append([]string{"git", "convo"}, args...)...)
		if r.code != 0 {
			t.Fatalf("%q: exit %d: %s", args, r.code, r.stderr)
		}
		return r.stdout
	}
	inline, read := logAt("log"), logAt("log", "--no-notes")
	if inline != read {
		t.Errorf("log with %%N:\n%s\nlog reading the notes:\n%s", inline, read)
	}
	if n := strings.Count(inline, "(3 line(s), from git-ai's notes)"); n != 39 {
		t.Errorf("%d commits with git-ai's lines, want 39:\n%s", n, inline)
	}
	// With a links.sqlite, from its index of the notes: built by the first
	// log, used as it is by the next, brought up to date after a note is
	// added and another edited (docs/interop.md). --oneline: git's own
	// line, no relative time to move between runs.
	if _, err := os.Stat(sb.linksDB); err == nil {
		t.Fatal("links.sqlite before any recording: the runs above read no index")
	}
	readOne, readJSON := sb.convo(repo, "log", "--oneline"), sb.convo(repo, "log", "--json")
	st, err := store.Open(context.Background(), sb.linksDB, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	for i, what := range []string{"built", "as it is"} {
		if got := sb.convo(repo, "log", "--oneline"); got != readOne {
			t.Errorf("log from the index %s (%d):\n%s\nreading the notes:\n%s", what, i, got, readOne)
		}
	}
	if got := sb.convo(repo, "log", "--json"); got != readJSON {
		t.Errorf("log --json from the index:\n%s\nreading the notes:\n%s", got, readJSON)
	}
	sb.addRawNote(repo, "refs/notes/ai", last, gitAINoteFor(last, "f39.go", "edited"))
	sb.write(repo, "g.go", "l1\nl2\nl3\nl4\nl5\n")
	h := sb.commit(repo, "one more", "g.go")
	sb.addRawNote(repo, "refs/notes/ai", h, gitAINoteFor(h, "g.go", "new"))
	got := sb.convo(repo, "log", "--oneline")
	if !strings.Contains(got, "(new) (3 line(s)") || !strings.Contains(got, "(edited) (3 line(s)") {
		t.Errorf("log after a note added and one edited:\n%s", got)
	}
	os.Rename(sb.linksDB, sb.linksDB+".away")
	if read := sb.convo(repo, "log", "--oneline"); got != read {
		t.Errorf("log from the index brought up to date:\n%s\nreading the notes:\n%s", got, read)
	}
}

// TestLogLinksBatches: every commit of a history of several of log's
// batches comes once, in git's order, with its own conversation, in text
// and JSON, whole and cut at a batch's edge or inside one.
func TestLogLinksBatches(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("ahead")
	const n = logFirstBatch + 6*logBatch + 7 // and a partial batch
	var in strings.Builder
	for i := range n {
		fmt.Fprintf(&in, "commit refs/heads/main\ncommitter Ada <ada@example.com> %d +0000\ndata 9\nchange %d\n", 1_700_000_000+i, i%10)
		if i == 0 {
			in.WriteString("from refs/heads/main^0\n")
		}
		fmt.Fprintf(&in, "M 644 inline f.txt\ndata %d\n%d\n\n", len(fmt.Sprint(i))+1, i)
	}
	fi := exec.Command("git", "fast-import", "--quiet")
	fi.Dir, fi.Env, fi.Stdin = repo, sb.env, strings.NewReader(in.String())
	if out, err := fi.CombinedOutput(); err != nil {
		t.Fatalf("fast-import: %v\n%s", err, out)
	}
	hashes := strings.Fields(sb.run(repo, "git", "rev-list", "main"))
	if len(hashes) != n+1 { // the sandbox's first commit below
		t.Fatalf("%d commits, want %d", len(hashes), n+1)
	}
	ctx := context.Background()
	s, err := store.Open(ctx, sb.linksDB, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b := s.Bulk()
	for i, h := range hashes[:n] {
		conv := fmt.Sprintf("c%04d", i)
		if err := b.RecordActivity(ctx, store.Activity{ConversationID: conv, Event: "afterFileEdit", WorkspaceRoots: []string{repo}}); err != nil {
			t.Fatal(err)
		}
		if err := b.AddAutoLinks(ctx, h, []store.Link{{ConversationID: conv, Confidence: 0.9, MatchedFiles: []string{"f.txt"}, Reason: "test"}}); err != nil {
			t.Fatal(err)
		}
	}
	// Every other commit recorded from git: log finds its link by the
	// commit's time (links_commit_time), the others' by their hash's
	// prefix (links_commit_untimed).
	dated := strings.Fields(sb.run(repo, "git", "log", "--format=%H %ct", "main"))
	for i := 0; i+1 < len(dated); i += 4 {
		secs, _ := strconv.ParseInt(dated[i+1], 10, 64)
		if err := b.UpsertCommit(ctx, store.Commit{Hash: dated[i], RepoPath: repo, CommittedAt: time.Unix(secs, 0), ObjectTime: true, ParentCount: 1}); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	s.Close()
	db, err := sql.Open("sqlite3", "file:"+sb.linksDB+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	var timed, untimed int
	err = db.QueryRow(`SELECT count(commitMs), count(*) - count(commitMs) FROM links`).Scan(&timed, &untimed)
	db.Close()
	if err != nil || timed < n/2-1 || untimed < n/2-1 {
		t.Fatalf("links found by their commit's time: %d, by hash: %d (%v)", timed, untimed, err)
	}

	for _, count := range []int{0, logFirstBatch, logFirstBatch + 1, logFirstBatch + 3*logBatch, n - 3} {
		args := []string{"log", "--json"}
		want := hashes
		if count > 0 {
			args = append(args, "-n", fmt.Sprint(count))
			want = hashes[:count]
		}
		// The walk in process reads each batch's links ahead of log
		// (app.LogSession.Ahead); where git walks, log reads them itself:
		// the same bytes either way.
		same := func(args []string) string {
			t.Helper()
			env := sb.with("GIT_CONVO_NOW=2026-01-02T03:04:05Z")
			ahead := sb.runEnv(repo, env, "", append([]string{"git", "convo"}, args...)...)
			own := sb.runEnv(repo, append(env, "GIT_CONVO_READ_WITH_GIT=1"), "", append([]string{"git", "convo"}, args...)...)
			if ahead.code != 0 || ahead.stdout != own.stdout {
				t.Fatalf("%q: exit %d, output %d bytes; read by log itself: %d bytes\n%s", args, ahead.code, len(ahead.stdout), len(own.stdout), ahead.stderr)
			}
			return ahead.stdout
		}
		var got []string
		for _, l := range strings.Split(strings.TrimSpace(same(args)), "\n") {
			var obj showJSON
			if err := json.Unmarshal([]byte(l), &obj); err != nil {
				t.Fatal(err)
			}
			i := len(got)
			got = append(got, obj.Commit.Hash)
			wantConv := ""
			if i < n {
				wantConv = fmt.Sprintf("c%04d", i)
			}
			if gotConv := ""; len(obj.Conversations) > 1 || (len(obj.Conversations) == 1 && obj.Conversations[0].ID != wantConv) || (len(obj.Conversations) == 0 && wantConv != "") {
				if len(obj.Conversations) > 0 {
					gotConv = obj.Conversations[0].ID
				}
				t.Errorf("%q: commit %d (%s) linked to %q (%d), want %q", args, i, obj.Commit.Hash, gotConv, len(obj.Conversations), wantConv)
			}
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%q: %d commits, not git's %d in its order", args, len(got), len(want))
		}
		// The text: each commit's line, then its conversation's.
		args = append(args[:1], args[2:]...)
		lines := strings.Split(strings.TrimSpace(same(args)), "\n")
		k := 0
		for i, h := range want {
			if k >= len(lines) || len(lines[k]) < 7 || !strings.HasPrefix(h, strings.Fields(lines[k])[0]) {
				t.Fatalf("%q: line %d is %q, want commit %d (%s)", args, k, lines[min(k, len(lines)-1)], i, h)
			}
			k++
			if i < n {
				if k >= len(lines) || !strings.Contains(lines[k], fmt.Sprintf("c%04d", i)) {
					t.Fatalf("%q: commit %d's conversation line is %q", args, i, lines[min(k, len(lines)-1)])
				}
				k++
			}
		}
		if k != len(lines) {
			t.Errorf("%q: %d lines, want %d", args, len(lines), k)
		}
	}
}

// TestLogLinksReplacedCommit: where a replace ref shows a linked commit
// with another committer time, git walks and prints that time; log still
// finds the link the recorder made from the object as stored (by its
// hash, not by the time git prints).
func TestLogLinksReplacedCommit(t *testing.T) {
	sb := newSandbox(t)
	repo := sb.repo("replaced")
	sb.convo(repo, "install", "--cursor=none")
	sb.agentEdit(repo, fixtureConv, "src/query.rs", "fn main() {}\n")
	sha := sb.commit(repo, "queries", "src/query.rs")
	before := sb.convo(repo, "log", "-n", "1")
	if !strings.Contains(before, "\n") || len(strings.Split(strings.TrimSpace(before), "\n")) < 2 {
		t.Fatalf("log before the replacement shows no conversation:\n%s", before)
	}
	tree := strings.TrimSpace(sb.run(repo, "git", "rev-parse", sha+"^{tree}"))
	parent := strings.TrimSpace(sb.run(repo, "git", "rev-parse", sha+"^"))
	ct := exec.Command("git", "commit-tree", tree, "-p", parent, "-m", "queries")
	ct.Dir, ct.Env = repo, append(sb.with(), "GIT_COMMITTER_DATE=2001-02-03T04:05:06Z")
	out, err := ct.Output()
	if err != nil {
		t.Fatal(err)
	}
	sb.run(repo, "git", "replace", sha, strings.TrimSpace(string(out)))
	after := sb.convo(repo, "log", "-n", "1")
	if got, want := strings.Split(strings.TrimSpace(after), "\n")[1:], strings.Split(strings.TrimSpace(before), "\n")[1:]; strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("log with the commit replaced:\n%s\nbefore:\n%s", after, before)
	}
}

// TestLogLinksRecordedUnderAReplacement: a commit recorded (here by
// import) while a replace ref stands for it is read with the replacement's
// committer time under its own hash; once the replace ref is gone, the
// walk hands log the object's own time. The recorder keys no link by a
// time it did not read from the object itself (store.Commit.ObjectTime),
// so log still finds the link show finds (review of schema 10).
func TestLogLinksRecordedUnderAReplacement(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.convo(repo, "install", "--cursor=none")
	const x = "conv-probe-time-0001"
	tm := teammate{sb, repo}
	tm.conversation(t, x, "Probe", "Wrote a probe.", "write a probe", "a.go", "package a\n\nfunc Probe() int { return 42 }\n")
	// c is made with no hook (commit-tree), so nothing records it yet.
	sb.run(repo, "git", "add", "a.go")
	tree := strings.TrimSpace(sb.run(repo, "git", "write-tree"))
	parent := strings.TrimSpace(sb.run(repo, "git", "rev-parse", "HEAD"))
	c := strings.TrimSpace(sb.run(repo, "git", "commit-tree", tree, "-p", parent, "-m", "a: probe"))
	sb.run(repo, "git", "update-ref", "HEAD", c)
	// A replacement of c: the same tree and parent, another committer time.
	r := sb.runEnv(repo, append(sb.with(), "GIT_COMMITTER_DATE="+strconv.FormatInt(time.Now().Unix()-100, 10)+" +0000"), "", "git", "commit-tree", tree, "-p", parent, "-m", "a: probe")
	if r.code != 0 {
		t.Fatal(r.stderr)
	}
	sb.run(repo, "git", "replace", c, strings.TrimSpace(r.stdout))
	// import's past links read the commits with git log, which shows the
	// replacement's time under c's hash: c is recorded so.
	now := time.Now().UnixMilli()
	cursorKV(t, sb.cursorDB, "cursorDiskKV", map[string]any{"composerData:" + x: map[string]any{
		"_v": 10, "name": "Probe", "createdAt": now - 60000, "lastUpdatedAt": now, "status": "completed",
		"fullConversationHeadersOnly": []any{},
		"codeBlockData":               map[string]any{"file://" + filepath.Join(repo, "a.go"): map[string]any{"cb1": map[string]any{"_v": 3, "createdAt": now - 50000, "lastAppliedAt": now - 40000}}},
	}})
	if r := sb.runEnv(repo, sb.with("CURSOR_DB_PATH="+sb.cursorDB), "", "git", "convo", "import"); r.code != 0 {
		t.Fatal(r.stderr)
	} else {
	}
	sb.convo(repo, "link", x, c) // c recorded already: its row stands
	sb.run(repo, "git", "replace", "-d", c)
	db := sb.openDB()
	var gitMs, commitMs any
	db.QueryRow(`SELECT c.gitMs, l.commitMs FROM commits c JOIN links l ON l.commitHash = c.commitHash WHERE c.commitHash = ?`, c).Scan(&gitMs, &commitMs)
	db.Close()
	if gitMs != nil || commitMs != nil {
		t.Errorf("recorded under a replace ref, the commit's time keys its links: gitMs %v, links.commitMs %v", gitMs, commitMs)
	}

	if !has(convIDs(sb.showJSON(repo, c)), x) {
		t.Fatalf("show %s no longer names %s", c[:7], x)
	}
	// log's text listing reads the lean query (LogLinksForCommits); --json
	// the full one, by hash.
	if out := sb.convo(repo, "log", "--json", "-n", "1", c); !strings.Contains(out, x) {
		t.Errorf("log --json -n 1 %s does not name %s, which show finds:\n%s", c[:7], x, out)
	}
	if out := sb.convo(repo, "log", "-n", "1", c); !strings.Contains(out, "Probe") {
		t.Errorf("log -n 1 %s does not name the conversation Probe, which show and log --json find:\n%s", c[:7], out)
	}
}
