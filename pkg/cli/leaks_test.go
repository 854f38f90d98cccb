package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/share/notes"
	"github.com/git-convo/git-convo/pkg/util/testshared"
)

// A hostile teammate's note names its agent with escape sequences: show,
// log and conversations print the name escaped.
func TestSharedAgentNameIsEscaped(t *testing.T) {
	_, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	b := cloneAs(t, bare, "b")
	a.convo(a.dir, "share", "on")
	a.conversation(t, "conv-agent", "Hostile agent name", "s", "p", "e.go", "package e\n\nvar E = 1\n")
	c := a.commit(a.dir, "e", "e.go")
	note := a.noteText(notes.Ref, c)
	name, _ := json.Marshal("x" + evil + "\u009b2J\u202e\u200b\u2028")
	hostile := strings.Replace(note, `"agent":"cursor"`, `"agent":`+string(name), 1)
	if hostile == note {
		t.Fatalf("no agent in the note to replace:\n%s", note)
	}
	a.runEnv(a.dir, a.env, hostile, "git", "notes", "--ref="+notes.Ref, "add", "-f", "-F", "-", c)
	a.run(a.dir, "git", "push", "-q", "--no-verify", "origin", "main", "+"+notes.Ref+":"+notes.Ref)
	b.run(b.dir, "git", "pull", "-q", "--ff-only")
	for _, args := range [][]string{{"show", c}, {"log", "-n", "2"}, {"conversations"}} {
		r := b.runEnv(b.dir, b.with("GIT_PAGER=", "GIT_CONFIG_PARAMETERS='core.pager'='cat'"), "", append([]string{"git", "convo"}, args...)...)
		if rawControl(r.stdout) || rawControl(r.stderr) || hidden(r.stdout) || !strings.Contains(r.stdout, `x\033]52`) {
			t.Errorf("%v: the agent's name is not shown escaped:\n%q\n%q", args, r.stdout, r.stderr)
		}
	}
	// --json and trace escape what JSON leaves raw: C1, bidi, zero-width.
	for _, args := range [][]string{{"show", "--json", c}, {"log", "--json", "-n", "2"}, {"conversations", "--json"}, {"trace", c}} {
		out := b.convo(b.dir, args...)
		if rawControl(out) || hidden(out) || !strings.Contains(out, `\u009b2J\u202e\u200b\u2028`) {
			t.Errorf("%v: %q", args, out)
		}
	}
}

// hidden reports a character that hides or reorders text: a bidi
// override, a zero-width space, a line separator.
func hidden(s string) bool { return strings.ContainsAny(s, "\u202e\u200b\u2028") }

// plantedSecret is one line of the redaction corpus
// (pkg/share/redact/testdata/secrets.jsonl).
type plantedSecret struct {
	Kind, Text string
	Gone       []string
}

