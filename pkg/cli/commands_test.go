package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/agents/cursor/cursortest"
)

func TestConversationCommand(t *testing.T) {
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.agentEdit(repo, fixtureConv, "src/query.rs", "fn main() {}\n")
	n := len(cursortest.Sample().Messages)
	md := sb.convo(repo, "conversation", fixtureConv[:8])
	if !strings.HasPrefix(md, "# Conversation: Retrieve SQLite cursor queries\n") || strings.Count(md, "\n## Message ") != n ||
		!strings.Contains(md, "Give me the queries used in the cursor sqlite storage db") {
		t.Fatalf("markdown:\n%.500s", md)
	}
	var obj struct {
		ID       string           `json:"id"`
		Title    string           `json:"title"`
		Messages []map[string]any `json:"messages"`
	}
	if err := json.Unmarshal([]byte(sb.convo(repo, "conversation", "--json", fixtureConv)), &obj); err != nil {
		t.Fatal(err)
	}
	if obj.ID != fixtureConv || len(obj.Messages) != n || obj.Messages[0]["role"] != "user" {
		t.Errorf("json: id %s, %d messages", obj.ID, len(obj.Messages))
	}
	// Not in Cursor's database: the transcript is the fallback.
	transcript := filepath.Join(sb.root, "transcripts", "conv-from-transcript.jsonl")
	if err := cursortest.WriteTranscript(transcript,
		cursortest.TranscriptLine{User: true, Text: "Generate a file with all the HBO shows"},
		cursortest.TranscriptLine{Text: "Writing the list.", Tools: []cursortest.Tool{{Name: "Write", Input: map[string]any{"path": "hbo.md"}}}}); err != nil {
		t.Fatal(err)
	}
	sb.capture(repo, "conv-from-transcript", "stop", map[string]any{"transcript_path": transcript})
	if md := sb.convo(repo, "conversation", "conv-from-transcript"); !strings.Contains(md, "HBO shows") {
		t.Errorf("transcript fallback:\n%.300s", md)
	}
	if r := sb.runEnv(repo, sb.env, "", "git", "convo", "conversation", "nope"); r.code == 0 {
		t.Error("an unknown conversation should fail")
	}
}

// TestConversationCommandRealFixture reads the real Cursor database and
// transcript of ../shared/fixtures (skipped when they are absent).
func TestConversationCommandRealFixture(t *testing.T) {
	src := cursortest.Shared(t, "state-vscdb-git-ai", "cursor_test.vscdb")
	transcript := cursortest.Shared(t, "transcripts", "cursor-session-simple.jsonl")
	sb := newSandbox(t)
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sb.cursorDB, b, 0o644); err != nil {
		t.Fatal(err)
	}
	repo := sb.repo("project")
	sb.agentEdit(repo, fixtureConv, "src/query.rs", "fn main() {}\n")
	md := sb.convo(repo, "conversation", fixtureConv[:8])
	if !strings.HasPrefix(md, "# Conversation: Retrieve SQLite cursor queries\n") || strings.Count(md, "\n## Message ") != 42 {
		t.Fatalf("markdown:\n%.500s", md)
	}
	abs, _ := filepath.Abs(transcript)
	sb.capture(repo, "conv-from-transcript", "stop", map[string]any{"transcript_path": abs})
	if md := sb.convo(repo, "conversation", "conv-from-transcript"); !strings.Contains(md, "HBO shows") {
		t.Errorf("transcript fallback:\n%.300s", md)
	}
}

