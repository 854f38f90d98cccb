package cli

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-convo/git-convo/pkg/agents/cursor/cursortest"
	"github.com/git-convo/git-convo/pkg/app"
	"github.com/git-convo/git-convo/pkg/app/prsummary"
	"github.com/git-convo/git-convo/pkg/share/interop/gitai"
	"github.com/git-convo/git-convo/pkg/store"
)

// addRawNote puts text as the note of rev on ref, as another tool would.
func (sb *sandbox) addRawNote(repo, ref, rev, text string) {
	sb.t.Helper()
	f := filepath.Join(sb.root, "raw-note")
	if err := os.WriteFile(f, []byte(text), 0o600); err != nil {
		sb.t.Fatal(err)
	}
	sb.run(repo, "git", "notes", "--ref="+ref, "add", "-f", "-F", f, rev)
}

func gitAINoteFor(commit, path, model string) string {
	return path + "\n  s_00112233445566::t_66554433221100 1-3\n  h_aabbccddeeff00 5\n---\n" +
		`{"schema_version":"authorship/3.0.0","base_commit_sha":"` + commit + `","prompts":{},` +
		`"sessions":{"s_00112233445566":{"agent_id":{"tool":"claude","id":"sess-1","model":"` + model + `"}}},` +
		`"humans":{"h_aabbccddeeff00":{"author":"Ann Lee <ann@example.com>"}}}`
}

func agentTraceFor(commit, path string) string {
	return `{"version":"0.1.0","id":"550e8400-e29b-41d4-a716-446655440000","timestamp":"2026-01-23T14:30:00Z",` +
		`"vcs":{"type":"git","revision":"` + commit + `"},"tool":{"name":"compass"},"files":[{"path":"` + path + `","conversations":[` +
		`{"url":"https://x.example/c/1","contributor":{"type":"ai","model_id":"openai/gpt-5"},"ranges":[{"start_line":3,"end_line":4}]}]}]}`
}

