package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// agentHookCommands reads the capture command of agent of each event of a
// hooks object (Codex's hooks.json, Gemini CLI's settings.json).
func agentHookCommands(t *testing.T, path, agent string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Hooks map[string]json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for ev, raw := range f.Hooks {
		var groups []struct {
			Hooks []struct {
				Command string `json:"command"`
			} `json:"hooks"`
		}
		if json.Unmarshal(raw, &groups) != nil {
			continue // Gemini CLI's "enabled": true
		}
		for _, g := range groups {
			for _, h := range g.Hooks {
				if strings.Contains(h.Command, "--agent "+agent) {
					out[ev] = h.Command
				}
			}
		}
	}
	return out
}

// TestCodexEndToEnd: install writes ~/.codex/hooks.json (and says Codex
// asks to approve it); a session's apply_patch gives the session exactly
// the lines it added, by position, beside a person's; the rollout is the
// conversation's text; a commit the agent runs through its shell is linked
// at 1.0; uninstall takes the hooks out.
func TestCodexEndToEnd(t *testing.T) {
	sb, repo, codexHome := codexSandbox(t)
	out := sb.convo(repo, "install", "--cursor=none")
	hooksFile := filepath.Join(codexHome, "hooks.json")
	if !strings.Contains(out, hooksFile+": Codex hooks created") || !strings.Contains(out, "approve") {
		t.Fatalf("install:\n%s", out)
	}
	cmds := agentHookCommands(t, hooksFile, "codex")
	for _, ev := range []string{"SessionStart", "UserPromptSubmit", "PostToolUse", "Stop"} {
		if cmds[ev] == "" {
			t.Fatalf("no %s hook: %v", ev, cmds)
		}
	}
	base := "export function a() {\n  return 1;\n}\n"
	sb.write(repo, "src/a.ts", base)
	sb.commit(repo, "a", "src/a.ts")

	const sid = "019e1625-789d-76c0-80ab-3724b5ddb799"
	rollout := sb.write(codexHome, "sessions/2026/05/11/rollout-2026-05-11T11-26-55-"+sid+".jsonl", strings.Join([]string{
		`{"timestamp":"2026-05-11T08:27:17.490Z","type":"session_meta","payload":{"id":"` + sid + `","cwd":"` + repo + `","originator":"codex-tui","cli_version":"0.125.0","source":"cli"}}`,
		`{"timestamp":"2026-05-11T08:27:17.493Z","type":"turn_context","payload":{"turn_id":"t1","cwd":"` + repo + `","model":"gpt-5.5"}}`,
		`{"timestamp":"2026-05-11T08:27:17.495Z","type":"event_msg","payload":{"type":"user_message","message":"Add a function b"}}`,
		`{"timestamp":"2026-05-11T08:27:32.839Z","type":"event_msg","payload":{"type":"agent_message","message":"Added b after a."}}`,
	}, "\n")+"\n")
	common := func(event string, kv map[string]any) map[string]any {
		m := map[string]any{"session_id": sid, "turn_id": "t1", "transcript_path": rollout, "cwd": repo, "hook_event_name": event, "model": "gpt-5.5", "permission_mode": "default"}
		for k, v := range kv {
			m[k] = v
		}
		return m
	}
	sb.runHook(repo, cmds["SessionStart"], common("SessionStart", map[string]any{"source": "startup"}))
	sb.runHook(repo, cmds["UserPromptSubmit"], common("UserPromptSubmit", map[string]any{"prompt": "Add a function b"}))
	// Codex applies the patch, then its PostToolUse fires.
	sb.write(repo, "src/a.ts", base+"\nexport function b() {\n  return 2;\n}\n")
	patch := "*** Begin Patch\n*** Update File: src/a.ts\n@@\n   return 1;\n }\n+\n+export function b() {\n+  return 2;\n+}\n*** End Patch\n"
	sb.runHook(repo, cmds["PostToolUse"], common("PostToolUse", map[string]any{"tool_name": "apply_patch", "tool_use_id": "call_1",
		"tool_input": map[string]any{"command": patch}, "tool_response": "Success. Updated the following files:\nM src/a.ts\n"}))
	sb.runHook(repo, cmds["Stop"], common("Stop", map[string]any{"last_assistant_message": "Added b after a.", "stop_hook_active": false}))
	// A person's line, in the same commit.
	sb.write(repo, "src/a.ts", "// by hand\n"+base+"\nexport function b() {\n  return 2;\n}\n")
	sha := sb.commit(repo, "b", "src/a.ts")

	s := sb.showJSON(repo, sha)
	if len(s.Conversations) != 1 || s.Conversations[0].ID != sid || s.Conversations[0].Agent != "codex" || s.Conversations[0].Model != "gpt-5.5" {
		t.Fatalf("show: %+v", s.Conversations)
	}
	if got, want := owners(sb.blameJSON(repo, "src/a.ts"), map[string]string{sid: "c"}), "- - - - c c c c"; got != want {
		t.Errorf("blame owners %q, want %q", got, want)
	}
	md := sb.convo(repo, "conversation", sid)
	for _, want := range []string{"Add a function b", "Added b after a.", "codex"} {
		if !strings.Contains(md, want) {
			t.Errorf("conversation lacks %q:\n%s", want, md)
		}
	}
	if doc := sb.convo(repo, "doctor"); !strings.Contains(doc, "ok   codex hooks    "+hooksFile) {
		t.Errorf("doctor:\n%s", doc)
	}

	// The agent commits through its shell.
	sb.write(repo, "gen.txt", "generated\n")
	sb.run(repo, "git", "add", "gen.txt")
	commitOut := sb.run(repo, "git", "commit", "-m", "chore: generated")
	agentSha := strings.TrimSpace(sb.run(repo, "git", "rev-parse", "HEAD"))
	sb.runHook(repo, cmds["PostToolUse"], common("PostToolUse", map[string]any{"tool_name": "Bash", "tool_use_id": "call_2",
		"tool_input": map[string]any{"command": "git add gen.txt && git commit -m 'chore: generated'"}, "tool_response": commitOut}))
	if c := sb.agentCommitOf(repo, agentSha, sid); c == nil || c.Confidence != 1 {
		t.Errorf("the agent's own commit: %+v", sb.showJSON(repo, agentSha).Conversations)
	}

	if out := sb.convo(repo, "uninstall", "--codex"); !strings.Contains(out, hooksFile+": Codex hooks restored") && !strings.Contains(out, hooksFile+": Codex hooks removed") {
		t.Errorf("uninstall:\n%s", out)
	}
	if _, err := os.Stat(hooksFile); !os.IsNotExist(err) {
		t.Errorf("uninstall left the hooks.json it created: %v", err)
	}
}