func TestInstallCursorModes(t *testing.T) {
	sb := newSandbox(t)
	repo := sb.repo("project")
	out := sb.convo(repo, "install", "--cursor=project")
	proj := filepath.Join(repo, ".cursor", "hooks.json")
	b, err := os.ReadFile(proj)
	if err != nil || !strings.Contains(string(b), `"git-convo capture --event afterFileEdit"`) || !strings.Contains(out, proj) {
		t.Fatalf("project hooks.json: %s %v\n%s", b, err, out)
	}
	user := filepath.Join(sb.home, ".cursor", "hooks.json")
	if _, err := os.Stat(user); err == nil {
		t.Error("--cursor=project wrote the user-level file")
	}
	sb.convo(repo, "install", "--cursor=user") // user level, absolute path (a plain install would repeat the remembered --cursor=project)
	ub, _ := os.ReadFile(user)
	if !strings.Contains(string(ub), binPath) && !strings.Contains(string(ub), filepath.Base(binPath)) {
		t.Errorf("user hooks.json lacks the binary's path:\n%s", ub)
	}
	sb.convo(repo, "uninstall")
	if _, err := os.Stat(proj); err == nil {
		t.Error("uninstall left the project hooks.json that held only git-convo's hooks")
	}
	if ub, _ := os.ReadFile(user); !strings.Contains(string(ub), "capture") {
		t.Error("plain uninstall removed the user-level hooks that serve other repositories")
	}
	sb.convo(repo, "uninstall", "--cursor")
	if _, err := os.Stat(user); err == nil {
		t.Error("uninstall --cursor left the user-level hooks")
	}
	if r := sb.runEnv(repo, sb.env, "", "git", "convo", "install", "--cursor=elsewhere"); r.code != ExitUsage {
		t.Errorf("bad --cursor: exit %d", r.code)
	}
}

func TestInstallRefusesHookManagers(t *testing.T) {
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.run(repo, "git", "config", "core.hooksPath", ".husky/_")
	r := sb.runEnv(repo, sb.env, "", "git", "convo", "install", "--cursor=none")
	if r.code == 0 || !strings.Contains(r.stderr, "--force") {
		t.Fatalf("husky without --force: exit %d %q", r.code, r.stderr)
	}
	sb.convo(repo, "install", "--cursor=none", "--force")
	if b, err := os.ReadFile(filepath.Join(repo, ".husky", "post-commit")); err != nil || !strings.Contains(string(b), "git-convo") {
		t.Errorf(".husky/post-commit: %s %v", b, err)
	}
	other := sb.repo("python-hook")
	os.WriteFile(filepath.Join(other, ".git", "hooks", "post-commit"), []byte("#!/usr/bin/env python3\nprint('hi')\n"), 0o755)
	r = sb.runEnv(other, sb.env, "", "git", "convo", "install", "--cursor=none")
	if r.code == 0 || !strings.Contains(r.stderr, "not a shell script") {
		t.Errorf("python hook: exit %d %q", r.code, r.stderr)
	}
}

