package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/util/errlog"
)

// claudeTranscript writes a Claude Code session file for sid in the
// sandbox's ~/.claude/projects, the way Claude Code lays it out: a title
// line, the prompt, a Write of rel (tool_use, then its result with
// toolUseResult), times at and after start.
func claudeTranscript(t *testing.T, configDir, repo, sid, title, prompt, rel, content string, start time.Time) string {
	t.Helper()
	at := func(s int) string { return start.Add(time.Duration(s) * time.Second).UTC().Format(time.RFC3339Nano) }
	file := filepath.Join(repo, rel)
	input, _ := json.Marshal(map[string]any{"file_path": file, "content": content})
	result, _ := json.Marshal(map[string]any{"type": "create", "filePath": file, "content": content, "structuredPatch": []any{}, "originalFile": nil})
	lines := []string{
		`{"type":"custom-title","customTitle":` + quoteJSON(title) + `,"sessionId":"` + sid + `"}`,
		`{"type":"user","uuid":"u1","sessionId":"` + sid + `","cwd":` + quoteJSON(repo) + `,"version":"2.1.37","message":{"role":"user","content":` + quoteJSON(prompt) + `},"timestamp":"` + at(0) + `"}`,
		`{"type":"assistant","uuid":"a1","sessionId":"` + sid + `","cwd":` + quoteJSON(repo) + `,"message":{"id":"msg_1","role":"assistant","model":"claude-opus-4-6","content":[{"type":"thinking","thinking":"A new file is simplest."},{"type":"tool_use","id":"toolu_1","name":"Write","input":` + string(input) + `}]},"timestamp":"` + at(1) + `"}`,
		`{"type":"user","uuid":"u2","sessionId":"` + sid + `","cwd":` + quoteJSON(repo) + `,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"File created successfully"}]},"toolUseResult":` + string(result) + `,"timestamp":"` + at(2) + `"}`,
		`{"type":"assistant","uuid":"a2","sessionId":"` + sid + `","message":{"id":"msg_2","role":"assistant","model":"claude-opus-4-6","content":[{"type":"text","text":"Done."}]},"timestamp":"` + at(3) + `"}`,
	}
	path := filepath.Join(configDir, "projects", strings.NewReplacer("/", "-", ".", "-").Replace(repo), sid+".jsonl")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// claudeHookCommands reads the commands install wrote into a settings file,
// per event.
func claudeHookCommands(t *testing.T, path string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Hooks map[string][]struct {
			Hooks []struct {
				Command string `json:"command"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for ev, groups := range s.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				if strings.Contains(h.Command, "--agent claude") {
					out[ev] = h.Command
				}
			}
		}
	}
	return out
}

// runHook runs a hook command exactly as Claude Code does: through the
// shell, in the session's cwd, the payload on stdin. It must exit 0 and
// print nothing (stdout goes to the model's context).
func (sb *sandbox) runHook(dir, command string, payload map[string]any) {
	sb.t.Helper()
	body, _ := json.Marshal(payload)
	r := sb.runEnv(dir, sb.env, string(body), "sh", "-c", command)
	if r.code != 0 || r.stdout != "" {
		sb.t.Fatalf("%s on %v: exit %d, stdout %q, stderr %s", command, payload["hook_event_name"], r.code, r.stdout, r.stderr)
	}
}

// TestClaudeEndToEnd installs into a user's real-looking ~/.claude/settings.json,
// replays a session through the hook commands as written there, commits, and
// reads it back with show, blame, conversation; then the agent commits
// itself, and uninstall gives the user's file back byte for byte.
func TestClaudeEndToEnd(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	configDir := filepath.Join(sb.home, ".claude")
	settings := filepath.Join(configDir, "settings.json")
	userFile := "{\n\t\"model\": \"opus\",\n\t\"hooks\": {\n\t\t\"PostToolUse\": [{\"matcher\": \"Edit\", \"hooks\": [{\"type\": \"command\", \"command\": \"true\", \"timeout\": 30}]}]\n\t},\n\t\"env\": {\"FOO\": \"1\"}\n}"
	sb.write(configDir, "settings.json", userFile)

	out := sb.convo(repo, "install")
	if !strings.Contains(out, settings+": Claude Code hooks updated") {
		t.Fatalf("install did not write Claude Code's hooks by default:\n%s", out)
	}
	if out := sb.convo(repo, "install"); !strings.Contains(out, "Claude Code hooks unchanged") {
		t.Errorf("second install:\n%s", out)
	}
	cmds := claudeHookCommands(t, settings)
	for _, ev := range []string{"SessionStart", "UserPromptSubmit", "PostToolUse", "Stop", "SubagentStop", "SessionEnd"} {
		if cmds[ev] == "" {
			t.Fatalf("no hook for %s in %v", ev, cmds)
		}
	}

	sid := "4a1e9d62-0c55-4c1b-9f5e-6d0b7a3e2c11"
	title := "Add a greeting module"
	content := "package greet\n\nfunc Hello() string { return \"hello\" }\n"
	tp := claudeTranscript(t, configDir, repo, sid, title, "Add a greeting module", "greet/greet.go", content, time.Now().Add(-time.Minute))
	base := map[string]any{"session_id": sid, "transcript_path": tp, "cwd": repo, "permission_mode": "default"}
	with := func(kv map[string]any) map[string]any {
		m := map[string]any{}
		for k, v := range base {
			m[k] = v
		}
		for k, v := range kv {
			m[k] = v
		}
		return m
	}
	file := sb.write(repo, "greet/greet.go", content)
	sb.runHook(repo, cmds["SessionStart"], with(map[string]any{"hook_event_name": "SessionStart", "source": "startup", "model": "claude-opus-4-6"}))
	sb.runHook(repo, cmds["UserPromptSubmit"], with(map[string]any{"hook_event_name": "UserPromptSubmit", "prompt": "Add a greeting module"}))
	sb.runHook(repo, cmds["PostToolUse"], with(map[string]any{"hook_event_name": "PostToolUse", "tool_name": "Write", "tool_use_id": "toolu_1",
		"tool_input":    map[string]any{"file_path": file, "content": content},
		"tool_response": map[string]any{"type": "create", "filePath": file, "content": content, "structuredPatch": []any{}, "originalFile": nil}}))
	sb.runHook(repo, cmds["Stop"], with(map[string]any{"hook_event_name": "Stop", "stop_hook_active": false, "last_assistant_message": "Done."}))
	sha := sb.commit(repo, "greet: add Hello", "greet/greet.go")

	s := sb.showJSON(repo, sha)
	if len(s.Conversations) != 1 || s.Conversations[0].ID != sid || s.Conversations[0].Title != title || s.Conversations[0].Agent != "claude" {
		t.Fatalf("show: %+v", s.Conversations)
	}
	if txt := sb.convo(repo, "show", sha); !strings.Contains(txt, title) || !strings.Contains(txt, "Claude Code") {
		t.Errorf("show does not name the session and its agent:\n%s", txt)
	}
	if txt := sb.convo(repo, "log", "-n", "1"); !strings.Contains(txt, title+" (100% auto, Claude Code)") {
		t.Errorf("log does not name the session and its agent:\n%s", txt)
	}
	var line blameLineJSON
	blame := sb.convo(repo, "blame", "--json", "greet/greet.go")
	if err := json.Unmarshal([]byte(strings.SplitN(blame, "\n", 2)[0]), &line); err != nil {
		t.Fatal(err)
	}
	if line.WrittenBy == nil || *line.WrittenBy != sid || line.Agent == nil || *line.Agent != "claude" || line.Conversations[0].Title != title {
		t.Errorf("blame: %s", blame)
	}
	if txt := sb.convo(repo, "blame", "greet/greet.go"); !strings.Contains(txt, title[:20]) {
		t.Errorf("blame does not name the session:\n%s", txt)
	}
	md := sb.convo(repo, "conversation", sid)
	for _, want := range []string{"# Conversation: " + title, "| Agent | claude |", "A new file is simplest.", "**Tool:** `Write`", "Done."} {
		if !strings.Contains(md, want) {
			t.Errorf("conversation lacks %q:\n%s", want, md)
		}
	}
	var cj struct {
		Agent    string `json:"agent"`
		Model    string `json:"model"`
		Messages []struct {
			Role string `json:"role"`
		} `json:"messages"`
	}
	if err := json.Unmarshal([]byte(sb.convo(repo, "conversation", "--json", sid)), &cj); err != nil || cj.Agent != "claude" || cj.Model != "claude-opus-4-6" || len(cj.Messages) != 3 {
		t.Errorf("conversation --json: %+v %v", cj, err)
	}
	if doc := sb.convo(repo, "doctor"); !strings.Contains(doc, "ok   claude hooks   "+settings) {
		t.Errorf("doctor does not report the Claude hooks:\n%s", doc)
	}
	if list := sb.convo(repo, "conversations"); !strings.Contains(list, title) || !strings.Contains(list, "Claude Code") {
		t.Errorf("conversations:\n%s", list)
	}

	// The agent commits through its Bash tool a file it did not edit with
	// its edit tools: only the Bash hook can link it.
	sb.write(repo, "gen.txt", "generated\n")
	sb.run(repo, "git", "add", "gen.txt")
	commitOut := sb.run(repo, "git", "commit", "-m", "chore: generated file")
	agentSha := strings.TrimSpace(sb.run(repo, "git", "rev-parse", "HEAD"))
	sb.runHook(repo, cmds["PostToolUse"], with(map[string]any{"hook_event_name": "PostToolUse", "tool_name": "Bash",
		"tool_input":    map[string]any{"command": `git add gen.txt && git commit -m "chore: generated file"`, "description": "Commit"},
		"tool_response": map[string]any{"stdout": commitOut, "stderr": "", "interrupted": false, "isImage": false}}))
	s = sb.showJSON(repo, agentSha)
	if len(s.Conversations) != 1 || s.Conversations[0].ID != sid || s.Conversations[0].Confidence != 1 ||
		s.Conversations[0].Reason != "committed by the agent in this conversation" {
		t.Errorf("the agent's own commit: %+v", s.Conversations)
	}
	sb.convo(repo, "relink")
	if s = sb.showJSON(repo, agentSha); len(s.Conversations) != 1 || s.Conversations[0].Confidence != 1 {
		t.Errorf("relink changed the agent's commit link: %+v", s.Conversations)
	}

	out = sb.convo(repo, "uninstall", "--claude")
	if !strings.Contains(out, "restored") {
		t.Errorf("uninstall:\n%s", out)
	}
	if got, _ := os.ReadFile(settings); string(got) != userFile {
		t.Errorf("the user's settings.json was not restored byte for byte:\n%s", got)
	}
}

// TestClaudeCaptureNeverFails: bad input, a foreign payload and a missing
// session id all exit 0; a Claude event prints nothing.
func TestClaudeCaptureNeverFails(t *testing.T) {
	sb := newSandbox(t)
	repo := sb.repo("project")
	for _, in := range []string{"", "not json", `{"hook_event_name":"Stop"}`, `{"session_id":"s","hook_event_name":"UserPromptSubmit","prompt":"hi","cwd":` + quoteJSON(repo) + `}`} {
		r := sb.runEnv(repo, sb.env, in, "git", "convo", "capture", "--agent", "claude")
		if r.code != 0 || r.stdout != "" {
			t.Errorf("%q: exit %d stdout %q", in, r.code, r.stdout)
		}
	}
}

// TestBlameAcrossAgents: in one file and one commit, Cursor's lines, Claude
// Code's lines and a person's line are each attributed to their writer.
func TestBlameAcrossAgents(t *testing.T) {
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.convo(repo, "install", "--claude=none")
	cursorText := "cursor wrote this line\ncursor wrote this too\n"
	p := sb.write(repo, "mix.txt", cursorText)
	sb.capture(repo, "cursor-conv", "beforeSubmitPrompt", map[string]any{"prompt": "start mix.txt"})
	sb.capture(repo, "cursor-conv", "afterFileEdit", map[string]any{"file_path": p, "edits": []map[string]string{{"old_string": "", "new_string": cursorText}}})
	claudeText := cursorText + "claude added this line\nclaude added another\n"
	sb.write(repo, "mix.txt", claudeText)
	payload, _ := json.Marshal(map[string]any{"session_id": "claude-sess", "cwd": repo, "hook_event_name": "PostToolUse", "tool_name": "Edit",
		"tool_input": map[string]any{"file_path": p, "old_string": "cursor wrote this too", "new_string": "cursor wrote this too\nclaude added this line\nclaude added another"}})
	if r := sb.runEnv(repo, sb.env, string(payload), "git", "convo", "capture", "--agent", "claude"); r.code != 0 || r.stdout != "" {
		t.Fatalf("capture: %+v", r)
	}
	sb.write(repo, "mix.txt", claudeText+"a person typed this\n")
	sb.commit(repo, "mix", "mix.txt")

	want := []struct{ writer, agent, attribution string }{
		{"cursor-conv", "cursor", "agent"}, {"cursor-conv", "cursor", "agent"},
		{"claude-sess", "claude", "agent"}, {"claude-sess", "claude", "agent"},
		{"", "", "human"},
	}
	lines := strings.Split(strings.TrimSpace(sb.convo(repo, "blame", "--json", "mix.txt")), "\n")
	if len(lines) != len(want) {
		t.Fatalf("%d lines", len(lines))
	}
	for i, raw := range lines {
		var l blameLineJSON
		if err := json.Unmarshal([]byte(raw), &l); err != nil {
			t.Fatal(err)
		}
		writer, agent := "", ""
		if l.WrittenBy != nil {
			writer = *l.WrittenBy
		}
		if l.Agent != nil {
			agent = *l.Agent
		}
		if writer != want[i].writer || agent != want[i].agent || l.Attribution != want[i].attribution {
			t.Errorf("line %d %q: writtenBy %q agent %q attribution %s; want %+v", i+1, l.Text, writer, agent, l.Attribution, want[i])
		}
	}
}

// TestImportClaudeSessions: import reads a past session whose cwd lies in
// the repository and links it to the commit that followed, additively.
func TestImportClaudeSessions(t *testing.T) {
	sb := newSandbox(t)
	repo := sb.repo("project")
	configDir := filepath.Join(sb.root, "claude-config")
	sb.env = sb.with("CLAUDE_CONFIG_DIR=" + configDir) // no git hooks: history from before git-convo
	content := "def area(r):\n    return 3.14159 * r * r\n"
	sid := "0e5d1f4c-7b2a-4c8e-9d3f-1a2b3c4d5e6f"
	claudeTranscript(t, configDir, repo, sid, "Compute circle areas", "add an area function", "geo/area.py", content, time.Now().Add(-time.Hour))
	// Another project's session is not imported.
	claudeTranscript(t, configDir, filepath.Join(sb.root, "elsewhere"), "other-session", "Elsewhere", "x", "x.py", "x = 1\n", time.Now().Add(-time.Hour))
	sb.write(repo, "geo/area.py", content)
	sha := sb.commit(repo, "geo: area", "geo/area.py")
	// A session in a linked work tree of the same repository counts too.
	wt := filepath.Join(sb.root, "project-wt")
	sb.run(repo, "git", "worktree", "add", "-q", "-b", "side", wt)
	claudeTranscript(t, configDir, wt, "wt-session", "In the other tree", "y", "y.py", "y = 2\n", time.Now().Add(-time.Hour))

	// --limit is one budget over the agents: Claude Code's sessions too.
	if out := sb.convo(repo, "import", "--limit", "1"); !strings.Contains(out, "conversations found: 2 (claude 2); imported now: 1\n") {
		t.Errorf("import --limit 1:\n%s", out)
	}
	out := sb.convo(repo, "import")
	if !strings.Contains(out, "conversations found: 2 (claude 2); imported now: 2\n") {
		t.Errorf("import summary:\n%s", out)
	}
	s := sb.showJSON(repo, sha)
	if len(s.Conversations) != 1 || s.Conversations[0].ID != sid || s.Conversations[0].Agent != "claude" ||
		s.Conversations[0].Title != "Compute circle areas" || s.Conversations[0].Source != "import" || s.Conversations[0].WrittenLines != 2 {
		t.Fatalf("show after import: %+v", s.Conversations)
	}
	if out := sb.convo(repo, "import"); !strings.Contains(out, "links made: 0 new") {
		t.Errorf("a second import made links:\n%s", out)
	}
}

// TestDoctorClaudeOnly: with Claude Code's hooks and no Cursor hooks, doctor
// warns about Cursor instead of failing; a malformed settings.json is
// reported and left untouched by install.
func TestDoctorClaudeOnly(t *testing.T) {
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.convo(repo, "install", "--cursor=none", "--claude=project")
	sb.write(repo, "a.txt", "a\n")
	sb.commit(repo, "a", "a.txt")
	doc := sb.convo(repo, "doctor")
	if !strings.Contains(doc, "ok   claude hooks   "+filepath.Join(repo, ".claude", "settings.json")) {
		t.Errorf("doctor:\n%s", doc)
	}
	// Without the remembered --cursor=none, missing Cursor hooks are a
	// warning, not a failure, while Claude Code's are installed.
	sb.run(repo, "git", "config", "--unset", "convo.cursor")
	if doc := sb.convo(repo, "doctor"); !strings.Contains(doc, "warn cursor hooks") {
		t.Errorf("doctor without convo.cursor:\n%s", doc)
	}
	// --claude=project was remembered (convo.claude): the user level is asked for.
	bad := sb.write(sb.home, ".claude/settings.json", `{"hooks": [`)
	r := sb.runEnv(repo, sb.env, "", "git", "convo", "install", "--cursor=none", "--claude=user")
	if r.code == 0 || !strings.Contains(r.stderr, bad) || !strings.Contains(r.stderr, "untouched") {
		t.Errorf("install over a malformed settings.json: exit %d\n%s", r.code, r.stderr)
	}
	if b, _ := os.ReadFile(bad); string(b) != `{"hooks": [` {
		t.Errorf("the malformed file changed: %s", b)
	}
}

// TestClaudeEventSpooled: a Claude Code event that cannot be written (the
// links database is read-only) is kept in the spool and recorded, as Claude
// Code's, by the next hook that can write.
func TestClaudeEventSpooled(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.captureOK(repo, sb.env, editPayload(repo, "conv-1", "a.go"))
	writable := sb.readOnlyDB()
	file := sb.write(repo, "k.go", "package k\n")
	payload, _ := json.Marshal(map[string]any{"session_id": "claude-spooled", "cwd": repo, "hook_event_name": "PostToolUse", "tool_name": "Write",
		"tool_input": map[string]any{"file_path": file, "content": "package k\n"}})
	r := sb.runEnv(repo, sb.env, string(payload), "git", "convo", "capture", "--agent", "claude")
	if logged, _ := os.ReadFile(errlog.PathBeside(sb.linksDB)); r.code != 0 || r.stdout != "" || r.stderr != "" || !strings.Contains(string(logged), "spool") {
		t.Fatalf("capture on a read-only DB (prints nothing, logs the spooling): %+v\n%s", r, logged)
	}
	writable()
	sb.captureOK(repo, sb.env, map[string]any{"conversation_id": "conv-2", "hook_event_name": "sessionStart"})
	if files := sb.filesOf(repo, "claude-spooled"); strings.Join(files, ",") != "k.go" {
		t.Errorf("the spooled Claude event: files %v", files)
	}
	if out := sb.convo(repo, "conversations", "--json", "--all"); !strings.Contains(out, `"agent":"claude"`) {
		t.Errorf("the spooled event lost its agent:\n%s", out)
	}
}

// TestMCPClaudeConversation: the MCP tools name a Claude Code session's
// agent and write its transcript as a context file, as the CLI reads it.
func TestMCPClaudeConversation(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.convo(repo, "install", "--cursor=none", "--claude=none")
	configDir := filepath.Join(sb.home, ".claude")
	sid := "9b2c7e10-5f3a-4d21-8c6b-0a1e2f3d4c5b"
	content := "print('mcp')\n"
	tp := claudeTranscript(t, configDir, repo, sid, "Print through MCP", "print mcp", "m.py", content, time.Now().Add(-time.Minute))
	file := sb.write(repo, "m.py", content)
	for _, p := range []map[string]any{
		{"hook_event_name": "PostToolUse", "tool_name": "Write", "tool_input": map[string]any{"file_path": file, "content": content}},
		{"hook_event_name": "Stop"},
	} {
		p["session_id"], p["cwd"], p["transcript_path"] = sid, repo, tp
		b, _ := json.Marshal(p)
		if r := sb.runEnv(repo, sb.env, string(b), "git", "convo", "capture", "--agent", "claude"); r.code != 0 || r.stdout != "" {
			t.Fatalf("capture: %+v", r)
		}
	}
	sha := sb.commit(repo, "m", "m.py")

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	session := sb.mcpSession(ctx, repo)
	call := mcpCaller(t, ctx, session)
	out := call("get_commit_conversations", map[string]any{"commitHash": sha})
	convs, _ := out["conversations"].([]any)
	if len(convs) != 1 || convs[0].(map[string]any)["agent"] != "claude" || convs[0].(map[string]any)["title"] != "Print through MCP" {
		t.Fatalf("get_commit_conversations: %v", out)
	}
	out = call("get_conversation", map[string]any{"conversationId": sid})
	md, err := os.ReadFile(out["filePath"].(string))
	if err != nil || !strings.Contains(string(md), "| Agent | claude |") || !strings.Contains(string(md), "A new file is simplest.") {
		t.Errorf("context file: %v\n%s", err, md)
	}
}

// TestClaudeSessionInSubdirectory: a session started in a folder of the
// work tree names files relative to that folder; they are recorded in the
// repository, and the session is listed under the work tree.
func TestClaudeSessionInSubdirectory(t *testing.T) {
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.convo(repo, "install", "--cursor=none", "--claude=none")
	sub := filepath.Join(repo, "svc")
	sb.write(sub, "main.go", "package main\n\nfunc main() {}\n")
	payload, _ := json.Marshal(map[string]any{"session_id": "sub-session", "cwd": sub, "hook_event_name": "PostToolUse", "tool_name": "Write",
		"tool_input": map[string]any{"file_path": "main.go", "content": "package main\n\nfunc main() {}\n"}})
	if r := sb.runEnv(sub, sb.env, string(payload), "git", "convo", "capture", "--agent", "claude"); r.code != 0 || r.stdout != "" {
		t.Fatalf("capture: %+v", r)
	}
	if files := sb.filesOf(repo, "sub-session"); strings.Join(files, ",") != "svc/main.go" {
		t.Errorf("files %v, want svc/main.go", files)
	}
	if out := sb.convo(repo, "conversations"); !strings.Contains(out, "sub-sess") {
		t.Errorf("the session is not listed for the work tree:\n%s", out)
	}
	sha := sb.commit(repo, "svc", "svc/main.go")
	if s := sb.showJSON(repo, sha); len(s.Conversations) != 1 || s.Conversations[0].WrittenLines != 2 {
		t.Errorf("show: %+v", s.Conversations)
	}
}

// TestEnrichClaudeSession: `git convo enrich <id>` reads a Claude Code
// session from its transcript, not Cursor's database.
func TestEnrichClaudeSession(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	configDir := filepath.Join(sb.home, ".claude")
	sid := "3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f"
	content := "print('enrich')\n"
	tp := claudeTranscript(t, configDir, repo, sid, "Enrich me", "print enrich", "e.py", content, time.Now().Add(-time.Minute))
	file := sb.write(repo, "e.py", content)
	b, _ := json.Marshal(map[string]any{"session_id": sid, "cwd": repo, "transcript_path": tp, "hook_event_name": "PostToolUse",
		"tool_name": "Write", "tool_input": map[string]any{"file_path": file, "content": content}})
	if r := sb.runEnv(repo, sb.env, string(b), "git", "convo", "capture", "--agent", "claude"); r.code != 0 {
		t.Fatalf("capture: %+v", r)
	}
	if r := sb.runEnv(repo, sb.env, "", "git", "convo", "enrich", sid); r.code != 0 {
		t.Fatalf("enrich %s: %+v", sid, r)
	}
	if out := sb.convo(repo, "conversations", "--json", "--all"); !strings.Contains(out, `"title":"Enrich me"`) {
		t.Errorf("the session was not enriched from its transcript:\n%s", out)
	}
}
