package interop

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/notes"
)

func TestDecide(t *testing.T) {
	convo := Claim{Source: SourceGitConvo, From: "git-convo", Rank: RankEdit, Attribution: Agent, Tool: "claude", Conversation: "c1", Session: "c1"}
	gitaiSame := Claim{Source: SourceGitAI, From: "git-ai's notes", Rank: RankEdit, Attribution: Agent, Tool: "claude", Session: "c1", Conversation: "c1"}
	gitaiOther := Claim{Source: SourceGitAI, From: "git-ai's notes", Rank: RankEdit, Attribution: Agent, Tool: "codex", Session: "x"}
	traceAI := Claim{Source: SourceAgentTrace, From: "compass's Agent Trace record", Rank: RankRange, Attribution: Agent, Tool: "compass"}
	trailer := Claim{Source: SourceTrailer, From: "a Co-authored-by trailer", Rank: RankTrailer, Attribution: Agent, Tool: "aider", Commit: true}
	person := Claim{Source: SourceGitAI, From: "git-ai's notes", Rank: RankEdit, Attribution: Human, Person: "A <a@b>"}
	byHand := Claim{Source: SourceGitConvo, From: "git-convo", Rank: RankOverlap, Attribution: Human}
	mixed := Claim{Source: SourceAgentTrace, From: "x", Rank: RankRange, Attribution: Unknown}
	cases := []struct {
		name   string
		claims []Claim
		best   Claim
		phrase string
	}{
		{"one source", []Claim{gitaiOther}, gitaiOther, ""},
		{"two agree", []Claim{gitaiSame, convo}, convo, "2 sources agree"},
		{"edit beats range", []Claim{traceAI, gitaiOther}, gitaiOther, "sources disagree"},
		{"range beats trailer", []Claim{trailer, traceAI}, traceAI, "sources disagree"},
		{"trailer never above an edit", []Claim{trailer, convo}, convo, "sources disagree"},
		{"a trailer alone", []Claim{trailer}, trailer, ""},
		{"a trailer never above (by hand)", []Claim{trailer, byHand}, byHand, "sources disagree"},
		{"git-ai's person beats git-convo's inference", []Claim{byHand, person}, person, "2 sources agree"},
		{"git-ai's agent beats (by hand)", []Claim{byHand, gitaiOther}, gitaiOther, "sources disagree"},
		{"unknown never chosen", []Claim{mixed, trailer}, trailer, ""},
		{"unknown alone", []Claim{mixed}, mixed, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, ok := Decide(c.claims)
			if !ok {
				t.Fatal("no verdict")
			}
			if v.Best != c.best {
				t.Errorf("best %+v, want %+v", v.Best, c.best)
			}
			if v.Phrase() != c.phrase {
				t.Errorf("phrase %q, want %q", v.Phrase(), c.phrase)
			}
			if len(v.Claims) != len(c.claims) {
				t.Errorf("%d claims kept of %d", len(v.Claims), len(c.claims))
			}
		})
	}
	if _, ok := Decide(nil); ok {
		t.Error("a verdict from nothing")
	}
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=A", "GIT_AUTHOR_EMAIL=a@b", "GIT_COMMITTER_NAME=A", "GIT_COMMITTER_EMAIL=a@b",
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// repo makes a repository with one commit of a.go (10 lines).
func repo(t *testing.T) (string, string) {
	t.Helper()
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte(strings.Repeat("x\n", 10)), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-q", "-m", "one\n\nCo-authored-by: aider (gpt-4o) <noreply@aider.chat>")
	return dir, git(t, dir, "rev-parse", "HEAD")
}

func addNote(t *testing.T, dir, ref, commit, text string) {
	t.Helper()
	f := filepath.Join(t.TempDir(), "note")
	if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "notes", "--ref="+ref, "add", "-f", "-F", f, commit)
}