func TestDoctor(t *testing.T) {
	sb := newSandbox(t)
	repo := sb.repo("project")
	r := sb.runEnv(repo, sb.env, "", "git", "convo", "doctor", "--json")
	var rep struct {
		OK     bool    `json:"ok"`
		Checks []check `json:"checks"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err, r.stdout)
	}
	if rep.OK || r.code != ExitError {
		t.Errorf("doctor before install: ok=%v exit %d", rep.OK, r.code)
	}
	sb.convo(repo, "install")
	sb.agentEdit(repo, "c1", "a.go", "package a\n")
	sb.commit(repo, "a", "a.go")
	r = sb.runEnv(repo, sb.env, "", "git", "convo", "doctor")
	if r.code != 0 || !strings.Contains(r.stdout, "last record") || strings.Contains(r.stdout, "FAIL") {
		t.Errorf("doctor after install: exit %d\n%s", r.code, r.stdout)
	}
	// The binary named in the hook disappears: doctor says so and how to fix it.
	hook := filepath.Join(repo, ".git", "hooks", "post-commit")
	b, _ := os.ReadFile(hook)
	os.WriteFile(hook, []byte(strings.Replace(string(b), binPath, "/gone/git-convo", 1)), 0o755)
	env := sb.with("PATH=/usr/bin:/bin")
	r = sb.runEnv(repo, env, "", binPath, "doctor")
	if r.code == 0 || !strings.Contains(r.stdout, "gone") {
		t.Errorf("doctor with the binary gone: exit %d\n%s", r.code, r.stdout)
	}
}

// TestDoctorRightAfterInstall: before anything is recorded, and with the
// Cursor hooks left out by the user's own --cursor=none, doctor reports
// information, not failures, and exits 0; the choice is remembered for
// doctor and the next install.
func TestDoctorRightAfterInstall(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	userHooks := filepath.Join(sb.home, ".cursor", "hooks.json")
	doctorOK := func(when string, wants ...string) {
		t.Helper()
		r := sb.runEnv(repo, sb.env, "", "git", "convo", "doctor")
		if r.code != 0 || strings.Contains(r.stdout, "FAIL") {
			t.Errorf("doctor %s: exit %d\n%s", when, r.code, r.stdout)
		}
		for _, w := range wants {
			if !strings.Contains(r.stdout, w) {
				t.Errorf("doctor %s lacks %q:\n%s", when, w, r.stdout)
			}
		}
	}
	sb.convo(repo, "install", "--cursor=none")
	if v := strings.TrimSpace(sb.run(repo, "git", "config", "convo.cursor")); v != "none" {
		t.Errorf("convo.cursor = %q after install --cursor=none", v)
	}
	doctorOK("after install --cursor=none", "nothing recorded yet", "as chosen")
	if _, err := os.Stat(sb.linksDB); !os.IsNotExist(err) {
		t.Errorf("doctor created the links database: %v", err)
	}
	// A later install without --cursor respects the choice.
	if out := sb.convo(repo, "install"); !strings.Contains(out, "as chosen before") {
		t.Errorf("second install:\n%s", out)
	}
	if _, err := os.Stat(userHooks); !os.IsNotExist(err) {
		t.Errorf("a later install wrote %s despite --cursor=none: %v", userHooks, err)
	}
	doctorOK("after a second install")
	// Choosing Cursor again installs its hooks and is remembered too.
	sb.convo(repo, "install", "--cursor=user")
	if _, err := os.Stat(userHooks); err != nil {
		t.Fatal(err)
	}
	if v := strings.TrimSpace(sb.run(repo, "git", "config", "convo.cursor")); v != "user" {
		t.Errorf("convo.cursor = %q after install --cursor=user", v)
	}
	doctorOK("after install --cursor=user", "nothing recorded yet", userHooks)
	sb.run(repo, "git", "config", "convo.cursor", "bogus")
	if r := sb.runEnv(repo, sb.env, "", "git", "convo", "install"); r.code != ExitUsage || !strings.Contains(r.stderr, "convo.cursor = bogus") {
		t.Errorf("install with a bad convo.cursor: exit %d %q", r.code, r.stderr)
	}
}

func TestHelpManAndCompletion(t *testing.T) {
	sb := newSandbox(t)
	repo := sb.repo("project")
	help := sb.convo(repo, "show", "--help")
	if !strings.Contains(help, "git convo show") || !strings.Contains(help, "--json") {
		t.Errorf("show --help:\n%s", help)
	}
	man := sb.convo(repo, "man")
	for _, want := range []string{".TH GIT-CONVO 1", ".SS blame", "GIT_CONVO_DB"} {
		if !strings.Contains(man, want) {
			t.Errorf("man page lacks %q", want)
		}
	}
	if _, err := exec.LookPath("groff"); err == nil {
		cmd := exec.Command("groff", "-man", "-Tutf8", "-ww", "-z")
		cmd.Stdin = strings.NewReader(man)
		if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
			t.Errorf("groff warns: %v\n%s", err, out)
		}
	}
	bash := sb.convo(repo, "completion", "bash")
	if !strings.Contains(bash, "_git_convo") || !strings.Contains(bash, "blame") {
		t.Errorf("bash completion:\n%s", bash)
	}
	cmd := exec.Command("bash", "-n")
	cmd.Stdin = strings.NewReader(bash)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("bash completion does not parse: %v %s", err, out)
	}
	if zsh := sb.convo(repo, "completion", "zsh"); !strings.HasPrefix(zsh, "#compdef git-convo") {
		t.Errorf("zsh completion:\n%s", zsh)
	}
	if r := sb.runEnv(repo, sb.env, "", "git", "convo", "frobnicate"); r.code == 0 || !strings.Contains(r.stderr, "not a git-convo command") {
		t.Errorf("unknown command: exit %d %q", r.code, r.stderr)
	}
}

func TestLinkUnlinkRelinkSearch(t *testing.T) {
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.convo(repo, "install", "--cursor=none")
	sb.write(repo, "README.md", "# changed\n")
	sha := sb.commit(repo, "a change", "README.md")
	// Only one side known: a conversation git-convo never saw.
	sb.convo(repo, "link", "abcdef12-0000-0000-0000-000000000000", "HEAD")
	s := sb.showJSON(repo, sha)
	if len(s.Conversations) != 1 || s.Conversations[0].Status != "manual" || s.Conversations[0].Confidence != 1 {
		t.Fatalf("manual link: %+v", s.Conversations)
	}
	sb.convo(repo, "unlink", "abcdef12", sha)
	if s := sb.showJSON(repo, sha); len(s.Conversations) != 0 {
		t.Errorf("after unlink: %+v", s.Conversations)
	}
	if r := sb.runEnv(repo, sb.env, "", "git", "convo", "unlink", "abcdef12-0000-0000-0000-000000000000", sha); r.code == 0 {
		t.Error("unlinking what is not linked should fail")
	}
	sb.agentEdit(repo, fixtureConv, "src/query.rs", "fn main() {}\n")
	sb.commit(repo, "queries", "src/query.rs")
	sb.run(repo, "git", "config", "convo.threshold", "0.99")
	out := sb.convo(repo, "relink")
	if !strings.Contains(out, "re-scored") {
		t.Errorf("relink: %s", out)
	}
	res := sb.convo(repo, "search", "--json", "SQLite", "queries")
	if !strings.Contains(res, fixtureConv) || !strings.Contains(res, `"excerpt"`) {
		t.Errorf("search: %s", res)
	}
	if out := sb.convo(repo, "search", "nothing-matches-this"); out != "" {
		t.Errorf("search with no match printed %q", out)
	}
}

// TestMultiRootWorkspace: one conversation edits files in two repositories
// of one workspace; each repository's commit is linked, with its own paths.
func TestMultiRootWorkspace(t *testing.T) {
	sb := newSandbox(t)
	app, lib := sb.repo("app"), sb.repo("lib")
	for _, r := range []string{app, lib} {
		sb.convo(r, "install", "--cursor=none")
	}
	conv := "multi-root-0001"
	send := func(event string, fields map[string]any) {
		payload := map[string]any{"conversation_id": conv, "hook_event_name": event, "workspace_roots": []string{app, lib}}
		for k, v := range fields {
			payload[k] = v
		}
		b, _ := json.Marshal(payload)
		if r := sb.runEnv(app, sb.env, string(b), "git", "convo", "capture"); r.code != 0 {
			t.Fatal(r.stderr)
		}
	}
	for _, p := range []string{sb.write(app, "main.go", "package main\n"), sb.write(lib, "lib/util.go", "package lib\n")} {
		send("afterFileEdit", map[string]any{"file_path": p})
	}
	send("postToolUse", map[string]any{"tool_name": "Write", "tool_input": map[string]any{"file_path": "/tmp/outside-every-repo.txt"}})
	send("stop", map[string]any{"status": "completed"})
	for repo, file := range map[string]string{app: "main.go", lib: "lib/util.go"} {
		sha := sb.commit(repo, "change", file)
		s := sb.showJSON(repo, sha)
		if len(s.Conversations) != 1 || s.Conversations[0].ID != conv || strings.Join(s.Conversations[0].MatchedFiles, ",") != file {
			t.Errorf("%s: %+v", repo, s.Conversations)
		}
	}
}

// TestThirdPartyHookDeduplicated: Cursor also sends its events to Claude Code
// hook files; capture --agent=claude recognises them and records nothing.
func TestThirdPartyHookDeduplicated(t *testing.T) {
	sb := newSandbox(t)
	repo := sb.repo("project")
	p := sb.write(repo, "x.go", "package x\n")
	body, _ := json.Marshal(map[string]any{"conversation_id": "via-claude", "cursor_version": "2.5.26", "hook_event_name": "postToolUse",
		"workspace_roots": []string{repo}, "tool_name": "Write", "tool_input": map[string]any{"file_path": p}})
	if r := sb.runEnv(repo, sb.env, string(body), "git", "convo", "capture", "--agent=claude"); r.code != 0 || strings.TrimSpace(r.stdout) != "{}" {
		t.Fatalf("exit %d %q", r.code, r.stdout)
	}
	sb.capture(repo, "someone-else", "sessionStart", nil)
	if out := sb.convo(repo, "conversations", "--json", "--all"); strings.Contains(out, "via-claude") {
		t.Errorf("a Cursor payload seen through a Claude hook was recorded:\n%s", out)
	}
}

func TestShowFullAndOutsidePaths(t *testing.T) {
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.convo(repo, "install", "--cursor=none")
	sb.agentEdit(repo, fixtureConv, "src/query.rs", "fn main() {}\n")
	sb.commit(repo, "queries", "src/query.rs")
	full := sb.convo(repo, "show", "--full")
	last := fmt.Sprintf("## Message %d (", len(cursortest.Sample().Messages))
	if !strings.Contains(full, last) || !strings.Contains(full, "Retrieve SQLite cursor queries") {
		t.Errorf("show --full lacks the transcript:\n%.600s", full)
	}
	r := sb.runEnv(repo, sb.env, "", "git", "convo", "blame", "../elsewhere.go")
	if r.code == 0 || !strings.Contains(r.stderr, "outside repository") {
		t.Errorf("blame outside the repository: exit %d %q", r.code, r.stderr)
	}
}

func TestForget(t *testing.T) {
	sb := newSandbox(t)
	repo, other := sb.repo("project"), sb.repo("other")
	for _, r := range []string{repo, other} {
		sb.convo(r, "install", "--cursor=none")
	}
	sb.agentEdit(repo, "conv-keep-0001", "a.go", "package a // secret-a\n")
	shaA := sb.commit(repo, "a", "a.go")
	sb.agentEdit(other, "conv-other-001", "b.go", "package b // secret-b\n")
	shaB := sb.commit(other, "b", "b.go")
	sb.convo(repo, "unlink", "conv-keep-0001", shaA) // an unlink is a record too
	sb.convo(other, "unlink", "conv-other-001", shaB)

	out := sb.convo(repo, "forget", "conv-keep")
	if !strings.Contains(out, "forgot conversation conv-keep-0001") {
		t.Errorf("forget: %s", out)
	}
	if s := sb.showJSON(repo, shaA); len(s.Conversations) != 0 {
		t.Errorf("links survived forget: %+v", s.Conversations)
	}
	db, _ := os.ReadFile(sb.linksDB)
	wal, _ := os.ReadFile(sb.linksDB + "-wal")
	if strings.Contains(string(db)+string(wal), "secret-a") || strings.Contains(string(db)+string(wal), "please write a.go") {
		t.Error("the forgotten conversation's text is still in the database file")
	}
	if rows := sb.rowsNaming("conv-keep-0001"); len(rows) > 0 {
		t.Errorf("rows name the forgotten conversation: %v", rows)
	}
	out = sb.convo(other, "forget", "--repo")
	if !strings.Contains(out, "1 conversations") && !strings.Contains(out, "conversations") {
		t.Errorf("forget --repo: %s", out)
	}
	if got := sb.convo(other, "conversations", "--json", "--all"); strings.Contains(got, "conv-other-001") {
		t.Errorf("forget --repo left the repository's conversation:\n%s", got)
	}
	if rows := sb.rowsNaming("conv-other-001", shaB); len(rows) > 0 {
		t.Errorf("rows name the forgotten repository's conversation or commit: %v", rows)
	}
	if r := sb.runEnv(repo, sb.env, "", "git", "convo", "forget"); r.code != ExitUsage {
		t.Errorf("forget with nothing: exit %d", r.code)
	}
}

// TestWorktreesAreOneRepository: a conversation edits a file in a linked
// worktree; the commit made there is linked, and the main work tree's log
// shows it too: worktrees of one repository count as one.
func TestWorktreesAreOneRepository(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	wt := filepath.Join(sb.root, "feature worktree")
	sb.run(repo, "git", "worktree", "add", "-q", "-b", "feature", wt)
	sb.convo(wt, "install", "--cursor=none")
	sb.agentEdit(wt, "conv-in-worktree", "feature.go", "package feature\n")
	sha := sb.commit(wt, "feature", "feature.go")
	if s := sb.showJSON(wt, "HEAD"); len(s.Conversations) != 1 || s.Commit.Branch != "feature" {
		t.Fatalf("in the worktree: %+v", s)
	}
	if s := sb.showJSON(repo, sha); len(s.Conversations) != 1 || s.Conversations[0].ID != "conv-in-worktree" {
		t.Errorf("from the main work tree: %+v", s)
	}
	if out := sb.convo(repo, "conversations", "--json"); !strings.Contains(out, "conv-in-worktree") {
		t.Errorf("the main work tree does not list the worktree's conversation:\n%s", out)
	}
}
