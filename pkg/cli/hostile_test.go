package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// evil writes the clipboard (OSC 52), clears the screen and overwrites the
// line when a terminal receives it raw.
const evil = "\x1b]52;c;ZXZpbA==\x07\x1b[2J\rX"

// rawControl reports a byte that drives a terminal (newline and tab aside).
func rawControl(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool {
		return r != '\n' && r != '\t' && (r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f))
	})
}

// TestTextFromOutsideNeverDrivesTheTerminal: a prompt, a file path, a
// conversation id, a transcript and a log line holding escape sequences are
// printed escaped by every command, and --json escapes them as JSON does.
func TestTextFromOutsideNeverDrivesTheTerminal(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.convo(repo, "install", "--cursor=none")
	conv := "conv-" + evil
	transcript := filepath.Join(sb.root, "t.jsonl")
	line, _ := json.Marshal(map[string]any{"role": "user", "message": map[string]any{"content": []map[string]string{{"type": "text", "text": "needle " + evil}}}})
	os.WriteFile(transcript, append(line, '\n'), 0o600)
	sb.capture(repo, conv, "beforeSubmitPrompt", map[string]any{"prompt": "needle " + evil, "transcript_path": transcript})
	file := "odd" + evil + ".go"
	p := sb.write(repo, file, "package odd\n")
	sb.capture(repo, conv, "afterFileEdit", map[string]any{"file_path": p, "edits": []map[string]string{{"old_string": "", "new_string": "package odd\n"}}})
	sb.commit(repo, "odd file", file)
	// A payload with no conversation id: capture's stderr and the log name its event.
	bad, _ := json.Marshal(map[string]any{"hook_event_name": evil})
	r := sb.runEnv(repo, sb.env, string(bad), "git", "convo", "capture")
	if rawControl(r.stderr) || !strings.Contains(r.stderr, `\033]52`) {
		t.Errorf("capture's stderr: %q", r.stderr)
	}
	for _, args := range [][]string{
		{"show", "--no-pager"}, {"show", "--full"}, {"log"}, {"conversations"}, {"search", "needle"},
		{"blame", file}, {"conversation", "conv-"}, {"doctor"}, {"stats"},
	} {
		r := sb.runEnv(repo, sb.with("GIT_PAGER=", "GIT_CONFIG_PARAMETERS='core.pager'='cat'"), "", append([]string{"git", "convo"}, args...)...)
		if rawControl(r.stdout) || rawControl(r.stderr) {
			t.Errorf("%v prints raw control characters:\n%q\n%q", args, r.stdout, r.stderr)
		}
		if args[0] != "stats" && !strings.Contains(r.stdout, `\033`) {
			t.Errorf("%v does not show the escape escaped:\n%q", args, r.stdout)
		}
	}
	js := sb.convo(repo, "show", "--json")
	if rawControl(js) || !strings.Contains(js, `\u001b]52`) {
		t.Errorf("show --json: %q", js)
	}
}

// TestLogEscapesCommitText: git-convo's own log line shows a commit's
// subject and author name, text from whoever made the commit, escaped,
// walked in process or read through git alike.
func TestLogEscapesCommitText(t *testing.T) {
	sb := newSandbox(t)
	repo := sb.repo("evil-log")
	sb.write(repo, "a.txt", "a\n")
	sb.run(repo, "git", "add", "a.txt")
	sb.run(repo, "git", "-c", "user.name=Eve"+evil, "commit", "-q", "-m", "subject "+evil)
	for _, withGit := range []string{"", "1"} {
		r := sb.runEnv(repo, sb.with("GIT_CONVO_READ_WITH_GIT="+withGit), "", "git", "convo", "log", "-n", "1")
		if r.code != 0 || rawControl(r.stdout) || !strings.Contains(r.stdout, `subject \033]52;c;ZXZpbA==\a`) || !strings.Contains(r.stdout, `Eve\033]52`) {
			t.Errorf("log (GIT_CONVO_READ_WITH_GIT=%q): exit %d\n%q", withGit, r.code, r.stdout)
		}
	}
}