// TestImportNewAgents: import finds Codex's rollouts and Gemini CLI's
// sessions (by the SHA-256 of the work tree's path) of the repository, and
// links the past commit their edits wrote, with line evidence (the two
// countable lines of each file), each under its agent.
func TestImportNewAgents(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	codexHome := filepath.Join(sb.root, "codex")
	sb.env = sb.with("CODEX_HOME=" + codexHome)
	at := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339Nano)
	const cx = "019e1625-789d-76c0-80ab-00000000c0de"
	sb.write(codexHome, "sessions/2026/05/11/rollout-2026-05-11T11-26-55-"+cx+".jsonl", strings.Join([]string{
		`{"timestamp":"` + at + `","type":"session_meta","payload":{"id":"` + cx + `","cwd":"` + repo + `","cli_version":"0.125.0"}}`,
		`{"timestamp":"` + at + `","type":"event_msg","payload":{"type":"user_message","message":"add c.go"}}`,
		`{"timestamp":"` + at + `","type":"response_item","payload":{"type":"custom_tool_call","name":"apply_patch","input":"*** Begin Patch\n*** Add File: c.go\n+package c\n+\n+func C() int { return 3 }\n*** End Patch"}}`,
	}, "\n")+"\n")
	const gm = "9e000000-0000-4000-8000-00000000ae11"
	h := sha256.Sum256([]byte(repo))
	sb.write(sb.home, ".gemini/tmp/"+hex.EncodeToString(h[:])+"/chats/session-2026-05-11T10-00-9e000000.json",
		`{"sessionId":"`+gm+`","startTime":"`+at+`","messages":[{"id":"u","timestamp":"`+at+`","type":"user","content":"add g.go"},`+
			`{"id":"g","timestamp":"`+at+`","type":"gemini","content":"done","toolCalls":[{"name":"write_file","args":{"file_path":"`+repo+`/g.go","content":"package g\n\nfunc G() int { return 7 }\n"},"status":"success"}]}]}`)
	sb.write(repo, "c.go", "package c\n\nfunc C() int { return 3 }\n")
	sb.write(repo, "g.go", "package g\n\nfunc G() int { return 7 }\n")
	sha := sb.commit(repo, "c and g", "c.go", "g.go")

	out := sb.convo(repo, "import")
	if !strings.Contains(out, "conversations found: 2 (codex 1, gemini 1)") {
		t.Errorf("import:\n%s", out)
	}
	agents := map[string]string{}
	for _, c := range sb.showJSON(repo, sha).Conversations {
		agents[c.ID] = c.Agent
		if c.WrittenLines != 2 {
			t.Errorf("%s wrote %d lines, want 2", c.ID, c.WrittenLines)
		}
	}
	if agents[cx] != "codex" || agents[gm] != "gemini" {
		t.Errorf("show after import: %v", agents)
	}
}

