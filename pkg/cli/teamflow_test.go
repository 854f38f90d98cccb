package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/mcpserver"
	"github.com/git-convo/git-convo/pkg/share/notes"
	"github.com/git-convo/git-convo/pkg/write/queue"
)

// After install, with sharing off (so refs/notes/convo does not exist), a
// real amend and rebase print nothing on stderr; once the clone shares,
// notes follow the rewritten commits (TestShareNotesFollowAmendAndRebase).
func TestRewriteAfterInstallIsQuiet(t *testing.T) {
	_, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	a.run(a.dir, "git", "config", "notes.rewriteRef", notes.Ref) // an older install's value goes
	a.convo(a.dir, "install", "--cursor=none")
	if got := strings.TrimSpace(a.run(a.dir, "git", "config", "--get-all", "notes.rewriteRef")); got != notes.RewriteRef {
		t.Fatalf("notes.rewriteRef after a re-install: %q", got)
	}
	a.write(a.dir, "x.txt", "x\n")
	a.commit(a.dir, "x", "x.txt")
	a.write(a.dir, "y.txt", "y\n")
	a.commit(a.dir, "y", "y.txt")
	quiet := func(args ...string) {
		t.Helper()
		r := a.runEnv(a.dir, a.with("GIT_EDITOR=true", "GIT_SEQUENCE_EDITOR=true"), "", args...)
		if r.code != 0 || r.stderr != "" {
			t.Errorf("%s: exit %d, stderr %q", strings.Join(args, " "), r.code, r.stderr)
		}
	}
	quiet("git", "commit", "-q", "--amend", "-m", "y, amended")
	quiet("git", "rebase", "-q", "--force-rebase", "HEAD~2")
	quiet("git", "rebase", "-q", "-i", "HEAD~2")
	if hasRef(a.sandbox, a.dir+"/.git", notes.Ref) {
		t.Errorf("a clone that does not share has %s", notes.Ref)
	}
}

// TestUsageLineNamesEveryFlag: a command's USAGE line (UsageText) names
// every option its --help lists, as the README's table does (the read
// options every read command takes are left out there too, and so are the
// git options log and blame shape their lines with: "<git log options>").
func TestUsageLineNamesEveryFlag(t *testing.T) {
	common := map[string]bool{"help": true, "json": true, "color": true, "no-color": true, "no-pager": true}
	for _, cmd := range newApp(SystemEnv()).Commands {
		if cmd.Hidden || cmd.UsageText == "" || strings.Contains(cmd.UsageText, " options>") {
			continue
		}
		for _, f := range cmd.Flags {
			if v, ok := f.(cli.VisibleFlag); ok && !v.IsVisible() {
				continue
			}
			names := f.Names()
			if common[names[0]] {
				continue
			}
			found := false
			for _, n := range names {
				dash := "--"
				if len(n) == 1 {
					dash = "-"
				}
				found = found || strings.Contains(cmd.UsageText, dash+n)
			}
			if !found {
				t.Errorf("%s's USAGE line does not name --%s: %s", cmd.Name, names[0], cmd.UsageText)
			}
		}
	}
}

