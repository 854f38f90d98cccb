package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/util/errlog"
)

// cursorHookCommand is the command hooks.json runs for event.
func (sb *sandbox) cursorHookCommand(hooksFile, event string) string {
	sb.t.Helper()
	b, err := os.ReadFile(hooksFile)
	if err != nil {
		sb.t.Fatal(err)
	}
	var f struct {
		Hooks map[string][]struct {
			Command string `json:"command"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		sb.t.Fatal(err)
	}
	for _, h := range f.Hooks[event] {
		if strings.Contains(h.Command, " capture") {
			return h.Command
		}
	}
	sb.t.Fatalf("%s has no capture hook for %s:\n%s", hooksFile, event, b)
	return ""
}

// agentCommitOf is the conversation's agent-commit link on rev, if any.
func (sb *sandbox) agentCommitOf(repo, rev, conv string) *conversationJSON {
	sb.t.Helper()
	for _, c := range sb.showJSON(repo, rev).Conversations {
		if c.ID == conv && c.Reason == store.ReasonAgentCommit {
			return &c
		}
	}
	return nil
}

// TestCursorAgentCommit: Cursor's agent runs git commit in its terminal.
// afterShellExecution, hooked by install (an older hooks.json gets it on the
// next install), links that commit to the conversation at 1.0; so does the
// Shell tool's postToolUse. A command that is not a commit, and a commit
// that fails, link nothing.
func TestCursorAgentCommit(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	const conv = "conv-shell"

	// An install from before afterShellExecution was hooked.
	hooksFile := filepath.Join(repo, ".cursor", "hooks.json")
	sb.write(repo, ".cursor/hooks.json", `{"version":1,"hooks":{"stop":[{"command":"git-convo capture --event stop","timeout":10}]}}`+"\n")
	if doc := sb.runEnv(repo, sb.env, "", "git", "convo", "doctor").stdout; !strings.Contains(doc, hooksFile+" lacks [") || !strings.Contains(doc, "afterShellExecution") {
		t.Errorf("doctor does not name the events an older install lacks:\n%s", doc)
	}
	sb.convo(repo, "install", "--cursor=project")
	hook := sb.cursorHookCommand(hooksFile, "afterShellExecution")
	if doc := sb.runEnv(repo, sb.env, "", "git", "convo", "doctor").stdout; strings.Contains(doc, "lacks") {
		t.Errorf("doctor after install:\n%s", doc)
	}

	runHook := func(fields map[string]any) {
		t.Helper()
		payload := map[string]any{"conversation_id": conv, "generation_id": "g1", "hook_event_name": "afterShellExecution",
			"workspace_roots": []string{repo}, "cursor_version": "2.5.26", "cwd": repo, "duration": 80}
		for k, v := range fields {
			payload[k] = v
		}
		body, _ := json.Marshal(payload)
		r := sb.runEnv(repo, sb.env, string(body), "sh", "-c", hook)
		if r.code != 0 || strings.TrimSpace(r.stdout) != "{}" {
			t.Fatalf("%s: exit %d, stdout %q, stderr %s", hook, r.code, r.stdout, r.stderr)
		}
	}

	// The agent commits a file no edit event named: only its shell saw it.
	sb.write(repo, "gen.txt", "generated\n")
	command := `git add gen.txt && git commit -m "chore: generated"`
	out := sb.run(repo, "sh", "-c", command+" 2>&1")
	sha := strings.TrimSpace(sb.run(repo, "git", "rev-parse", "HEAD"))
	runHook(map[string]any{"command": command, "output": out})
	c := sb.agentCommitOf(repo, sha, conv)
	if c == nil || c.Confidence != 1 || c.Source != "agent-commit" {
		t.Fatalf("the agent's commit %s: %+v", sha, sb.showJSON(repo, sha).Conversations)
	}

	// A person commits; the agent then runs commands that make no commit:
	// one whose output merely shows a commit line, and a commit that fails.
	sb.write(repo, "hand.txt", "by hand\n")
	sb.run(repo, "git", "add", "hand.txt")
	handOut := sb.run(repo, "git", "commit", "-m", "by hand")
	hand := strings.TrimSpace(sb.run(repo, "git", "rev-parse", "HEAD"))
	runHook(map[string]any{"command": "cat notes.txt", "output": handOut})
	failed := sb.runEnv(repo, sb.env, "", "sh", "-c", `git commit -m "nothing here" 2>&1`)
	if failed.code == 0 {
		t.Fatalf("an empty commit succeeded: %s", failed.stdout)
	}
	runHook(map[string]any{"command": `git commit -m "nothing here"`, "output": failed.stdout})
	sb.write(repo, ".git/hooks/pre-commit", "#!/bin/sh\necho 'lint: 1 problem' >&2\nexit 1\n")
	os.Chmod(filepath.Join(repo, ".git", "hooks", "pre-commit"), 0o755)
	sb.write(repo, "refused.txt", "x\n")
	refused := sb.runEnv(repo, sb.env, "", "sh", "-c", `git add refused.txt && git commit -m refused 2>&1`)
	if refused.code == 0 || strings.TrimSpace(sb.run(repo, "git", "rev-parse", "HEAD")) != hand {
		t.Fatalf("the pre-commit hook did not refuse: %s", refused.stdout)
	}
	runHook(map[string]any{"command": `git add refused.txt && git commit -m refused`, "output": refused.stdout})
	if c := sb.agentCommitOf(repo, hand, conv); c != nil {
		t.Errorf("a commit the agent did not make is linked as its own: %+v", c)
	}
	os.Remove(filepath.Join(repo, ".git", "hooks", "pre-commit"))

	// The same through the Shell tool's postToolUse, in a sub-folder.
	sb.write(repo, "sub/tool.txt", "tool\n")
	out = sb.run(filepath.Join(repo, "sub"), "sh", "-c", "git add tool.txt && git commit -m tool 2>&1")
	tool := strings.TrimSpace(sb.run(repo, "git", "rev-parse", "HEAD"))
	sb.capture(repo, conv, "postToolUse", map[string]any{"tool_name": "Shell",
		"tool_input": map[string]any{"command": "git add tool.txt && git commit -m tool"}, "tool_output": out, "cwd": filepath.Join(repo, "sub")})
	if c := sb.agentCommitOf(repo, tool, conv); c == nil || c.Confidence != 1 {
		t.Errorf("the Shell tool's commit %s: %+v", tool, sb.showJSON(repo, tool).Conversations)
	}
}

// TestCursorAgentCommitSpooled: an afterShellExecution that arrives while
// links.sqlite cannot be written is spooled, and its commit is linked when
// the next hook replays it.
func TestCursorAgentCommitSpooled(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.captureOK(repo, sb.env, map[string]any{"conversation_id": "c1", "hook_event_name": "sessionStart"})
	sb.write(repo, "gen.txt", "generated\n")
	out := sb.run(repo, "sh", "-c", "git add gen.txt && git commit -m gen 2>&1")
	sha := strings.TrimSpace(sb.run(repo, "git", "rev-parse", "HEAD"))
	writable := sb.readOnlyDB()
	r := sb.captureOK(repo, sb.env, map[string]any{"conversation_id": "c1", "hook_event_name": "afterShellExecution",
		"workspace_roots": []string{repo}, "command": "git add gen.txt && git commit -m gen", "output": out})
	if logged, _ := os.ReadFile(errlog.PathBeside(sb.linksDB)); r.stderr != "" || !strings.Contains(string(logged), "spool") {
		t.Fatalf("capture on a read-only database (prints nothing, logs the spooling): %q\n%s", r.stderr, logged)
	}
	writable()
	sb.captureOK(repo, sb.env, map[string]any{"conversation_id": "c2", "hook_event_name": "sessionStart"})
	if c := sb.agentCommitOf(repo, sha, "c1"); c == nil || c.Confidence != 1 {
		t.Errorf("the spooled agent commit %s: %+v", sha, sb.showJSON(repo, sha).Conversations)
	}
}