// TestCodexConfigTOMLDoctor: git-convo's hooks written by hand in
// ~/.codex/config.toml's [hooks] are installed hooks to doctor, not
// "missing"; without them, doctor says missing.
func TestCodexConfigTOMLDoctor(t *testing.T) {
	sb, repo, codexHome := codexSandbox(t)
	sb.convo(repo, "install", "--cursor=none", "--codex=none")
	sb.run(repo, "git", "config", "--unset", "convo.codex") // no choice remembered
	doctor := func() string { return sb.runEnv(repo, sb.env, "", "git", "convo", "doctor").stdout }
	if doc := doctor(); !strings.Contains(doc, "codex hooks    no Codex hooks.json names git-convo capture") {
		t.Fatalf("doctor with no Codex hooks:\n%s", doc)
	}
	var toml strings.Builder
	toml.WriteString("model = \"gpt-5.5\"\n\n[features]\nhooks = true\n\n")
	for _, ev := range []string{"SessionStart", "UserPromptSubmit", "PostToolUse", "Stop"} {
		toml.WriteString("[[hooks." + ev + "]]\n[[hooks." + ev + ".hooks]]\ntype = \"command\"\ncommand = \"git-convo capture --agent codex\"\ntimeout = 10\n\n")
	}
	config := filepath.Join(codexHome, "config.toml")
	if err := os.WriteFile(config, []byte(toml.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	if doc := doctor(); !strings.Contains(doc, "ok   codex hooks    "+config+" ([hooks])") {
		t.Errorf("doctor does not see the hooks in config.toml:\n%s", doc)
	}
}

// codexSandbox is a sandbox with a repository and Codex's directory.
func codexSandbox(t *testing.T) (sb *sandbox, repo, codexHome string) {
	skipOnWindows(t)
	sb = newSandbox(t)
	repo = sb.repo("project")
	codexHome = filepath.Join(sb.home, ".codex")
	if err := os.MkdirAll(codexHome, 0o755); err != nil {
		t.Fatal(err)
	}
	return sb, repo, codexHome
}
