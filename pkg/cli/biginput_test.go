package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHugeLineKeepsOtherLinks: a commit adding one line over 64 MiB (a
// minified bundle) next to an agent's file keeps the conversation's link,
// and blame of the bundle works.
func TestHugeLineKeepsOtherLinks(t *testing.T) {
	skipOnWindows(t)
	if testing.Short() {
		t.Skip("writes a 65 MiB file")
	}
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.convo(repo, "install", "--cursor=none")
	sb.agentEdit(repo, "conv-bundle-01", "a.go", "package a\n\nfunc A() {}\n")
	f, err := os.Create(filepath.Join(repo, "bundle.min.js"))
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(strings.Repeat("x", 65<<20) + "\n")
	f.Close()
	sb.commit(repo, "add a.go and the bundle", "a.go", "bundle.min.js")
	if s := sb.showJSON(repo, "HEAD"); !has(convIDs(s), "conv-bundle-01") {
		t.Errorf("the conversation lost its link: %+v", s.Conversations)
	}
	if r := sb.runEnv(repo, sb.env, "", "git", "convo", "blame", "--json", "bundle.min.js"); r.code != 0 || !json.Valid([]byte(strings.SplitN(r.stdout, "\n", 2)[0])) {
		t.Errorf("blame of the bundle: exit %d %.200q", r.code, r.stderr)
	}
}

// TestPayloadTooLarge: a payload over 64 MiB is refused as too large (not
// as invalid JSON), and Cursor still gets its reply.
func TestPayloadTooLarge(t *testing.T) {
	sb := newSandbox(t)
	repo := sb.repo("project")
	body, _ := json.Marshal(map[string]any{"conversation_id": "conv-huge-0001", "hook_event_name": "beforeSubmitPrompt",
		"prompt": strings.Repeat("p", 65<<20)})
	r := sb.runEnv(repo, sb.env, string(body), "git", "convo", "capture", "--event", "beforeSubmitPrompt") // as hooks.json runs it
	if r.code != 0 || strings.TrimSpace(r.stdout) != `{"continue":true}` || !strings.Contains(r.stderr, "too large") {
		t.Errorf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

// TestHugePromptStoredOnce: a prompt of 8 MB on many lines, with no title
// from Cursor, is stored once (the database grows by about its size, not
// three times that), and the title derived from it is one bounded line.
func TestHugePromptStoredOnce(t *testing.T) {
	sb := newSandbox(t)
	repo := sb.repo("project")
	prompt := strings.Repeat("please refactor the parser\nand keep the tests green\n", 8<<20/52)
	sb.capture(repo, "conv-long-prompt", "beforeSubmitPrompt", map[string]any{"prompt": prompt})
	sb.captureOK(repo, sb.env, map[string]any{"conversation_id": "conv-long-prompt", "hook_event_name": "beforeSubmitPrompt", "prompt": prompt, "generation_id": "gen-1"}) // the same event again
	var size int64
	for _, suffix := range []string{"", "-wal"} {
		if fi, err := os.Stat(sb.linksDB + suffix); err == nil {
			size += fi.Size()
		}
	}
	if size > int64(len(prompt))*3/2 {
		t.Errorf("links.sqlite and its WAL take %d bytes for a prompt of %d", size, len(prompt))
	}
	out := sb.convo(repo, "conversations")
	if strings.Count(out, "\n") != 1 || len(out) > 300 || !strings.HasPrefix(strings.SplitN(out, " ", 2)[1], "please refactor the parser and keep") {
		t.Errorf("conversations prints %d bytes on %d lines: %.300q", len(out), strings.Count(out, "\n"), out)
	}
}
