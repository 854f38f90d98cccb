package accuracy

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// user is one person on the machine: own HOME, git config and links
// database, git-convo first on PATH, hooks recording in the foreground
// (GIT_CONVO_SYNC=1, so that what a hook records is there when it returns).
type user struct {
	t    testing.TB
	root string
	env  []string
}

func newUser(t testing.TB, root, name, fullName, email string) *user {
	t.Helper()
	dir := filepath.Join(root, name)
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	gitconfig := filepath.Join(dir, "gitconfig")
	cfg := "[user]\n\tname = " + fullName + "\n\temail = " + email + "\n[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n[advice]\n\tdetachedHead = false\n"
	if err := os.WriteFile(gitconfig, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	u := &user{t: t, root: dir}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GIT_") || strings.HasPrefix(k, "CURSOR_") || strings.HasPrefix(k, "CLAUDE_") ||
			k == "HOME" || k == "PATH" || k == "XDG_CONFIG_HOME" || k == "XDG_DATA_HOME" || k == "NO_COLOR" {
			continue
		}
		u.env = append(u.env, kv)
	}
	u.env = append(u.env,
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_DATA_HOME="+filepath.Join(home, ".local", "share"),
		"GIT_CONFIG_GLOBAL="+gitconfig,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONVO_DB="+filepath.Join(dir, "links.sqlite"),
		"CURSOR_DB_PATH="+filepath.Join(dir, "no-cursor.vscdb"),
		"GIT_CONVO_SYNC=1",
		"PATH="+binDir+string(os.PathListSeparator)+os.Getenv("PATH"),
		"GIT_PAGER=cat",
		"NO_COLOR=1",
	)
	return u
}

// exec runs a command in dir with stdin and returns stdout; it fails the
// test when the command fails.
func (u *user) exec(dir, stdin string, args ...string) string {
	u.t.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir, cmd.Env = dir, u.env
	if cmd.Dir == "" {
		cmd.Dir = u.root
	}
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		u.t.Fatalf("%s (in %s): %v\nstdout: %s\nstderr: %s", strings.Join(args, " "), dir, err, out.String(), errb.String())
	}
	return out.String()
}

func (u *user) git(dir string, args ...string) string {
	u.t.Helper()
	return u.exec(dir, "", append([]string{"git"}, args...)...)
}

func (u *user) convo(dir string, args ...string) string {
	u.t.Helper()
	return u.exec(dir, "", append([]string{"git", "convo"}, args...)...)
}

// agent is one conversation of one agent, sending the hook payloads the
// agent sends (Cursor's hooks.json events, or Claude Code's settings.json
// hooks through capture --agent claude).
type agent struct {
	kind string // cursor | claude
	id   string
	// tools: a Cursor agent whose edits come as postToolUse of its edit
	// tools (StrReplace, Write) rather than afterFileEdit.
	tools bool
}

func (a agent) send(u *user, dir string, payload map[string]any) {
	u.t.Helper()
	args := []string{"git", "convo", "capture"}
	if a.kind == "claude" {
		payload["session_id"], payload["cwd"] = a.id, dir
		args = append(args, "--agent", "claude")
	} else {
		payload["conversation_id"], payload["workspace_roots"] = a.id, []string{dir}
		payload["model"], payload["cursor_version"] = "claude-4.5-sonnet", "2.5.26"
		if _, ok := payload["generation_id"]; !ok {
			payload["generation_id"] = "gen-" + a.id[:8]
		}
	}
	body, err := json.Marshal(payload)
	if err != nil {
		u.t.Fatal(err)
	}
	u.exec(dir, string(body), args...)
}

func (a agent) prompt(u *user, dir, text string) {
	u.t.Helper()
	if a.kind == "claude" {
		a.send(u, dir, map[string]any{"hook_event_name": "UserPromptSubmit", "prompt": text})
		return
	}
	a.send(u, dir, map[string]any{"hook_event_name": "beforeSubmitPrompt", "prompt": text})
}

// edited reports one edit of file (absolute path): old and new strings as
// the agent's edit tool takes them, or, for a file it created, its content.
func (a agent) edited(u *user, dir, file, oldS, newS string, created bool) {
	switch {
	case a.kind == "claude" && created:
		a.send(u, dir, map[string]any{"hook_event_name": "PostToolUse", "tool_name": "Write",
			"tool_input": map[string]any{"file_path": file, "content": newS}})
	case a.kind == "claude":
		a.send(u, dir, map[string]any{"hook_event_name": "PostToolUse", "tool_name": "Edit",
			"tool_input":    map[string]any{"file_path": file, "old_string": oldS, "new_string": newS},
			"tool_response": map[string]any{"filePath": file, "oldString": oldS, "newString": newS}})
	case a.tools && created:
		a.send(u, dir, map[string]any{"hook_event_name": "postToolUse", "tool_name": "Write",
			"tool_input": map[string]any{"file_path": file, "content": newS}})
	case a.tools:
		a.send(u, dir, map[string]any{"hook_event_name": "postToolUse", "tool_name": "StrReplace",
			"tool_input": map[string]any{"path": file, "old_string": oldS, "new_string": newS}})
	default:
		a.send(u, dir, map[string]any{"hook_event_name": "afterFileEdit", "file_path": file,
			"edits": []map[string]string{{"old_string": oldS, "new_string": newS}}})
	}
}

func (a agent) stop(u *user, dir string) {
	if a.kind == "claude" {
		a.send(u, dir, map[string]any{"hook_event_name": "Stop", "stop_hook_active": false})
		return
	}
	a.send(u, dir, map[string]any{"hook_event_name": "stop", "status": "completed", "loop_count": 0})
}
