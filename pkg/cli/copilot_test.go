package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copilotHookCommands reads the bash command of each event of
// .github/hooks/git-convo.json.
func copilotHookCommands(t *testing.T, path string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Hooks map[string][]struct {
			Bash string `json:"bash"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for ev, list := range f.Hooks {
		for _, h := range list {
			if strings.Contains(h.Bash, "--agent copilot") {
				out[ev] = h.Bash
			}
		}
	}
	return out
}

// TestCopilotEndToEnd: install writes .github/hooks/git-convo.json with
// this machine's path and keeps it out of git; the CLI's camelCase
// payloads, whose event the command names, are recorded; its edit gives
// the session its lines, diffed against the file before the tool ran.
func TestCopilotEndToEnd(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	os.MkdirAll(filepath.Join(sb.home, ".copilot"), 0o755)
	out := sb.convo(repo, "install", "--cursor=none")
	hooks := filepath.Join(repo, ".github", "hooks", "git-convo.json")
	if !strings.Contains(out, hooks+": Copilot CLI hooks created") || !strings.Contains(out, "excluded from git") {
		t.Fatalf("install:\n%s", out)
	}
	if st := sb.run(repo, "git", "status", "--porcelain", "--untracked-files=all"); st != "" {
		t.Errorf("the hooks file with this machine's path shows in git status: %q", st)
	}
	cmds := copilotHookCommands(t, hooks)
	base := "def a():\n    return 1\n"
	file := sb.write(repo, "a.py", base)
	sb.commit(repo, "a", "a.py")

	const sid = "b0ff98c0-8e01-4b73-bf92-9649b139931b"
	events := sb.write(sb.home, ".copilot/session-state/"+sid+"/events.jsonl", strings.Join([]string{
		`{"type":"session.start","data":{"sessionId":"` + sid + `","version":1,"producer":"copilot-agent","copilotVersion":"1.0.45","context":{"cwd":"` + repo + `"}},"timestamp":"2026-05-12T00:21:05.254Z"}`,
		`{"type":"session.model_change","data":{"newModel":"gpt-4.1"},"timestamp":"2026-05-12T00:21:07.674Z"}`,
		`{"type":"user.message","data":{"content":"add b"},"timestamp":"2026-05-12T00:21:10.000Z"}`,
		`{"type":"assistant.message","data":{"content":"Added b.","toolRequests":[]},"timestamp":"2026-05-12T00:21:12.000Z"}`,
	}, "\n")+"\n")
	hook := func(ev string, payload string) {
		t.Helper()
		r := sb.runEnv(repo, sb.env, payload, "sh", "-c", cmds[ev])
		if r.code != 0 || strings.TrimSpace(r.stdout) != "{}" {
			t.Fatalf("%s: exit %d, stdout %q, stderr %s", ev, r.code, r.stdout, r.stderr)
		}
	}
	common := `"timestamp":1771480081360,"cwd":"` + repo + `","sessionId":"` + sid + `"`
	hook("userPromptSubmitted", `{`+common+`,"prompt":"add b"}`)
	hook("sessionStart", `{`+common+`,"source":"new","initialPrompt":"add b"}`)
	args, _ := json.Marshal(map[string]string{"path": file, "old_str": "    return 1\n", "new_str": "    return 1\n\n\ndef b():\n    return 2\n"})
	hook("preToolUse", `{`+common+`,"toolName":"edit","toolArgs":`+string(args)+`}`)
	sb.write(repo, "a.py", base+"\n\ndef b():\n    return 2\n")
	hook("postToolUse", `{`+common+`,"toolName":"edit","toolArgs":`+string(args)+`,"toolResult":{"resultType":"success","textResultForLlm":"ok"}}`)
	hook("agentStop", `{`+common+`,"transcriptPath":"`+events+`","stopReason":"end_turn"}`)
	sha := sb.commit(repo, "b", "a.py")

	s := sb.showJSON(repo, sha)
	if len(s.Conversations) != 1 || s.Conversations[0].ID != sid || s.Conversations[0].Agent != "copilot" || s.Conversations[0].Model != "gpt-4.1" {
		t.Fatalf("show: %+v", s.Conversations)
	}
	if got, want := owners(sb.blameJSON(repo, "a.py"), map[string]string{sid: "p"}), "- - p p p p"; got != want {
		t.Errorf("blame owners %q, want %q", got, want)
	}
	if md := sb.convo(repo, "conversation", sid); !strings.Contains(md, "add b") || !strings.Contains(md, "Added b.") {
		t.Errorf("conversation:\n%s", md)
	}
	sb.convo(repo, "uninstall")
	if _, err := os.Stat(hooks); !os.IsNotExist(err) {
		t.Errorf("uninstall left %s", hooks)
	}
}