// TestUninstallLeavesNothingOfItsOwn: after a clone shared, fetched a
// squash merge, registered the MCP server in the user's own mcp.json and
// queued commits, uninstall takes out the sharing settings (a re-install
// does not share), the files git-convo made in .git, the queue's leftovers,
// gives mcp.json back byte for byte, and says what stays and how to remove
// it.
func TestUninstallLeavesNothingOfItsOwn(t *testing.T) {
	base, bare := newTeam(t)
	squash, _ := squashedFeature(t, base, bare)
	b := cloneAs(t, bare, "b")
	mcpJSON := filepath.Join(b.home, ".cursor", "mcp.json")
	mine := "{\n    \"mcpServers\": {\"other\": {\"command\": \"other-server\"}},\n    \"x\": 1\n}\n"
	b.write(b.home, ".cursor/mcp.json", mine)
	b.convo(b.dir, "install", "--cursor=user", "--mcp")
	if got, _ := os.ReadFile(mcpJSON); !strings.Contains(string(got), "git-convo") {
		t.Fatalf("install --mcp: %s", got)
	}
	// A plain fetch of the squash (B does not share yet: derived records).
	b.run(b.dir, "git", "fetch", "-q")
	b.convo(b.dir, "show", squash)
	common := filepath.Join(b.dir, ".git")
	for _, name := range []string{"git-convo-fetched.json", "git-convo-derived.jsonl"} {
		if _, err := os.Stat(filepath.Join(common, name)); err != nil {
			t.Fatalf("the flow made no %s: the test proves nothing", name)
		}
	}
	b.convo(b.dir, "share", "on", "--prompts")
	b.run(b.dir, "git", "merge", "-q", "--ff-only", "origin/main")
	b.agentEdit(b.dir, "conv-b", "b.go", "package b\n")
	b.commit(b.dir, "b", "b.go")
	b.run(b.dir, "git", "push", "-q", "origin", "main")
	// A commit queued by the hook, drained at once by a read: the drain
	// keeps the claimed file for a late append.
	b.write(b.dir, "q.txt", "q\n")
	b.runQueued(b.dir, "git", "commit", "-q", "-am", "q", "--allow-empty")
	b.run(b.dir, "git", "add", "q.txt")
	b.runQueued(b.dir, "git", "commit", "-q", "-m", "q2")
	b.runQueued(b.dir, "git", "convo", "show")
	for _, name := range []string{"git-convo-share.json"} {
		if _, err := os.Stat(filepath.Join(common, name)); err != nil {
			t.Fatalf("the flow made no %s: the test proves nothing", name)
		}
	}

	out := b.convo(b.dir, "uninstall")
	for _, key := range []string{"convo.share", "convo.shareWriter", "convo.sharePrompts"} {
		if r := b.runEnv(b.dir, b.env, "", "git", "config", key); r.code == 0 {
			t.Errorf("uninstall left %s = %s", key, r.stdout)
		}
	}
	for _, name := range []string{"git-convo-share.json", "git-convo-fetched.json", "git-convo-derived.jsonl"} {
		if _, err := os.Stat(filepath.Join(common, name)); err == nil {
			t.Errorf("uninstall left .git/%s", name)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(b.queueDir(), queue.FileName+"*")); len(left) > 0 {
		t.Errorf("uninstall left the queue's files: %v", left)
	}
	for _, want := range []string{"removed git config convo.share", "removed git config notes.rewriteRef " + notes.RewriteRef,
		"removed git config remote.origin.fetch " + notes.FetchRefspec("origin"), "Left in place", ".cursor/hooks.json: Cursor's hooks",
		".cursor/mcp.json: git-convo's MCP server", "uninstall --cursor", "forget --repo", "refs/notes/convo"} {
		if !strings.Contains(out, want) {
			t.Errorf("uninstall does not say %q:\n%s", want, out)
		}
	}
	out = b.convo(b.dir, "uninstall", "--cursor")
	if got, err := os.ReadFile(mcpJSON); err != nil || string(got) != mine {
		t.Errorf("uninstall --cursor: mcp.json is not as it was:\n%s", got)
	}
	if _, left, _ := strings.Cut(out, "Left in place"); strings.Contains(left, ".cursor/") {
		t.Errorf("uninstall --cursor still lists Cursor's files as left:\n%s", out)
	}
	// A re-install does not share.
	b.convo(b.dir, "install", "--cursor=none")
	if st := b.convo(b.dir, "share", "status"); !strings.Contains(st, "sharing: off") {
		t.Errorf("after uninstall and install:\n%s", st)
	}
}

// TestFreshCloneSeesSharedNotes: git clone fetches no notes; install
// brings them once, so a teammate's conversation shows at once. When the
// remote's notes cannot be fetched at install, a read that finds no link
// says so, and a plain git fetch brings them.
func TestFreshCloneSeesSharedNotes(t *testing.T) {
	_, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	a.convo(a.dir, "share", "on")
	const conv = "99999999-2222-4333-8444-555555555555"
	a.conversation(t, conv, "Cache the sessions", "Added an LRU cache.", "cache sessions", "cache.go", "package cache\n\nvar Size = 128\n")
	c := a.commit(a.dir, "cache", "cache.go")
	a.run(a.dir, "git", "push", "-q", "origin", "main")

	b := newSandbox(t)
	bdir := filepath.Join(b.root, "b")
	b.run(b.root, "git", "clone", "-q", bare, bdir)
	if out := b.convo(bdir, "install", "--cursor=none"); !strings.Contains(out, "fetched 1 shared note from origin") {
		t.Errorf("install in a fresh clone:\n%s", out)
	}
	if out := b.convo(bdir, "show", c); !strings.Contains(out, "Cache the sessions") || strings.Contains(out, "No linked conversation") {
		t.Errorf("show in a fresh clone after install:\n%s", out)
	}
	if out := b.convo(bdir, "install", "--cursor=none"); strings.Contains(out, "shared note") {
		t.Errorf("a second install fetched again:\n%s", out)
	}

	// The remote answers ls-remote, then refuses the fetch.
	d := newSandbox(t)
	ddir := filepath.Join(d.root, "d")
	d.run(d.root, "git", "clone", "-q", bare, ddir)
	wrapper := d.write(d.root, "upload-pack", "#!/bin/sh\nif [ -e \"$0.used\" ]; then exit 1; fi\n: > \"$0.used\"\nexec git-upload-pack \"$@\"\n")
	os.Chmod(wrapper, 0o755)
	d.run(ddir, "git", "config", "remote.origin.uploadpack", wrapper)
	if out := d.convo(ddir, "install", "--cursor=none"); !strings.Contains(out, "origin has shared notes that could not be fetched now: git fetch") {
		t.Errorf("install with a fetch that fails:\n%s", out)
	}
	if out := d.convo(ddir, "show", c); !strings.Contains(out, "No linked conversation") || !strings.Contains(out, "origin has shared notes: git fetch") {
		t.Errorf("show with the notes not fetched:\n%s", out)
	}
	d.run(ddir, "git", "config", "--unset", "remote.origin.uploadpack")
	d.run(ddir, "git", "fetch", "-q")
	if out := d.convo(ddir, "show", c); !strings.Contains(out, "Cache the sessions") || strings.Contains(out, "git fetch") {
		t.Errorf("show after git fetch:\n%s", out)
	}
}

// TestMCPGetConversationOfTeammate: get_conversation on a conversation only
// a teammate's shared note knows answers as `git convo conversation` does:
// its metadata, files and commits, and that the transcript was not shared
// (B has no Cursor database at all).
func TestMCPGetConversationOfTeammate(t *testing.T) {
	_, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	b := cloneAs(t, bare, "b")
	a.convo(a.dir, "share", "on")
	const conv = "66666666-2222-4333-8444-555555555555"
	a.conversation(t, conv, "Paginate the search API", "Added cursor-based pagination.", "paginate", "search.go",
		"package search\n\nfunc Page(after string) []Hit {\n\treturn query(after)\n}\n")
	c := a.commit(a.dir, "search: paginate", "search.go")
	a.run(a.dir, "git", "push", "-q", "origin", "main")
	b.run(b.dir, "git", "pull", "-q", "--ff-only")
	os.Remove(b.cursorDB)

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	session := b.mcpSession(ctx, b.dir)
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "get_conversation", Arguments: map[string]any{"conversationId": conv[:8]}})
	if err != nil || res.IsError {
		t.Fatalf("get_conversation of a teammate's conversation: %v %+v %s", err, res, toolText(res))
	}
	raw, _ := json.Marshal(res.StructuredContent)
	var out mcpserver.ConversationOutput
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	if out.Title != "Paginate the search API" || out.Summary != "Added cursor-based pagination." || out.Origin != "notes" ||
		len(out.Commits) != 1 || out.Commits[0].Hash != c || strings.Join(out.Files, ",") != "search.go" ||
		!strings.Contains(out.Note, "the transcript was not shared") {
		t.Errorf("get_conversation: %s", raw)
	}
	file, err := os.ReadFile(out.FilePath)
	if err != nil || !strings.Contains(string(file), "# Paginate the search API") || !strings.Contains(string(file), c[:7]) ||
		!strings.Contains(string(file), "the transcript was not shared") || !strings.Contains(string(file), "search.go") {
		t.Errorf("the context file %s: %v\n%s", out.FilePath, err, file)
	}
	// The CLI answers from the same code: the same Markdown.
	if cli := b.convo(b.dir, "conversation", conv); cli != string(file) {
		t.Errorf("git convo conversation differs from the context file:\n%s\n---\n%s", cli, file)
	}
}

