package codex

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/agents/cursor/cursortest"
	"github.com/git-convo/git-convo/pkg/agents/source"
)

// TestReadRealRollouts reads the real rollouts of the shared fixtures: a
// Codex CLI 0.125 session with three apply_patch edits, and a Codex Desktop
// session without edits.
func TestReadRealRollouts(t *testing.T) {
	dir := cursortest.Shared(t, "codex", "rollouts")
	cli, err := ReadRollout(filepath.Join(dir, "rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if cli.ID != "019e1625-789d-76c0-80ab-3724b5ddb799" || cli.Cwd != "/Users/Sample_User/repos/codemie-ai/codemie-code" || cli.Model != "gpt-5.5" {
		t.Errorf("header: %q %q %q", cli.ID, cli.Cwd, cli.Model)
	}
	if len(cli.Prompts) != 2 || cli.Prompts[0] != "show tools" {
		t.Errorf("prompts %q", cli.Prompts)
	}
	if len(cli.Edits) != 3 {
		t.Fatalf("%d edits, want the 3 apply_patch calls", len(cli.Edits))
	}
	for _, e := range cli.Edits {
		if e.Path == "" || e.Added == "" || e.At.IsZero() || strings.HasPrefix(e.Path, "/") {
			t.Errorf("edit %q (%d bytes) at %v: want a relative path, its added text and time", e.Path, len(e.Added), e.At)
		}
	}
	if !strings.Contains(cli.Edits[0].Added, "describe('Compaction Config'") {
		t.Errorf("first edit's text: %.80q", cli.Edits[0].Added)
	}
	// The agent's words before each apply_patch, from the turn's last
	// agent_message.
	for i, w := range []string{"I’m going to codify the expected behavior first", "The RED check failed exactly because `compaction` was absent.",
		"The RED check failed exactly because `compaction` was absent."} {
		if !strings.HasPrefix(cli.Edits[i].Words, w) {
			t.Errorf("edit %d words %.80q, want %q...", i, cli.Edits[i].Words, w)
		}
	}
	assistant := 0
	for _, m := range cli.Messages {
		if m.Role == "assistant" && m.Text != "" {
			assistant++
		}
	}
	if assistant != 13 {
		t.Errorf("%d agent messages, want 13", assistant)
	}

	desk, err := ReadRollout(filepath.Join(dir, "rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if desk.ID != "019e1695-0522-7c83-8b39-0dd379793f80" || len(desk.Prompts) != 3 || len(desk.Edits) != 0 {
		t.Errorf("Codex Desktop: %q, %d prompts, %d edits", desk.ID, len(desk.Prompts), len(desk.Edits))
	}
}

// TestReadRolloutDamaged: truncated, reordered, unknown-version and
// unknown-type lines are skipped or kept by their own times.
func TestReadRolloutDamaged(t *testing.T) {
	lines := []string{
		`{"timestamp":"2026-05-11T08:30:00Z","type":"event_msg","payload":{"type":"user_message","message":"second"}}`,
		`{"timestamp":"2026-05-11T08:26:55Z","type":"session_meta","payload":{"id":"s-1","cwd":"/r","cli_version":"9.0.0","future_field":{"x":1}}}`,
		`{"timestamp":"2026-05-11T08:27:00Z","type":"compacted_v9","payload":{"anything":true}}`,
		`{"timestamp":"2026-05-11T08:28:00Z","type":"response_item","payload":{"type":"custom_tool_call","name":"apply_patch","input":"*** Begin Patch\n*** Add File: n.go\n+package n\n*** End Patch"}}`,
		`{"timestamp":"2026-05-11T08:29:00Z","type":"response_item","payload":{"type":"function_call","name":"apply_patch","arguments":"{\"input\":\"*** Begin Patch\\n*** Update File: m.go\\n@@\\n+x\\n*** End Patch\"}"}}`,
		`{"type":"event_msg","payload":"not an object"}`,
		`garbage`,
		`{"timestamp":"2026-05-11T08:31:00Z","type":"event_msg","payload":{"type":"user_message","message":"cut`,
	}
	p := filepath.Join(t.TempDir(), "rollout-2026-05-11T08-26-55-s-1.jsonl")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := ReadRollout(p)
	if err != nil {
		t.Fatal(err)
	}
	if c.ID != "s-1" || len(c.Prompts) != 1 || len(c.Edits) != 2 || c.Edits[0].Path != "n.go" || c.Edits[1].Added != "x" {
		t.Errorf("%+v", c)
	}
	if c.Created.Format("15:04:05") != "08:26:55" {
		t.Errorf("created %v", c.Created)
	}
}

// TestListAndRead: import finds the sessions of a repository by the cwd of
// their session_meta, under CODEX_HOME; a conversation is read by id alone.
func TestListAndRead(t *testing.T) {
	home := t.TempDir()
	day := filepath.Join(home, "sessions", "2026", "05", "11")
	os.MkdirAll(day, 0o700)
	write := func(id, cwd string) {
		body := `{"timestamp":"2026-05-11T08:26:55Z","type":"session_meta","payload":{"id":"` + id + `","cwd":"` + cwd + `"}}` + "\n" +
			`{"timestamp":"2026-05-11T08:27:00Z","type":"event_msg","payload":{"type":"user_message","message":"hi ` + id + `"}}` + "\n"
		os.WriteFile(filepath.Join(day, "rollout-2026-05-11T08-26-55-"+id+".jsonl"), []byte(body), 0o600)
	}
	write("in-repo", "/work/repo/sub")
	write("elsewhere", "/work/other")
	src := Agent{}.Source(func(k string) string {
		if k == "CODEX_HOME" {
			return home
		}
		return ""
	})
	refs, err := src.ListConversations(context.Background(), []string{"/work/repo"})
	if err != nil || len(refs) != 1 || refs[0].ID != "in-repo" || refs[0].Cwd != "/work/repo/sub" {
		t.Fatalf("%+v %v", refs, err)
	}
	c, err := src.ReadConversation(context.Background(), "in-repo", source.Hint{})
	if err != nil || c.Prompts[0] != "hi in-repo" {
		t.Fatalf("%+v %v", c, err)
	}
	if refs, err := (Source{}).ListConversations(context.Background(), nil); err != nil || refs != nil {
		t.Errorf("no Codex directory: %v", err)
	}
}
