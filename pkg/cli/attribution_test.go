package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestLineAttribution replays two conversations editing one file through the
// real capture hook, then a person's edit on top, then a real commit, and
// checks who wrote each line.
func TestLineAttribution(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.convo(repo, "install", "--cursor=none")
	const convA, convB = "aaaaaaaa-0000-0000-0000-000000000001", "bbbbbbbb-0000-0000-0000-000000000002"

	// Conversation A writes three lines (afterFileEdit).
	sb.capture(repo, convA, "beforeSubmitPrompt", map[string]any{"prompt": "write the parser", "generation_id": "gen-a1"})
	partA := "func parse(s string) int {\n\treturn len(s)\n}\n"
	p := sb.write(repo, "app.go", partA)
	sb.capture(repo, convA, "afterFileEdit", map[string]any{"file_path": p, "generation_id": "gen-a1",
		"edits": []map[string]string{{"old_string": "", "new_string": partA}}})
	sb.capture(repo, convA, "stop", map[string]any{"status": "completed"})

	// Conversation B appends two lines through an edit tool (postToolUse StrReplace).
	sb.capture(repo, convB, "beforeSubmitPrompt", map[string]any{"prompt": "add a printer", "generation_id": "gen-b1"})
	partB := "func show(n int) string {\n\treturn fmt.Sprint(n) // printed\n}\n"
	sb.write(repo, "app.go", partA+partB)
	sb.capture(repo, convB, "postToolUse", map[string]any{"tool_name": "StrReplace", "generation_id": "gen-b1",
		"tool_input": map[string]any{"path": p, "old_string": "", "new_string": partB}})
	sb.capture(repo, convB, "stop", map[string]any{"status": "completed"})

	// A person changes A's second line and adds one of their own.
	human := strings.Replace(partA+partB, "\treturn len(s)", "\treturn len(s) + 1", 1) + "// TODO: tests\n"
	sb.write(repo, "app.go", human)
	sha := sb.commit(repo, "parser and printer", "app.go")

	out := sb.convo(repo, "blame", "--json", "app.go")
	var lines []blameLineJSON
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var bl blameLineJSON
		if err := json.Unmarshal([]byte(l), &bl); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, bl)
	}
	want := []struct{ attr, writer, prompt string }{
		{"agent", convA, "write the parser"}, // func parse(s string) int {
		{"human", "", ""},                    // changed by the person
		{"agent", convA, "write the parser"}, // } (both wrote one: this one is where A wrote it)
		{"agent", convB, "add a printer"},    // func show
		{"agent", convB, "add a printer"},    // return fmt.Sprint
		{"agent", convB, "add a printer"},    // }
		{"human", "", ""},                    // TODO
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines:\n%s", len(lines), out)
	}
	for i, w := range want {
		l := lines[i]
		writer, prompt := "", ""
		if l.WrittenBy != nil {
			writer = *l.WrittenBy
		}
		if l.Prompt != nil {
			prompt = *l.Prompt
		}
		if l.Attribution != w.attr || writer != w.writer || prompt != w.prompt || l.Commit != sha {
			t.Errorf("line %d %q: %s by %q (%q), want %s by %q (%q)", l.Line, l.Text, l.Attribution, writer, prompt, w.attr, w.writer, w.prompt)
		}
		if w.writer != "" && (len(l.Conversations) == 0 || l.Conversations[0].ID != w.writer) {
			t.Errorf("line %d: the writer is not listed first: %+v", l.Line, l.Conversations)
		}
	}

	// show: both links carry their line counts; the reason says so.
	s := sb.showJSON(repo, sha)
	got := map[string]conversationJSON{}
	for _, c := range s.Conversations {
		got[c.ID] = c
	}
	if a := got[convA]; a.WrittenLines != 2 || a.AddedLines != 7 || !strings.HasPrefix(a.Reason, "2 of 7 added lines written in this conversation") {
		t.Errorf("A: %+v", a)
	}
	if b := got[convB]; b.WrittenLines != 3 || b.AddedLines != 7 || b.Confidence <= got[convA].Confidence {
		t.Errorf("B: %+v", b)
	}

	// stats: agent and human counts for a commit that mixes both.
	var st statsJSON
	if err := json.Unmarshal([]byte(sb.convo(repo, "stats", "--json", "HEAD~1..HEAD")), &st); err != nil {
		t.Fatal(err)
	}
	if st.Added != 7 || st.Agent != 5 || len(st.ByFile) != 1 || st.ByFile[0].Name != "app.go" || st.ByAuthor[0].Name != "Ada Tester <ada@example.com>" {
		t.Errorf("stats = %+v", st)
	}
	if txt := sb.convo(repo, "stats", "HEAD~1..HEAD", "--", "app.go"); !strings.Contains(txt, "5 of 7 added lines written by agents (71%)") {
		t.Errorf("stats text:\n%s", txt)
	}
	if txt := sb.convo(repo, "blame", "app.go"); !strings.Contains(txt, "(by hand)") {
		t.Errorf("blame text does not mark the person's lines:\n%s", txt)
	}
}