// TestTitleWithoutCursorDatabase: a conversation no agent store titles
// (the Cursor CLI has no Cursor database) has one title everywhere: the
// start of its first prompt, as show gives it.
func TestTitleWithoutCursorDatabase(t *testing.T) {
	sb := newSandbox(t)
	os.Remove(sb.cursorDB)
	repo := sb.repo("cli")
	sb.convo(repo, "install", "--cursor=none")
	const conv = "55555555-2222-4333-8444-555555555555"
	sb.agentEdit(repo, conv, "x.go", "package x\n\nvar X = 1\n")
	sb.commit(repo, "x", "x.go")
	const want = "please write x.go"
	if out := sb.convo(repo, "show"); !strings.Contains(out, "● "+want) {
		t.Fatalf("show does not title it %q:\n%s", want, out)
	}
	if out := sb.convo(repo, "conversation", conv); !strings.Contains(out, "# Conversation: "+want) || strings.Contains(out, "(untitled)") {
		t.Errorf("conversation:\n%s", out)
	}
	var meta struct{ Title string }
	if err := json.Unmarshal([]byte(sb.convo(repo, "conversation", "--json", conv)), &meta); err != nil || meta.Title != want {
		t.Errorf("conversation --json: title %q, %v", meta.Title, err)
	}
	var line struct{ Conversations []struct{ Title string } }
	first, _, _ := strings.Cut(sb.convo(repo, "blame", "--json", "x.go"), "\n")
	if err := json.Unmarshal([]byte(first), &line); err != nil || len(line.Conversations) != 1 || line.Conversations[0].Title != want {
		t.Errorf("blame --json: %s %v", first, err)
	}
	if shown := sb.showJSON(repo, "HEAD"); len(shown.Conversations) != 1 || shown.Conversations[0].Title != want {
		t.Errorf("show --json: %+v", shown.Conversations)
	}
}