// TestBlameMixedTeam: one file, lines claimed by git-ai's notes (an agent's
// and a person's), another tool's Agent Trace record and a trailer; blame
// names each source, decides by the precedence and says where sources
// agree or disagree; hostile notes are skipped.
func TestBlameMixedTeam(t *testing.T) {
	sb := newSandbox(t)
	repo := sb.repo("mixed")
	sb.write(repo, "a.go", "l1\nl2\nl3\nl4\nl5\nl6\n")
	c1 := sb.commit(repo, "a", "a.go")
	sb.addRawNote(repo, "refs/notes/ai", c1, gitAINoteFor(c1, "a.go", "claude-sonnet-4-6"))
	bad := strings.Replace(agentTraceFor(c1, "a.go"), `"ai"`, `"robot"`, 1)
	sb.addRawNote(repo, "refs/notes/agent-trace", c1, agentTraceFor(c1, "a.go")+"\n"+bad+"\n")
	sb.write(repo, "b.go", "b1\n")
	c2 := sb.commit(repo, "b\n\nCo-authored-by: aider (gpt-4o) <noreply@aider.chat>", "b.go")
	sb.write(repo, "c.go", "c1\nc2\nc3\n")
	c3 := sb.commit(repo, "c", "c.go")
	sb.addRawNote(repo, "refs/notes/ai", c3, gitAINoteFor(c3, "c.go", `\u001b]0;pwned\u0007`))
	sb.addRawNote(repo, "refs/notes/ai", c2, gitAINoteFor(c2, "b.go", "m")) // lines 1-3 and 5 of a 1-line file

	lines := sb.blameJSON(repo, "a.go")
	if len(lines) != 6 {
		t.Fatalf("%d lines", len(lines))
	}
	want := []struct {
		attr, agent, from, sources string
		claims                     int
	}{
		{"agent", "claude", "git-ai's notes", "", 1},
		{"agent", "claude", "git-ai's notes", "", 1},
		{"agent", "claude", "git-ai's notes", "sources disagree", 2},
		{"agent", "compass", "compass's Agent Trace record", "", 1},
		{"human", "", "git-ai's notes", "", 1},
		{"unknown", "", "", "", 0},
	}
	for i, w := range want {
		l := lines[i]
		agent := ""
		if l.Agent != nil {
			agent = *l.Agent
		}
		if l.Attribution != w.attr || agent != w.agent || l.From != w.from || l.Sources != w.sources || len(l.Claims) != w.claims {
			t.Errorf("line %d: %s %q from %q, %q, %d claims; want %+v", i+1, l.Attribution, agent, l.From, l.Sources, len(l.Claims), w)
		}
	}
	if c := lines[0].Claims; len(c) == 1 && (c[0].Model != "claude-sonnet-4-6" || c[0].Session != "sess-1" || c[0].Source != "git-ai") {
		t.Errorf("line 1's claim: %+v", c[0])
	}
	if c := lines[4].Claims; len(c) == 1 && c[0].Person != "Ann Lee <ann@example.com>" {
		t.Errorf("line 5's claim: %+v", c[0])
	}

	// b.go's one line: git-ai's line claim (its log runs past the file's
	// end, which only doctor can see) above the commit's trailer.
	b := sb.blameJSON(repo, "b.go")
	if len(b) != 1 || b[0].Attribution != "agent" || b[0].From != "git-ai's notes" || len(b[0].Claims) != 2 ||
		b[0].Claims[1].Tool != "aider" || b[0].Claims[1].Model != "gpt-4o" || b[0].Claims[1].Evidence != "commit trailer" {
		t.Errorf("b.go: %+v", b)
	}
	r := sb.runEnv(repo, sb.env, "", "git", "convo", "doctor")
	for _, s := range []string{"other tools' notes", "1 note(s) on refs/notes/agent-trace", "3 note(s) on refs/notes/ai", "3 skipped by every read"} {
		if !strings.Contains(r.stdout, s) {
			t.Errorf("doctor lacks %q:\n%s", s, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "\x1b") {
		t.Errorf("doctor prints a raw escape")
	}

	text := sb.convo(repo, "blame", "a.go")
	for _, s := range []string{"claude (git-ai)", "compass (trace)", "Ann Lee (git-ai)", "sources disagree on line(s) 3", "4 line(s) from git-ai's notes"} {
		if !strings.Contains(text, s) {
			t.Errorf("blame text lacks %q:\n%s", s, text)
		}
	}
	sb.write(repo, "d.go", "d1\n")
	sb.commit(repo, "d\n\nCo-authored-by: aider (gpt-4o) <noreply@aider.chat>", "d.go")
	if text := sb.convo(repo, "blame", "d.go"); !strings.Contains(text, "aider? (trailer)") {
		t.Errorf("d.go:\n%s", text)
	}
	if d := sb.blameJSON(repo, "d.go"); len(d) != 1 || d[0].Attribution != "unknown" || d[0].From != "a Co-authored-by trailer" {
		t.Errorf("d.go: %+v", d)
	}
	// The hostile note is skipped whole: no claim, no escape.
	c := sb.convo(repo, "blame", "c.go")
	if strings.Contains(c, "\x1b") || strings.Contains(c, "git-ai") {
		t.Errorf("c.go:\n%q", c)
	}
	if cj := sb.blameJSON(repo, "c.go"); len(cj) != 3 || cj[0].Claims != nil {
		t.Errorf("c.go: %+v", cj)
	}
	// stats: a.go's 6 lines (4 an agent's: git-ai's 1-3, compass's 4) and
	// b.go's line; c.go's note is skipped, d.go's trailer counts no line.
	var st statsJSON
	if err := json.Unmarshal([]byte(sb.convo(repo, "stats", "--json")), &st); err != nil {
		t.Fatal(err)
	}
	if st.Added != 7 || st.Agent != 5 || st.Examined != 2 || st.Sources["git-ai's notes"] != 2 || st.Sources["compass's Agent Trace record"] != 1 {
		t.Errorf("stats: %+v", st)
	}
}

// TestBlameWithoutOtherRefs: no other tool's ref, no trailer: blame's
// JSON carries no claims (git-convo alone speaks).
func TestBlameWithoutOtherRefs(t *testing.T) {
	sb := newSandbox(t)
	repo := sb.repo("plain")
	sb.write(repo, "a.go", "l1\n")
	sb.commit(repo, "a", "a.go")
	for _, l := range sb.blameJSON(repo, "a.go") {
		if l.Claims != nil || l.From != "" || l.Sources != "" {
			t.Errorf("%+v", l)
		}
	}
	if text := sb.convo(repo, "blame", "a.go"); strings.Contains(text, "# other tools") {
		t.Errorf("%s", text)
	}
}

// TestShowOtherTools: show names each writer other tools name in a
// commit, with its lines and its source; a person git-ai saw typing is
// that person, not "no record".
func TestShowOtherTools(t *testing.T) {
	sb := newSandbox(t)
	repo := sb.repo("show")
	sb.write(repo, "a.go", "l1\nl2\nl3\nl4\nl5\nl6\n")
	c1 := sb.commit(repo, "a\n\nCo-authored-by: aider (gpt-4o) <noreply@aider.chat>", "a.go")
	sb.addRawNote(repo, "refs/notes/ai", c1, gitAINoteFor(c1, "a.go", "claude-sonnet-4-6"))
	text := sb.convo(repo, "show", "--no-patch", c1)
	for _, s := range []string{"other tools:", "claude (claude-sonnet-4-6), session sess-1: 3 line(s) in a.go (from git-ai's notes; git-ai checkpoint)",
		"Ann Lee <ann@example.com>, a person: 1 line(s) in a.go (from git-ai's notes; seen typed by git-ai)",
		"aider (gpt-4o): which lines is not known (from a Co-authored-by trailer; commit trailer)"} {
		if !strings.Contains(text, s) {
			t.Errorf("show lacks %q:\n%s", s, text)
		}
	}
	var obj struct {
		OtherTools []app.OtherWriter `json:"otherTools"`
	}
	if err := json.Unmarshal([]byte(sb.convo(repo, "show", "--json", c1)), &obj); err != nil {
		t.Fatal(err)
	}
	if len(obj.OtherTools) != 3 || obj.OtherTools[0].Lines != 3 || obj.OtherTools[0].Source != "git-ai" || !obj.OtherTools[2].Commit {
		t.Errorf("%+v", obj.OtherTools)
	}
	// log: the notes' writers, then the trailer's, from the bodies its
	// git log prints.
	lg := sb.convo(repo, "log", "-n", "1")
	for _, s := range []string{"claude (claude-sonnet-4-6) (3 line(s), from git-ai's notes)", "Ann Lee <ann@example.com> (1 line(s), from git-ai's notes)",
		"aider (gpt-4o) (which lines is not known; commit trailer, from a Co-authored-by trailer)"} {
		if !strings.Contains(lg, s) {
			t.Errorf("log lacks %q:\n%s", s, lg)
		}
	}
	var lj struct {
		OtherTools []app.OtherWriter `json:"otherTools"`
	}
	first, _, _ := strings.Cut(sb.convo(repo, "log", "--json", "-n", "1"), "\n")
	if err := json.Unmarshal([]byte(first), &lj); err != nil || len(lj.OtherTools) != 3 || !lj.OtherTools[2].Commit || lj.OtherTools[2].Evidence != "commit trailer" {
		t.Errorf("log --json: %v %+v", err, lj.OtherTools)
	}
}

// TestInstallFetchesGitAINotes: install adds the fetch of refs/notes/ai
// only when the remote has it, into a tracking ref; reads use it; nothing
// pushes it.
func TestInstallFetchesGitAINotes(t *testing.T) {
	_, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	if cfg := a.run(a.dir, "git", "config", "--get-all", "remote.origin.fetch"); strings.Contains(cfg, "notes/ai") {
		t.Fatalf("refspec added for a remote without git-ai's notes: %s", cfg)
	}
	a.write(a.dir, "a.go", "l1\nl2\nl3\nl4\nl5\n")
	c := a.commit(a.dir, "a", "a.go")
	a.addRawNote(a.dir, "refs/notes/ai", c, gitAINoteFor(c, "a.go", "claude-sonnet-4-6"))
	a.run(a.dir, "git", "push", "-q", "origin", "main", "refs/notes/ai")

	b := cloneAs(t, bare, "b")
	cfg := b.run(b.dir, "git", "config", "--get-all", "remote.origin.fetch")
	if !strings.Contains(cfg, "+refs/notes/ai:refs/notes/remotes/origin/ai") {
		t.Fatalf("no refspec: %s", cfg)
	}
	if push := b.runEnv(b.dir, b.env, "", "git", "config", "--get-all", "remote.origin.push"); strings.Contains(push.stdout, "ai") {
		t.Errorf("a push refspec: %s", push.stdout)
	}
	if out := b.convo(b.dir, "blame", "a.go"); !strings.Contains(out, "claude (git-ai)") {
		t.Errorf("blame in the clone:\n%s", out)
	}
	// b commits and pushes: git-ai's ref on the remote is untouched.
	before := b.run(b.dir, "git", "ls-remote", "origin", "refs/notes/ai")
	b.write(b.dir, "b.go", "x\n")
	b.commit(b.dir, "b", "b.go")
	b.run(b.dir, "git", "push", "-q", "origin", "main")
	if after := b.run(b.dir, "git", "ls-remote", "origin", "refs/notes/ai"); after != before {
		t.Errorf("refs/notes/ai moved on the remote: %s -> %s", before, after)
	}
	if refs := b.run(b.dir, "git", "for-each-ref", "refs/notes/ai"); refs != "" {
		t.Errorf("git-convo wrote refs/notes/ai in the clone: %s", refs)
	}
}

// TestTraceFormatGitAI: git-convo's attribution of a commit, printed as a
// git-ai authorship log, reads back through the git-ai reader with the
// conversation's lines under git-ai's own session key for it; and a
// clone reading that log as git-ai's note gives the lines to the same
// conversation (it is that conversation, not a second one).
func TestTraceFormatGitAI(t *testing.T) {
	_, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	conv := "3f1c9a52-7d0e-4b8e-9a61-2c5d8e4f7a10"
	a.conversation(t, conv, "Add a limiter", "Added it.", "add a limiter", "limit.go", "package limit\n\nfunc Allow() bool {\n\treturn true\n}\n")
	c := a.commit(a.dir, "limiter", "limit.go")
	out := a.convo(a.dir, "trace", "--format", "git-ai", c)
	l, err := gitai.Parse([]byte(out))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	lines := l.Lines("limit.go")
	if len(lines) < 4 {
		t.Fatalf("%d lines attested:\n%s", len(lines), out)
	}
	for n, who := range lines {
		if who.Agent.Tool != "cursor" || who.Agent.ID != conv || who.Session != gitai.SessionKey("cursor", conv) {
			t.Errorf("line %d: %+v", n, who)
		}
	}
	if l.Meta.BaseCommitSHA != c {
		t.Errorf("base_commit_sha %s", l.Meta.BaseCommitSHA)
	}
	if refs := a.run(a.dir, "git", "for-each-ref", "refs/notes/ai"); refs != "" {
		t.Errorf("trace wrote refs/notes/ai: %s", refs)
	}
	// The log as git-ai's note: blame names the conversation, and says
	// the two sources agree.
	a.addRawNote(a.dir, "refs/notes/ai", c, out)
	bl := a.blameJSON(a.dir, "limit.go")
	if bl[0].Sources != "2 sources agree" || bl[0].WrittenBy == nil || *bl[0].WrittenBy != conv {
		t.Errorf("line 1: %+v", bl[0])
	}
	if r := a.runEnv(a.dir, a.env, "", "git", "convo", "trace", "--format", "git-ai", c+"~1", c); r.code != 2 {
		t.Errorf("two revisions: exit %d, %s", r.code, r.stderr)
	}
}

// TestHostileGitAINotesBounded: a git-ai note of 100,000 entries, one of
// huge ranges, and one of escapes: blame and doctor answer at once, claim
// nothing from them and print no raw escape.
func TestHostileGitAINotesBounded(t *testing.T) {
	sb := newSandbox(t)
	repo := sb.repo("hostile")
	sb.write(repo, "a.go", "l1\nl2\n")
	c := sb.commit(repo, "a", "a.go")
	var b strings.Builder
	b.WriteString("a.go\n")
	for i := range 100_000 {
		b.WriteString("  s_00112233445566::t_66554433221100 " + strconv.Itoa(i%2+1) + "\n")
	}
	meta := gitAINoteFor(c, "a.go", "m")
	_, js, _ := strings.Cut(meta, "---\n")
	sb.addRawNote(repo, "refs/notes/ai", c, b.String()+"---\n"+js)
	r := sb.runWithin(20*time.Second, repo, "blame", "--json", "a.go")
	if r.code != 0 || strings.Contains(r.stdout, "git-ai") {
		t.Errorf("exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
	sb.addRawNote(repo, "refs/notes/ai", c, "a.go\n  s_00112233445566::t_66554433221100 1-999999999999\n---\n"+js)
	if r := sb.runWithin(20*time.Second, repo, "blame", "a.go"); r.code != 0 || strings.Contains(r.stdout, "git-ai") {
		t.Errorf("huge range: exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
	d := sb.runWithin(20*time.Second, repo, "doctor")
	if !strings.Contains(d.stdout, "1 skipped by every read") || strings.Contains(d.stdout, "\x1b") {
		t.Errorf("doctor:\n%s", d.stdout)
	}
}

// TestMCPOtherTools: get_commit_conversations carries what git-ai's notes
// and the trailers say of the commit, each with its source.
func TestMCPOtherTools(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("mcp")
	sb.write(repo, "a.go", "l1\nl2\nl3\nl4\nl5\n")
	c := sb.commit(repo, "a\n\nCo-authored-by: aider (gpt-4o) <noreply@aider.chat>", "a.go")
	sb.addRawNote(repo, "refs/notes/ai", c, gitAINoteFor(c, "a.go", "claude-sonnet-4-6"))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.Command("git", "convo", "mcp")
	cmd.Dir, cmd.Env = repo, sb.env
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "get_commit_conversations", Arguments: map[string]any{"commitHash": c}})
	if err != nil || res.IsError {
		t.Fatalf("%v %+v", err, res)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var out struct {
		OtherTools []app.OtherWriter `json:"otherTools"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if len(out.OtherTools) != 3 || out.OtherTools[0].From != "git-ai's notes" || out.OtherTools[0].Lines != 3 ||
		out.OtherTools[0].Model != "claude-sonnet-4-6" || out.OtherTools[2].Tool != "aider" {
		t.Errorf("%s", b)
	}
}

// TestShareAlsoGitAI: refs/notes/ai is written only with share on --also
// git-ai, never over a note already there, never pushed; share off stops it.
func TestShareAlsoGitAI(t *testing.T) {
	_, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	conv := "3f1c9a52-7d0e-4b8e-9a61-2c5d8e4f7a10"
	a.conversation(t, conv, "Add a limiter", "Added it.", "add a limiter", "limit.go", "package limit\n\nfunc Allow() bool {\n\treturn true\n}\n")
	c := a.commit(a.dir, "limiter", "limit.go")
	a.convo(a.dir, "share", "on")
	if refs := a.run(a.dir, "git", "for-each-ref", "refs/notes/ai"); refs != "" {
		t.Fatalf("share on wrote refs/notes/ai: %s", refs)
	}
	a.convo(a.dir, "share", "off")
	out := a.convo(a.dir, "share", "on", "--also", "git-ai")
	if !strings.Contains(out, "1 git-ai authorship log") {
		t.Errorf("share on --also git-ai:\n%s", out)
	}
	l, err := gitai.Parse([]byte(a.noteText("refs/notes/ai", c)))
	if err != nil || len(l.Lines("limit.go")) < 4 || l.Meta.Sessions[gitai.SessionKey("cursor", conv)].AgentID.ID != conv {
		t.Fatalf("%v %+v", err, l)
	}
	// A note git-ai wrote on the next commit stays as it was.
	a.conversation(t, conv, "Add a limiter", "Added it.", "more", "limit2.go", "package limit\n\nfunc Deny() bool {\n\treturn false\n}\n")
	c2 := a.commit(a.dir, "more", "limit2.go")
	theirs := gitAINoteFor(c2, "limit2.go", "claude-sonnet-4-6")
	a.addRawNote(a.dir, "refs/notes/ai", c2, theirs)
	a.run(a.dir, "git", "push", "-q", "origin", "main")
	a.convo(a.dir, "push")
	if got := a.noteText("refs/notes/ai", c2); strings.TrimSpace(got) != strings.TrimSpace(theirs) {
		t.Errorf("git-ai's note replaced:\n%s", got)
	}
	if r := a.runEnv(a.dir, a.env, "", "git", "ls-remote", "origin", "refs/notes/ai"); strings.TrimSpace(r.stdout) != "" {
		t.Errorf("refs/notes/ai pushed: %s", r.stdout)
	}
	a.convo(a.dir, "share", "off")
	if v := a.runEnv(a.dir, a.env, "", "git", "config", "convo.shareAlso"); v.code == 0 {
		t.Errorf("convo.shareAlso still %q after share off", v.stdout)
	}
	if r := a.runEnv(a.dir, a.env, "", "git", "convo", "share", "on", "--also", "jj"); r.code != 2 {
		t.Errorf("--also jj: exit %d", r.code)
	}
}

// TestUninstallGitAIRefspec: uninstall takes out the fetch of refs/notes/ai
// install added from a remote that has it, and only that: the same
// refspec written by the user before an install stays, exactly once.
func TestUninstallGitAIRefspec(t *testing.T) {
	_, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	a.write(a.dir, "a.go", "l1\nl2\nl3\nl4\nl5\n")
	c := a.commit(a.dir, "a", "a.go")
	a.addRawNote(a.dir, "refs/notes/ai", c, gitAINoteFor(c, "a.go", "claude-sonnet-4-6"))
	a.run(a.dir, "git", "push", "-q", "origin", "main", "refs/notes/ai")

	const spec = "+refs/notes/ai:refs/notes/remotes/origin/ai"
	b := cloneAs(t, bare, "b")
	fetch := func() []string {
		r := b.runEnv(b.dir, b.env, "", "git", "config", "--get-all", "remote.origin.fetch")
		return strings.Split(strings.TrimSpace(r.stdout), "\n")
	}
	count := func(specs []string) int {
		n := 0
		for _, s := range specs {
			if s == spec {
				n++
			}
		}
		return n
	}
	if got := fetch(); count(got) != 1 {
		t.Fatalf("after install: %q", got)
	}
	out := b.convo(b.dir, "uninstall")
	if got := fetch(); count(got) != 0 || !strings.Contains(strings.Join(got, "\n"), "+refs/heads/*:refs/remotes/origin/*") {
		t.Errorf("after uninstall: %q\n%s", got, out)
	}
	if !strings.Contains(out, "removed git config remote.origin.fetch "+spec) {
		t.Errorf("uninstall does not say so:\n%s", out)
	}
	// The fetched notes stay (the team's), read-only.
	if refs := b.run(b.dir, "git", "for-each-ref", "refs/notes/remotes/origin/ai"); refs == "" {
		t.Errorf("the fetched notes went")
	}

	// The user's own refspec, written before install: install finds it,
	// uninstall leaves it.
	b.run(b.dir, "git", "config", "--add", "remote.origin.fetch", spec)
	b.convo(b.dir, "install", "--cursor=none")
	if got := fetch(); count(got) != 1 {
		t.Fatalf("after the second install: %q", got)
	}
	b.convo(b.dir, "uninstall")
	if got := fetch(); count(got) != 1 {
		t.Errorf("uninstall took the user's refspec: %q", got)
	}
	if r := b.runEnv(b.dir, b.env, "", "git", "config", "--get-all", "convo.gitAIFetch"); r.code == 0 {
		t.Errorf("convo.gitAIFetch left: %q", r.stdout)
	}
}

// TestPRMixedTeam: pr reads other tools' records: git-ai's lines (an
// agent's and a person's), another tool's Agent Trace range, a trailer;
// each counted by the precedence with its source named, every claim in
// the JSON; a commit only they cover is covered; hostile notes skipped,
// no raw escape in any format.
func TestPRMixedTeam(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("prmixed")
	sb.run(repo, "git", "checkout", "-q", "-b", "feature")
	sb.write(repo, "a.go", "l1\nl2\nl3\nl4\nl5\nl6\n")
	c1 := sb.commit(repo, "a", "a.go")
	sb.addRawNote(repo, "refs/notes/ai", c1, gitAINoteFor(c1, "a.go", "claude-sonnet-4-6"))
	sb.addRawNote(repo, "refs/notes/agent-trace", c1, agentTraceFor(c1, "a.go"))
	sb.write(repo, "b.go", "b1\nb2\n")
	c2 := sb.commit(repo, "b\n\nCo-authored-by: aider (gpt-4o) <noreply@aider.chat>", "b.go")
	sb.write(repo, "c.go", "c1\n")
	c3 := sb.commit(repo, "c", "c.go")
	sb.addRawNote(repo, "refs/notes/ai", c3, gitAINoteFor(c3, "c.go", `\u001b]0;pwned\u0007`))
	sb.write(repo, "d.go", "../../etc/passwd\n")
	c4 := sb.commit(repo, "d", "d.go")
	sb.addRawNote(repo, "refs/notes/ai", c4, strings.Replace(gitAINoteFor(c4, "d.go", "m"), "d.go\n", "../../etc/passwd\n", 1))

	var s prsummary.Summary
	if err := json.Unmarshal([]byte(sb.convo(repo, "pr", "main", "--format", "json")), &s); err != nil {
		t.Fatal(err)
	}
	h := s.Headline
	// a.go: 1-3 claude (git-ai; line 3 compass disagrees), 4 compass, 5
	// Ann (git-ai's h_), 6 untracked; b.go: the trailer says which lines
	// is not known; c.go, d.go: skipped notes.
	if h.Added != 10 || h.Agent != 4 || h.Person != 1 || h.NoEdit != 1 || h.NoRecord != 4 {
		t.Errorf("headline %+v", h.Lines)
	}
	if s.Commits.Covered != 1 || len(s.Commits.Uncovered) != 3 || s.NothingRecorded {
		t.Errorf("commits %+v", s.Commits)
	}
	for _, u := range s.Commits.Uncovered {
		if u.Hash == c2 && !strings.Contains(u.Reason, "Co-authored-by trailer (aider)") {
			t.Errorf("the trailer's commit: %q", u.Reason)
		}
	}
	src := map[string]int{}
	for _, c := range h.BySource {
		src[c.Name] = c.Lines
	}
	if src["git-ai's notes"] != 4 || src["compass's Agent Trace record"] != 1 || src["git-convo"] != 0 {
		t.Errorf("by source %+v", h.BySource)
	}
	agents := map[string]int{}
	for _, c := range h.ByAgent {
		agents[c.Name] = c.Lines
	}
	if agents["claude"] != 3 || agents["compass"] != 1 {
		t.Errorf("by agent %+v", h.ByAgent)
	}
	var ann, claude bool
	for _, w := range h.OtherTools {
		ann = ann || w.Person == "Ann Lee <ann@example.com>" && w.Lines == 1 && w.Attribution == "human" && w.From == "git-ai's notes"
		claude = claude || w.Tool == "claude" && w.Model == "claude-sonnet-4-6" && w.Session == "sess-1" && w.Lines == 3
	}
	if !ann || !claude {
		t.Errorf("other tools %+v", h.OtherTools)
	}
	for _, hk := range s.Hunks {
		switch hk.Path {
		case "a.go":
			if hk.SourcesDisagree != 1 || len(hk.Claims) != 3 || len(hk.OtherTools) != 3 {
				t.Errorf("a.go's hunk: %+v", hk)
			}
			for _, c := range hk.Claims {
				if c.Source == "agent-trace" && (c.Lines != 2 || c.Answer != 1 || c.Evidence != "agent trace range") {
					t.Errorf("compass's claim %+v", c)
				}
			}
		case "b.go":
			if len(hk.OtherTools) != 1 || hk.OtherTools[0].Tool != "aider" || hk.OtherTools[0].Lines != 0 || hk.OtherTools[0].Commit != c2 ||
				len(hk.Claims) != 1 || hk.Claims[0].Lines != 2 || hk.Agent != 0 || hk.NoRecord != 2 {
				t.Errorf("b.go's hunk: %+v", hk)
			}
		case "c.go", "d.go":
			if len(hk.OtherTools) != 0 || hk.Claims != nil {
				t.Errorf("%s: a skipped note claims: %+v", hk.Path, hk)
			}
		}
	}
	for _, format := range []string{"terminal", "markdown", "html", "json"} {
		out := sb.convo(repo, "pr", "main", "--format", format, "--color", "never")
		if strings.Contains(out, "\x1b") || strings.Contains(out, "\x07") || strings.Contains(out, "pwned") {
			t.Errorf("%s: a hostile note reached the output:\n%q", format, out)
		}
		if format == "json" {
			continue
		}
		for _, want := range []string{"s notes", "Ann Lee", "compass", "aider", "seen typed by git"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s lacks %q:\n%s", format, want, out)
			}
		}
		if format == "terminal" {
			for _, want := range []string{"3 lines: claude (claude-sonnet-4-6), session sess-1 (from git-ai's notes; git-ai checkpoint)",
				"1 line: Ann Lee <ann@example.com>, a person (from git-ai's notes; seen typed by git-ai)",
				"which lines is not known: aider (gpt-4o)", "sources disagree on 1 line", "a person's, as another tool's record attests"} {
				if !strings.Contains(out, want) {
					t.Errorf("terminal lacks %q:\n%s", want, out)
				}
			}
		}
	}
	// A range of the trailer's commit alone: nothing recorded, and it says
	// a trailer names an agent.
	var only prsummary.Summary
	if err := json.Unmarshal([]byte(sb.convo(repo, "pr", c1+".."+c2, "--json")), &only); err != nil || !only.NothingRecorded ||
		!strings.Contains(only.Message, "A commit trailer names an agent in 1 of them") {
		t.Errorf("the trailer's commit alone: %v %+v", err, only.Message)
	}
	if d := sb.runEnv(repo, sb.env, "", "git", "convo", "doctor"); !strings.Contains(d.stdout, "2 skipped by every read") {
		t.Errorf("doctor:\n%s", d.stdout)
	}
}

// TestPRGitAISessionIsTheConversation: a git-ai session naming a
// conversation git-convo knows is that conversation: where git-convo's own
// edit evidence also wrote the lines, the two sources agree and the lines
// count once; on a commit where no recorded edit matched, git-ai's
// checkpoint gives the lines to the conversation, and says the sources
// disagree.
func TestPRGitAISessionIsTheConversation(t *testing.T) {
	skipOnWindows(t)
	_, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	a.run(a.dir, "git", "checkout", "-q", "-b", "feature")
	conv := "3f1c9a52-7d0e-4b8e-9a61-2c5d8e4f7a10"
	a.conversation(t, conv, "Add a limiter", "Added it.", "add a limiter", "limit.go", "package limit\n\nfunc Allow() bool {\n\treturn true\n}\n")
	c1 := a.commit(a.dir, "limiter", "limit.go")
	a.addRawNote(a.dir, "refs/notes/ai", c1, a.convo(a.dir, "trace", "--format", "git-ai", c1))
	a.write(a.dir, "wait.go", "package limit\n\nfunc Wait() {}\n")
	c2 := a.commit(a.dir, "wait", "wait.go")
	key := gitai.SessionKey("cursor", conv)
	a.addRawNote(a.dir, "refs/notes/ai", c2, "wait.go\n  "+key+"::t_66554433221100 1-3\n---\n"+
		`{"schema_version":"authorship/3.0.0","base_commit_sha":"`+c2+`","prompts":{},`+
		`"sessions":{"`+key+`":{"agent_id":{"tool":"cursor","id":"`+conv+`","model":"gpt-5"}}}}`)

	var s prsummary.Summary
	if err := json.Unmarshal([]byte(a.convo(a.dir, "pr", "main", "--format", "json")), &s); err != nil {
		t.Fatal(err)
	}
	if len(s.Conversations) != 1 || s.Conversations[0].ID != conv || s.Conversations[0].Title != "Add a limiter" {
		t.Fatalf("conversations %+v", s.Conversations)
	}
	for _, hk := range s.Hunks {
		switch hk.Path {
		case "limit.go":
			if hk.Agent != 4 || hk.SourcesAgree != 4 || hk.SourcesDisagree != 0 || len(hk.Writers) != 1 || len(hk.OtherTools) != 0 {
				t.Errorf("limit.go: %+v", hk)
			}
		case "wait.go":
			if hk.Agent != 2 || hk.SourcesDisagree != 2 || len(hk.OtherTools) != 1 || hk.OtherTools[0].Conversation != conv ||
				hk.OtherTools[0].From != "git-ai's notes" {
				t.Errorf("wait.go: %+v", hk)
			}
			for _, w := range hk.Writers {
				if w.Conversation == conv && w.Lines == 0 {
					t.Errorf("wait.go: the conversation shown as linked, wrote none: %+v", w)
				}
			}
		}
	}
	if s.Conversations[0].Lines != 6 || s.Headline.Agent != 6 {
		t.Errorf("the conversation's lines %d, agent's %d; want 6 (4 + 2)", s.Conversations[0].Lines, s.Headline.Agent)
	}
	if text := a.convo(a.dir, "pr", "main"); !strings.Contains(text, "2 lines: Add a limiter (from git-ai's notes; git-ai checkpoint)") {
		t.Errorf("terminal:\n%s", text)
	}
}

// TestHostileOtherNotesInPRAndMCP: the readers pr, conversations and the
// MCP tools get_file_context and list_conversation_commits use meet
// malformed git-ai logs, 100,000 entries, ranges claiming 10^8 lines,
// ranges past a file's end, paths outside the tree and escapes in model
// names: each answers at once, claims nothing from the refused notes,
// prints no raw escape, and doctor counts them.
func TestHostileOtherNotesInPRAndMCP(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("hostile2")
	sb.run(repo, "git", "checkout", "-q", "-b", "feature")
	_, meta, _ := strings.Cut(gitAINoteFor("X", "a.go", "m"), "---\n")
	var many, huge strings.Builder
	for i := range 100_000 {
		many.WriteString("  s_00112233445566::t_66554433221100 " + strconv.Itoa(i%2+1) + "\n")
	}
	for range 100 {
		huge.WriteString("  s_00112233445566::t_66554433221100 1-1000000\n")
	}
	notes := map[string]func(c string) string{
		"many.go": func(c string) string {
			return "many.go\n" + many.String() + "---\n" + strings.Replace(meta, `"X"`, `"`+c+`"`, 1)
		},
		"huge.go": func(c string) string {
			return "huge.go\n" + huge.String() + "---\n" + strings.Replace(meta, `"X"`, `"`+c+`"`, 1)
		},
		"broken.go":  func(c string) string { return "broken.go\n  s_00112233445566::t_66554433221100 1\n" + meta },
		"escape.go":  func(c string) string { return gitAINoteFor(c, "escape.go", `\u001b]0;pwned\u0007`) },
		"outside.go": func(c string) string { return gitAINoteFor(c, "../../outside.go", "m") },
		"past.go":    func(c string) string { return strings.Replace(gitAINoteFor(c, "past.go", "m"), " 1-3\n", " 1-50\n", 1) },
	}
	paths := []string{"many.go", "huge.go", "broken.go", "escape.go", "outside.go", "past.go"}
	for _, p := range paths {
		sb.write(repo, p, "x1\nx2\n")
		c := sb.commit(repo, p, p)
		sb.addRawNote(repo, "refs/notes/ai", c, notes[p](c))
	}
	sb.addRawNote(repo, "refs/notes/agent-trace", "HEAD", strings.Replace(agentTraceFor(strings.TrimSpace(sb.run(repo, "git", "rev-parse", "HEAD")), "past.go"),
		`"past.go"`, `"../escape/\u001b[31m"`, 1))

	clean := func(what, out string) {
		t.Helper()
		if strings.ContainsAny(out, "\x1b\x07") || strings.Contains(out, "pwned") {
			t.Errorf("%s: a hostile note reached the output:\n%q", what, out)
		}
	}
	for _, format := range []string{"terminal", "json", "markdown", "html"} {
		r := sb.runWithin(20*time.Second, repo, "pr", "main", "--format", format, "--color", "never")
		if r.code != 0 {
			t.Fatalf("pr --format %s: exit %d\n%s", format, r.code, r.stderr)
		}
		clean("pr "+format, r.stdout)
		if format != "json" {
			continue
		}
		var s prsummary.Summary
		if err := json.Unmarshal([]byte(r.stdout), &s); err != nil {
			t.Fatal(err)
		}
		// Only past.go's note is read (its lines 1-2 exist; the rest claim
		// nothing there).
		if s.Headline.Agent != 2 || s.Commits.Covered != 1 || len(s.Headline.OtherTools) != 1 {
			t.Errorf("pr: headline %+v, commits %+v, other tools %+v", s.Headline.Lines, s.Commits, s.Headline.OtherTools)
		}
	}
	r := sb.runWithin(20*time.Second, repo, "conversations", "--json")
	if r.code != 0 {
		t.Errorf("conversations: exit %d\n%s", r.code, r.stderr)
	}
	clean("conversations", r.stdout)
	tool := mcpClient(t, sb, repo)
	for _, p := range paths {
		out, isErr := tool("get_file_context", map[string]any{"filePath": p})
		clean("get_file_context "+p, out)
		if isErr || p != "past.go" && strings.Contains(out, "otherTools") {
			t.Errorf("get_file_context %s: %s", p, out)
		}
	}
	out, isErr := tool("list_conversation_commits", map[string]any{})
	clean("list_conversation_commits", out)
	if isErr {
		t.Errorf("list_conversation_commits: %s", out)
	}
	d := sb.runWithin(20*time.Second, repo, "doctor")
	clean("doctor", d.stdout)
	if !strings.Contains(d.stdout, "7 skipped by every read") { // past.go's too: only doctor reads the files

		t.Errorf("doctor:\n%s", d.stdout)
	}
	// log from links.sqlite's index of the notes (built, then as it is)
	// says what reading the notes says (no links.sqlite: git's %N).
	db := filepath.Join(t.TempDir(), "links.sqlite")
	if st, err := store.Open(context.Background(), db, store.Options{}); err != nil {
		t.Fatal(err)
	} else {
		st.Close()
	}
	for _, args := range [][]string{{"log", "--oneline"}, {"log", "--json"}, {"log", "--json"}} { // no relative times
		read := sb.runEnv(repo, append(sb.env, "GIT_CONVO_DB="+db+".none"), "", append([]string{"git", "convo"}, args...)...)
		indexed := sb.runEnv(repo, append(sb.env, "GIT_CONVO_DB="+db), "", append([]string{"git", "convo"}, args...)...)
		clean("log", indexed.stdout)
		if read.code != 0 || indexed.code != 0 || indexed.stdout != read.stdout || !strings.Contains(read.stdout, "git-ai") {
			t.Errorf("%v from the index: exit %d\n%s\nreading the notes: exit %d\n%s", args, indexed.code, indexed.stdout, read.code, read.stdout)
		}
	}
}

// TestPRRealGitAINote: a note git-ai wrote (../shared/fixtures/git-ai),
// on a commit of a file with its lines: pr counts the session's lines as
// claude's, the h_ line as its person's, the rest as no recorded edit.
func TestPRRealGitAINote(t *testing.T) {
	skipOnWindows(t)
	note, err := os.ReadFile(filepath.Join(cursortest.Shared(t, "git-ai", "notes"), "claude-session-plus-human__080f09d0468af23001c0ece1c436fdf983c825df.txt"))
	if err != nil {
		t.Fatal(err)
	}
	sb := newSandbox(t)
	repo := sb.repo("real")
	sb.run(repo, "git", "checkout", "-q", "-b", "feature")
	var body strings.Builder
	for n := 1; n <= 600; n++ {
		body.WriteString("line " + strconv.Itoa(n) + "\n")
	}
	sb.write(repo, "src/commands/usage.rs", body.String())
	c := sb.commit(repo, "usage", "src/commands/usage.rs")
	text := strings.Replace(string(note), "080f09d0468af23001c0ece1c436fdf983c825df", c, 1) // the log as if on this commit
	sb.addRawNote(repo, "refs/notes/ai", c, text)
	l, err := gitai.Parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	agent, person := 0, 0
	for n, who := range l.Lines("src/commands/usage.rs") {
		switch {
		case n > 600:
		case who.IsAI():
			agent++
		default:
			person++
		}
	}
	var s prsummary.Summary
	if err := json.Unmarshal([]byte(sb.convo(repo, "pr", "main", "--json")), &s); err != nil {
		t.Fatal(err)
	}
	h := s.Headline
	if agent < 500 || person != 1 || h.Agent != agent || h.Person != person || h.NoEdit != 600-agent-person || s.Commits.Covered != 1 {
		t.Errorf("headline %+v, want agent %d, person %d", h.Lines, agent, person)
	}
	if len(h.OtherTools) != 2 || h.OtherTools[0].Tool != "claude" || h.OtherTools[0].Session != "7df70395-9a7f-4c32-bf67-e29d2b57634a" ||
		h.OtherTools[1].Person != "Lincoln de Sousa <lincoln@clarete.li>" {
		t.Errorf("other tools %+v", h.OtherTools)
	}
}