func readSecretCorpus(t *testing.T) []plantedSecret {
	t.Helper()
	root, err := testshared.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "pkg/share/redact/testdata/secrets.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var out []plantedSecret
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var p plantedSecret
		if err := json.Unmarshal([]byte(line), &p); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// TestShareCorpusNeverReachesTheRemote plants every secret of the corpus in
// every field a user's conversation gives (title, summary, first prompt,
// model, the path of an edit outside the repository), shares with and
// without --prompts, pushes to a bare remote and looks for each secret in
// every object the remote holds. A Claude Code session with no title (titled
// by its first prompt) shares no prompt without --prompts.
func TestShareCorpusNeverReachesTheRemote(t *testing.T) {
	_, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	corpus := readSecretCorpus(t)
	var texts []string
	for _, p := range corpus {
		texts = append(texts, p.Text)
	}
	all := strings.Join(texts, "\n")
	oneLine := strings.Join(strings.Fields(strings.ReplaceAll(all, "\n", " ")), " ")
	plant := func(conv, rel string) string {
		now := time.Now().UnixMilli()
		cursorKV(t, a.cursorDB, "cursorDiskKV", map[string]any{"composerData:" + conv: map[string]any{
			"_v": 10, "name": "Deploy " + oneLine, "createdAt": now - 60000, "lastUpdatedAt": now, "status": "completed",
			"fullConversationHeadersOnly": []any{},
			"latestConversationSummary":   map[string]any{"summary": map[string]any{"summary": "Wired " + all}},
		}})
		model := map[string]any{"model": oneLine}
		with := func(kv map[string]any) map[string]any {
			for k, v := range model {
				kv[k] = v
			}
			return kv
		}
		a.capture(a.dir, conv, "beforeSubmitPrompt", with(map[string]any{"prompt": "Deploy the pelican service: " + all}))
		outside := filepath.Join(a.home, "Grace Hopper", "DB_PASSWORD=hunterstaple", "notes.txt")
		a.capture(a.dir, conv, "afterFileEdit", with(map[string]any{"file_path": outside, "edits": []map[string]string{{"old_string": "", "new_string": "x\n"}}}))
		body := "package " + strings.TrimSuffix(rel, ".go") + "\n\nvar Ready = true\n"
		p := a.write(a.dir, rel, body)
		a.capture(a.dir, conv, "afterFileEdit", with(map[string]any{"file_path": p, "edits": []map[string]string{{"old_string": "", "new_string": body}}}))
		a.capture(a.dir, conv, "stop", with(map[string]any{"status": "completed", "loop_count": 0}))
		return a.commit(a.dir, "deploy "+rel, rel)
	}
	// A Claude Code session with no title line, imported.
	configDir := filepath.Join(a.root, "claude-config")
	a.env = a.with("CLAUDE_CONFIG_DIR=" + configDir)
	const private = "Migrate the pelican billing tables tonight"
	claudeTranscript(t, configDir, a.dir, "5b7c1e2a-0c55-4c1b-9f5e-6d0b7a3e2c11", "", private, "pelican.go", "package pelican\n", time.Now().Add(-time.Hour))
	a.write(a.dir, "pelican.go", "package pelican\n")
	claudeCommit := a.commit(a.dir, "pelican", "pelican.go")
	a.convo(a.dir, "import")
	// Locally the untitled session is titled by its first prompt, as everywhere
	// (one title, issue 27); the store knows it has no title of its own.
	if s := a.showJSON(a.dir, claudeCommit); len(s.Conversations) != 1 || s.Conversations[0].Title != private {
		t.Fatalf("the untitled Claude Code session: %+v", s.Conversations)
	}
	if out := a.convo(a.dir, "show", claudeCommit); !strings.Contains(out, private) {
		t.Fatalf("show does not name the untitled session by its prompt:\n%s", out)
	}

	a.convo(a.dir, "share", "on")
	plain := plant("conv-plain", "plain.go")
	a.run(a.dir, "git", "push", "-q", "origin", "main")
	objects := func() string {
		return a.runEnv(a.root, a.env, "", "git", "--git-dir="+bare, "cat-file", "--batch-all-objects", "--batch").stdout
	}
	remote := objects()
	if !strings.Contains(remote, "conv-plain") || !strings.Contains(remote, "Deploy") {
		t.Fatalf("the remote has no note of the planted conversation")
	}
	if strings.Contains(remote, "pelican billing") {
		t.Errorf("share on without --prompts: the Claude Code session's prompt (its title) is on the remote")
	}

	a.convo(a.dir, "share", "on", "--prompts")
	withPrompts := plant("conv-prompts", "prompts.go")
	a.run(a.dir, "git", "push", "-q", "origin", "main")
	remote = objects()
	if !strings.Contains(remote, "Deploy the pelican service") {
		t.Fatalf("share on --prompts: the first prompt's ordinary words are not on the remote")
	}
	leaked := 0
	for _, p := range corpus {
		for _, g := range p.Gone {
			if strings.Contains(remote, g) || strings.Contains(remote, strings.ToLower(g)) {
				t.Errorf("%s: %q is on the remote", p.Kind, g)
				leaked++
				break
			}
		}
	}
	for _, c := range []string{plain, withPrompts} {
		if note := a.noteText(notes.Ref, c); !strings.Contains(note, "[redacted: ") {
			t.Errorf("the note of %s marks no redaction:\n%s", c, note)
		}
	}
	t.Logf("%d of %d secret kinds reached the remote", leaked, len(corpus))
}