// TestDoctorWithoutCursorDatabase: the Cursor CLI has no Cursor database.
// After agent turns, doctor says so once, as information, and lists no
// error for each turn.
func TestDoctorWithoutCursorDatabase(t *testing.T) {
	sb := newSandbox(t)
	os.Remove(sb.cursorDB)
	repo := sb.repo("cli")
	sb.convo(repo, "install", "--cursor=user")
	for i, rel := range []string{"a.go", "b.go", "c.go"} {
		sb.agentEdit(repo, fmt.Sprintf("4444444%d-2222-4333-8444-555555555555", i), rel, "package x\n")
	}
	sb.commit(repo, "abc", "a.go", "b.go", "c.go")
	r := sb.runEnv(repo, sb.env, "", "git", "convo", "doctor")
	if strings.Contains(r.stdout, "Recent errors") || strings.Count(r.stdout, "state.vscdb") != 1 ||
		!strings.Contains(r.stdout, "ok   cursor db") || strings.Contains(r.stdout, "fix: set CURSOR_DB_PATH") {
		t.Errorf("doctor with no Cursor database (exit %d):\n%s", r.code, r.stdout)
	}
}

// toolText is the text of a tool result, for failure messages.
func toolText(res *mcp.CallToolResult) string {
	if res == nil {
		return ""
	}
	var b strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

// TestStatsAndNumstatDifferAsDocumented: stats counts the added lines that
// hold text; git log --numstat counts blank ones too. The README and stats
// --help say so, and the counts differ by exactly the blank lines.
func TestStatsAndNumstatDifferAsDocumented(t *testing.T) {
	sb := newSandbox(t)
	repo := sb.repo("stats")
	sb.convo(repo, "install", "--cursor=none")
	body := "package s\n\nfunc A() {}\n\n\nfunc B() {}\n"
	sb.agentEdit(repo, "33333333-2222-4333-8444-555555555555", "s.go", body)
	sb.commit(repo, "s", "s.go")
	var st struct{ Added, Agent int }
	if err := json.Unmarshal([]byte(sb.convo(repo, "stats", "--json", "-1")), &st); err != nil {
		t.Fatal(err)
	}
	numstat := strings.Fields(sb.run(repo, "git", "log", "-1", "--numstat", "--format="))
	blank := 0
	for _, l := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
		if l == "" {
			blank++
		}
	}
	if len(numstat) < 1 || numstat[0] != fmt.Sprint(st.Added+blank) || st.Added != 3 || st.Agent != 3 {
		t.Errorf("stats added %d (agent %d), numstat %v, blank lines %d", st.Added, st.Agent, numstat, blank)
	}
	readme, _ := os.ReadFile("../../README.md")
	help := sb.convo(repo, "stats", "--help")
	for what, text := range map[string]string{"README": string(readme), "stats --help": strings.Join(strings.Fields(help), " ")} {
		if !strings.Contains(text, "Blank lines are left out of every count, where `git log --numstat` counts them") &&
			!strings.Contains(text, "Blank lines are left out of every count, where git log --numstat counts them") {
			t.Errorf("%s does not say how stats and git log --numstat differ", what)
		}
	}
}