func gitAINote(commit, model string) string {
	return "a.go\n  s_" + "00112233445566::t_66554433221100 1-3\n  h_aabbccddeeff00 5\n---\n" +
		`{"schema_version":"authorship/3.0.0","base_commit_sha":"` + commit + `","prompts":{},` +
		`"sessions":{"s_00112233445566":{"agent_id":{"tool":"claude","id":"sess-1","model":"` + model + `"}}},` +
		`"humans":{"h_aabbccddeeff00":{"author":"Ann <ann@example.com>"}}}`
}

func TestReaderNoRefs(t *testing.T) {
	dir, commit := repo(t)
	g := notes.Git{Dir: dir}
	if refs := Refs(context.Background(), g); len(refs) != 0 {
		t.Fatalf("refs %v in a repository with none", refs)
	}
	r, _ := gitx.Discover(dir, os.Getenv)
	lines, skips, err := NewReader(r, g, nil).Read(context.Background(), []string{commit}, nil)
	if err != nil || len(lines) != 0 || len(skips) != 0 {
		t.Errorf("%v %v %v", lines, skips, err)
	}
}

func TestReaderGitAIAndAgentTrace(t *testing.T) {
	dir, commit := repo(t)
	addNote(t, dir, "refs/notes/ai", commit, gitAINote(commit, "claude-sonnet-4-6"))
	rec := `{"version":"0.1.0","id":"550e8400-e29b-41d4-a716-446655440000","timestamp":"2026-01-23T14:30:00Z",` +
		`"vcs":{"type":"git","revision":"` + commit + `"},"tool":{"name":"compass"},"files":[{"path":"a.go","conversations":[` +
		`{"url":"https://x.example/c/1","contributor":{"type":"ai","model_id":"openai/gpt-5"},"ranges":[{"start_line":3,"end_line":4}]}]}]}`
	bad := strings.Replace(rec, `"ai"`, `"robot"`, 1)
	addNote(t, dir, "refs/notes/agent-trace", commit, rec+"\n"+bad+"\n")
	g := notes.Git{Dir: dir}
	refs := Refs(context.Background(), g)
	if strings.Join(refs, " ") != "refs/notes/ai refs/notes/agent-trace" { // CompareRefs: git-ai first
		t.Fatalf("refs %v", refs)
	}
	r, _ := gitx.Discover(dir, os.Getenv)
	lines, skips, err := NewReader(r, g, refs).Read(context.Background(), []string{commit}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(skips) != 1 || skips[0].Ref != "refs/notes/agent-trace" {
		t.Errorf("skips %v, want the robot record", skips)
	}
	at := lines[commit]["a.go"]
	if c := at[1]; len(c) != 1 || c[0].Source != SourceGitAI || c[0].Tool != "claude" || c[0].Session != "sess-1" || c[0].Model != "claude-sonnet-4-6" {
		t.Errorf("line 1: %+v", c)
	}
	if c := at[3]; len(c) != 2 {
		t.Errorf("line 3: %+v, want git-ai's and compass's", c)
	} else if v, _ := Decide(c); v.Best.Source != SourceGitAI || v.Phrase() != "sources disagree" {
		t.Errorf("line 3: %+v %q", v.Best, v.Phrase())
	}
	if c := at[4]; len(c) != 1 || c[0].From != "compass's Agent Trace record" || c[0].Model != "openai/gpt-5" {
		t.Errorf("line 4: %+v", c)
	}
	if c := at[5]; len(c) != 1 || c[0].Attribution != Human || c[0].Person != "Ann <ann@example.com>" {
		t.Errorf("line 5: %+v", c)
	}
	if _, ok := at[6]; ok {
		t.Errorf("line 6 claimed: %+v", at[6])
	}
}

// TestReaderSkipsHostileNotes: a hostile git-ai note is skipped whole and
// named; a log copied onto another commit is refused.
func TestReaderSkipsHostileNotes(t *testing.T) {
	dir, commit := repo(t)
	git(t, dir, "commit", "-q", "--allow-empty", "-m", "two")
	second := git(t, dir, "rev-parse", "HEAD")
	addNote(t, dir, "refs/notes/ai", commit, gitAINote(commit, `\u001b]52;c;aGk=\u0007`))
	addNote(t, dir, "refs/notes/ai", second, gitAINote(commit, "m")) // about the first commit
	g := notes.Git{Dir: dir}
	r, _ := gitx.Discover(dir, os.Getenv)
	lines, skips, err := NewReader(r, g, Refs(context.Background(), g)).Read(context.Background(), []string{commit, second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 0 || len(skips) != 2 {
		t.Fatalf("lines %v skips %v", lines, skips)
	}
	for _, s := range skips {
		if strings.ContainsAny(s.Error(), "\x1b\x07") {
			t.Errorf("raw escape in %q", s.Error())
		}
	}
}

func TestTrailerClaims(t *testing.T) {
	cs := TrailerClaims("x\n\nCo-authored-by: aider (gpt-4o) <noreply@aider.chat>\n")
	if len(cs) != 1 || cs[0].Tool != "aider" || cs[0].Model != "gpt-4o" || cs[0].Rank != RankTrailer || !cs[0].Commit || cs[0].Evidence != "commit trailer" {
		t.Errorf("%+v", cs)
	}
}

// TestReadWritersAsRead: ReadWriters gives each commit what Writers gives
// from Read's lines, with overlapping ranges, a file listed twice, two
// tools' refs, and a skipped note.
func TestReadWritersAsRead(t *testing.T) {
	dir, commit := repo(t)
	git(t, dir, "commit", "-q", "--allow-empty", "-m", "two")
	second := git(t, dir, "rev-parse", "HEAD")
	git(t, dir, "commit", "-q", "--allow-empty", "-m", "three")
	third := git(t, dir, "rev-parse", "HEAD")
	overlap := "a.go\n  s_00112233445566::t_66554433221100 1-3,2-6\n  h_aabbccddeeff00 5\nb.go\n  s_00112233445566::t_66554433221100 7\n" +
		"a.go\n  s_00112233445566::t_66554433221100 9-10\n---\n" +
		`{"schema_version":"authorship/3.0.0","base_commit_sha":"` + second + `","prompts":{},` +
		`"sessions":{"s_00112233445566":{"agent_id":{"tool":"claude","id":"sess-1","model":"m"}}},` +
		`"humans":{"h_aabbccddeeff00":{"author":"Ann <ann@example.com>"}}}`
	addNote(t, dir, "refs/notes/ai", commit, gitAINote(commit, "claude-sonnet-4-6"))
	addNote(t, dir, "refs/notes/ai", second, overlap)
	addNote(t, dir, "refs/notes/ai", third, gitAINote(commit, "m")) // about another commit: skipped
	rec := `{"version":"0.1.0","id":"550e8400-e29b-41d4-a716-446655440000","timestamp":"2026-01-23T14:30:00Z",` +
		`"vcs":{"type":"git","revision":"` + commit + `"},"tool":{"name":"compass"},"files":[{"path":"a.go","conversations":[` +
		`{"url":"https://x.example/c/1","contributor":{"type":"ai","model_id":"openai/gpt-5"},"ranges":[{"start_line":3,"end_line":4},{"start_line":4,"end_line":8}]}]}]}`
	addNote(t, dir, "refs/notes/agent-trace", commit, rec+"\n")
	g := notes.Git{Dir: dir}
	r, _ := gitx.Discover(dir, os.Getenv)
	commits := []string{commit, second, third}
	lines, skips, err := NewReader(r, g, Refs(context.Background(), g)).Read(context.Background(), commits, nil)
	if err != nil {
		t.Fatal(err)
	}
	ws, wskips, err := NewReader(r, g, Refs(context.Background(), g)).ReadWriters(context.Background(), commits, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(skips) != 1 || len(wskips) != 1 || wskips[0].Commit != third {
		t.Errorf("skips %v and %v, want the third commit's", skips, wskips)
	}
	if len(ws) != 2 {
		t.Errorf("writers of %d commits, want 2", len(ws))
	}
	for _, c := range commits {
		want := Writers(lines[c], nil)
		if !reflect.DeepEqual(ws[c], want) && (len(want) > 0 || len(ws[c]) > 0) {
			t.Errorf("%.7s: %+v, want %+v", c, ws[c], want)
		}
	}
	if w := ws[second]; len(w) != 2 || w[0].Lines != 11 || strings.Join(w[0].Files, " ") != "a.go b.go" {
		t.Errorf("overlapping ranges: %+v", w)
	}
}

// TestReadWritersGiven: the notes of a ref as git log's %N prints them,
// given to ReadWriters, give what reading them gives.
func TestReadWritersGiven(t *testing.T) {
	dir, commit := repo(t)
	git(t, dir, "commit", "-q", "--allow-empty", "-m", "two")
	second := git(t, dir, "rev-parse", "HEAD")
	addNote(t, dir, "refs/notes/ai", commit, gitAINote(commit, "claude-sonnet-4-6"))
	addNote(t, dir, "refs/notes/ai", second, gitAINote(commit, "m")) // about another commit: skipped
	g := notes.Git{Dir: dir}
	r, _ := gitx.Discover(dir, os.Getenv)
	commits := []string{commit, second}
	read, rskips, err := NewReader(r, g, Refs(context.Background(), g)).ReadWriters(context.Background(), commits, nil)
	if err != nil {
		t.Fatal(err)
	}
	given := Given{Notes: map[string]string{}}
	for _, rec := range strings.Split(git(t, dir, "log", "-z", "--notes=refs/notes/ai", "--format=%H%x01%N"), "\x00") {
		if h, n, ok := strings.Cut(rec, "\x01"); ok && n != "" {
			given.Notes[h] = n
		}
	}
	got, gskips, err := NewReader(r, g, Refs(context.Background(), g)).ReadWriters(context.Background(), commits, map[string]Given{"refs/notes/ai": given})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, read) || len(got[commit]) != 2 || len(rskips) != 1 || len(gskips) != 1 || gskips[0].Commit != second {
		t.Errorf("given %+v %v, read %+v %v", got, gskips, read, rskips)
	}
}

// TestReadCommits: the notes' line claims, the trailers' commit claims,
// and git-convo's conversation named where a session is one it knows.
func TestReadCommits(t *testing.T) {
	dir, commit := repo(t)
	addNote(t, dir, "refs/notes/ai", commit, gitAINote(commit, "claude-sonnet-4-6"))
	g := notes.Git{Dir: dir}
	r, _ := gitx.Discover(dir, os.Getenv)
	known := func(tool, session string) string {
		if tool == "claude" && session == "sess-1" {
			return "conv-1"
		}
		return ""
	}
	said, skips := ReadCommits(context.Background(), r, g, []string{commit}, nil, known)
	if len(skips) != 0 || !said.Any() {
		t.Fatalf("%+v %v", said, skips)
	}
	if c := said.Lines[commit]["a.go"][2]; len(c) != 1 || c[0].Conversation != "conv-1" {
		t.Errorf("line 2: %+v", c)
	}
	if c := said.Lines[commit]["a.go"][5]; len(c) != 1 || c[0].Conversation != "" || c[0].Person == "" {
		t.Errorf("line 5: %+v", c)
	}
	if c := said.Commit[commit]; len(c) != 1 || c[0].Tool != "aider" || !c[0].Commit {
		t.Errorf("trailers: %+v", c)
	}
	// Only the wanted files' lines.
	said, _ = ReadCommits(context.Background(), r, g, []string{commit}, func(p string) bool { return p == "b.go" }, nil)
	if len(said.Lines[commit]) != 0 {
		t.Errorf("a.go kept: %+v", said.Lines)
	}
}

// TestClaimedLinesBounded: notes whose ranges, within the parsers' bounds,
// claim more lines than MaxClaimedLines are skipped unread, at once.
func TestClaimedLinesBounded(t *testing.T) {
	dir, commit := repo(t)
	var b strings.Builder
	b.WriteString("a.go\n")
	for range 300 {
		b.WriteString("  s_00112233445566::t_66554433221100 1-1000000\n  h_aabbccddeeff00 1-1000000\n")
	}
	_, meta, _ := strings.Cut(gitAINote(commit, "m"), "---\n")
	addNote(t, dir, "refs/notes/ai", commit, b.String()+"---\n"+meta)
	rec := `{"version":"0.1.0","id":"550e8400-e29b-41d4-a716-446655440000","timestamp":"2026-01-23T14:30:00Z",` +
		`"vcs":{"type":"git","revision":"` + commit + `"},"tool":{"name":"compass"},"files":[{"path":"a.go","conversations":[` +
		`{"contributor":{"type":"ai"},"ranges":[{"start_line":1,"end_line":1000000}]}]}]}`
	addNote(t, dir, "refs/notes/agent-trace", commit, rec)
	g := notes.Git{Dir: dir}
	r, _ := gitx.Discover(dir, os.Getenv)
	lines, skips, err := NewReader(r, g, Refs(context.Background(), g)).Read(context.Background(), []string{commit}, nil)
	if err != nil || len(lines) != 0 || len(skips) != 2 {
		t.Fatalf("lines %d skips %v err %v", len(lines), skips, err)
	}
	rep, err := Scan(context.Background(), r, g, Refs(context.Background(), g))
	if err != nil || len(rep.Skipped) != 2 {
		t.Errorf("doctor's scan: %v %v", rep.Skipped, err)
	}
}

// TestOneGitAINoteACommit: a commit's git-ai note is read from one ref,
// the first in CompareRefs' order holding one, by every reader (Read,
// ReadWriters with and without notes given, ReadSessions), whichever
// order the refs are given in.
func TestOneGitAINoteACommit(t *testing.T) {
	ctx := context.Background()
	dir, commit := repo(t)
	other := strings.Replace(gitAINote(commit, "remote-model"), `"id":"sess-1"`, `"id":"sess-2"`, 1)
	other = strings.Replace(other, " 1-3\n", " 1-2\n", 1)
	addNote(t, dir, "refs/notes/remotes/alpha/ai", commit, other)
	addNote(t, dir, "refs/notes/remotes/zed/ai", commit, gitAINote(commit, "zed-model"))
	g := notes.Git{Dir: dir}
	r, _ := gitx.Discover(dir, os.Getenv)
	check := func(what, model string, agentLines int, session string) {
		t.Helper()
		backward := Refs(ctx, g)
		slices.Reverse(backward)
		for _, refs := range [][]string{Refs(ctx, g), backward} {
			lines, skips, err := NewReader(r, g, refs).Read(ctx, []string{commit}, nil)
			if err != nil || len(skips) != 0 {
				t.Fatalf("%s: %v %v", what, skips, err)
			}
			for n, cs := range lines[commit]["a.go"] {
				if len(cs) != 1 || cs[0].Person == "" && cs[0].Model != model {
					t.Errorf("%s, refs %v: line %d: %+v, want one claim of %s", what, refs, n, cs, model)
				}
			}
			ws, _, _ := NewReader(r, g, refs).ReadWriters(ctx, []string{commit}, nil)
			if w := ws[commit]; len(w) != 2 || w[0].Model != model || w[0].Lines != agentLines || w[1].Lines != 1 {
				t.Errorf("%s, refs %v: writers %+v", what, refs, w)
			}
		}
		sessions, _ := ReadSessions(ctx, r, g)
		if len(sessions) != 1 || len(sessions[[2]string{"claude", session}]) != 1 {
			t.Errorf("%s: sessions %v, want %s's", what, sessions, session)
		}
	}
	check("two remotes' copies", "remote-model", 2, "sess-2") // alpha before zed
	addNote(t, dir, "refs/notes/ai", commit, gitAINote(commit, "local-model"))
	check("the local note and two copies", "local-model", 3, "sess-1")
	// A note given (log's %N) for a remote ref is not read beside the local one.
	given := map[string]Given{"refs/notes/remotes/zed/ai": {Notes: map[string]string{commit: gitAINote(commit, "zed-model")}}}
	ws, _, _ := NewReader(r, g, Refs(ctx, g)).ReadWriters(ctx, []string{commit}, given)
	if w := ws[commit]; len(w) != 2 || w[0].Model != "local-model" || w[0].Lines != 3 {
		t.Errorf("given a remote's copy: %+v", w)
	}
	if refs := Refs(ctx, g); strings.Join(refs, " ") != "refs/notes/ai refs/notes/remotes/alpha/ai refs/notes/remotes/zed/ai" {
		t.Errorf("refs %v", refs)
	}
	// doctor's scan checks the note every read reads, not a copy none reads.
	elsewhere := strings.Repeat("ab", 20)
	addNote(t, dir, "refs/notes/remotes/zed/ai", commit, gitAINote(elsewhere, "m")) // about another commit
	scan := func(what string, want ...string) {
		t.Helper()
		rep, err := Scan(ctx, r, g, Refs(ctx, g))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range rep.Skipped {
			got = append(got, s.Ref)
		}
		if strings.Join(got, " ") != strings.Join(want, " ") || rep.Notes["refs/notes/remotes/zed/ai"] != 1 {
			t.Errorf("%s: scan skipped %v (notes %v), want %v", what, got, rep.Notes, want)
		}
	}
	scan("a broken copy behind the local note")
	git(t, dir, "notes", "--ref=refs/notes/ai", "remove", commit)
	scan("a broken copy behind alpha's")
	addNote(t, dir, "refs/notes/remotes/alpha/ai", commit, gitAINote(elsewhere, "m"))
	scan("alpha's broken", "refs/notes/remotes/alpha/ai")
}

// TestScanBounded: past the bound of notes read a ref, doctor's scan says
// how many the ref holds and how many it checked, and ReadSessions says
// that it counted the sessions of some notes only; at or under it, all.
func TestScanBounded(t *testing.T) {
	ctx := context.Background()
	dir, first := repo(t)
	commits := []string{first}
	for i := range 2 {
		git(t, dir, "commit", "-q", "--allow-empty", "-m", fmt.Sprint("more ", i))
		commits = append(commits, git(t, dir, "rev-parse", "HEAD"))
	}
	for _, c := range commits {
		addNote(t, dir, "refs/notes/ai", c, gitAINote(c, "m"))
	}
	g := notes.Git{Dir: dir}
	r, _ := gitx.Discover(dir, os.Getenv)
	for _, tc := range []struct {
		max, checked int
		skipped      bool
	}{{2, 2, true}, {3, 3, false}, {ScanMax, 3, false}} {
		rep, err := scan(ctx, r, g, Refs(ctx, g), tc.max)
		if err != nil || rep.Notes["refs/notes/ai"] != 3 || rep.Checked["refs/notes/ai"] != tc.checked {
			t.Errorf("scan, at most %d: notes %v, checked %v, %v", tc.max, rep.Notes, rep.Checked, err)
		}
		_, skips := readSessions(ctx, r, g, tc.max)
		said := len(skips) == 1 && strings.Contains(skips[0].Error(), "refs/notes/ai: 3 notes: the sessions of 2 read, those of the other 1 not counted")
		if said != tc.skipped || !tc.skipped && len(skips) != 0 {
			t.Errorf("sessions, at most %d: skips %v", tc.max, skips)
		}
	}
}