// TestDotfilesEditsWaitForTheirCommit: in a GIT_DIR + GIT_WORK_TREE
// repository, the agent's hooks run without GIT_DIR, so no repository is
// found for the files it edits. Its edits wait, and the next commit whose
// work tree holds them (the post-commit record knows GIT_DIR and
// GIT_WORK_TREE) claims them: the commit is linked, line by line.
func TestDotfilesEditsWaitForTheirCommit(t *testing.T) {
	skipOnWindows(t)
	for _, queued := range []bool{false, true} {
		t.Run(fmt.Sprintf("queued=%v", queued), func(t *testing.T) {
			sb := newSandbox(t)
			home := filepath.Join(sb.root, "dots")
			gitDir := filepath.Join(home, ".cfg")
			if err := os.MkdirAll(home, 0o755); err != nil {
				t.Fatal(err)
			}
			sb.run(home, "git", "init", "-q", "--bare", gitDir)
			git := sb.with("GIT_DIR="+gitDir, "GIT_WORK_TREE="+home)
			if queued {
				git = append(git, "GIT_CONVO_SYNC=")
			}
			if r := sb.runEnv(home, git, "", "git", "convo", "install", "--cursor=none"); r.code != 0 {
				t.Fatalf("install: %s", r.stderr)
			}
			const conv = "22222222-2222-4333-8444-555555555555"
			body := "alias ll='ls -l'\nexport EDITOR=vim\n"
			// The agent's hooks: no GIT_DIR, as Cursor runs them.
			sb.agentEdit(home, conv, ".bashrc", body)
			if r := sb.runEnv(home, git, "", "git", "add", ".bashrc"); r.code != 0 {
				t.Fatal(r.stderr)
			}
			if r := sb.runEnv(home, git, "", "git", "commit", "-q", "-m", "shell setup"); r.code != 0 {
				t.Fatal(r.stderr)
			}
			r := sb.runEnv(home, git, "", "git", "convo", "show", "--json")
			var s showJSON
			if err := json.Unmarshal([]byte(r.stdout), &s); err != nil {
				t.Fatalf("show --json: %v %s", err, r.stderr)
			}
			if !s.Commit.Recorded || len(s.Conversations) != 1 || s.Conversations[0].ID != conv || s.Conversations[0].WrittenLines != 2 {
				t.Errorf("recorded %v, conversations %+v", s.Commit.Recorded, s.Conversations)
			}
		})
	}
}
