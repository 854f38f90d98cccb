package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/mcpserver"
	"github.com/git-convo/git-convo/pkg/write/spool"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// blameJSON runs blame --json and reads its lines.
func (sb *sandbox) blameJSON(repo string, args ...string) []blameLineJSON {
	sb.t.Helper()
	out := sb.convo(repo, append([]string{"blame", "--json"}, args...)...)
	var lines []blameLineJSON
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var bl blameLineJSON
		if err := json.Unmarshal([]byte(l), &bl); err != nil {
			sb.t.Fatalf("%v: %s", err, l)
		}
		lines = append(lines, bl)
	}
	return lines
}

// owners is each blamed line's writer, or "-" for nobody's, with its
// evidence: "a" (position), "a~" (text match).
func owners(lines []blameLineJSON, names map[string]string) string {
	var out []string
	for _, l := range lines {
		switch {
		case l.WrittenBy == nil:
			out = append(out, "-")
		case l.Evidence != nil && *l.Evidence == "text match":
			out = append(out, names[*l.WrittenBy]+"~")
		default:
			out = append(out, names[*l.WrittenBy])
		}
	}
	return strings.Join(out, " ")
}

// installedSandbox is a sandbox with a repository that git-convo is
// installed in.
func installedSandbox(t *testing.T) (*sandbox, string) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.convo(repo, "install", "--cursor=none")
	return sb, repo
}

// cursorEdit writes content into rel as Cursor's agent does and sends the
// afterFileEdit that replaced old with new; it returns the file's path.
func (sb *sandbox) cursorEdit(repo, conv, rel, content, old, new string) string {
	sb.t.Helper()
	p := sb.write(repo, rel, content)
	sb.capture(repo, conv, "afterFileEdit", map[string]any{"file_path": p,
		"edits": []map[string]string{{"old_string": old, "new_string": new}}})
	return p
}

// claudeCapture sends one Claude Code hook payload.
func (sb *sandbox) claudeCapture(repo string, payload map[string]any) {
	sb.t.Helper()
	payload["cwd"] = repo
	body, _ := json.Marshal(payload)
	if r := sb.runEnv(repo, sb.env, string(body), "git", "convo", "capture", "--agent", "claude"); r.code != 0 {
		sb.t.Fatalf("capture --agent claude: %d %s", r.code, r.stderr)
	}
}

// A person who adds the same `}` and `return nil` lines as the agent, in
// the same file and commit, keeps them: only the agent's positions are its.
func TestPositionPersonsIdenticalLines(t *testing.T) {
	sb, repo := installedSandbox(t)
	const conv = "aaaaaaaa-0000-0000-0000-00000000000a"
	base := "package x\n\nfunc Old() error {\n\treturn nil\n}\n"
	sb.write(repo, "x.go", base)
	sb.commit(repo, "base", "x.go")

	sb.capture(repo, conv, "beforeSubmitPrompt", map[string]any{"prompt": "add Load"})
	agent := "\nfunc Load() error {\n\tif err := open(); err != nil {\n\t\treturn err\n\t}\n\treturn nil\n}\n"
	sb.cursorEdit(repo, conv, "x.go", base+agent, "", agent)
	sb.capture(repo, conv, "stop", map[string]any{"status": "completed"})

	// The person writes a function of their own above the agent's, with
	// the same closing lines, and changes nothing of the agent's.
	person := "\nfunc Save() error {\n\tif ok {\n\t\treturn nil\n\t}\n\treturn nil\n}\n"
	sb.write(repo, "x.go", base+person+agent)
	sha := sb.commit(repo, "load and save", "x.go")

	lines := sb.blameJSON(repo, "x.go")
	names := map[string]string{conv: "a"}
	// base (5), person (7), agent (7)
	want := "- - - - - - - - - - - - a a a a a a a"
	if got := owners(lines, names); got != want {
		t.Fatalf("owners\n got %s\nwant %s", got, want)
	}
	s := sb.showJSON(repo, sha)
	if len(s.Conversations) != 1 || s.Conversations[0].WrittenLines != 6 || s.Conversations[0].AddedLines != 12 ||
		s.Conversations[0].Evidence != "position" || s.Conversations[0].PositionLines != 6 {
		t.Fatalf("show: %+v", s.Conversations)
	}
	// Text and JSON blame agree line by line: the person's lines read "(by hand)".
	text := strings.Split(strings.TrimSpace(sb.convo(repo, "blame", "x.go")), "\n")
	for i, l := range lines {
		hand := strings.Contains(text[i], "(by hand)")
		if (l.Attribution == "human") != hand {
			t.Errorf("line %d: --json %s, text %q", l.Line, l.Attribution, text[i])
		}
	}
}

// An agent's line that a person changes before the commit is the
// person's; the agent's other lines stay the agent's, by position.
func TestPositionAgentEditChangedBeforeCommit(t *testing.T) {
	sb, repo := installedSandbox(t)
	const conv = "aaaaaaaa-0000-0000-0000-00000000000b"
	sb.capture(repo, conv, "beforeSubmitPrompt", map[string]any{"prompt": "write it"})
	agent := "package x\n\nfunc F(a int) int {\n\tb := a * 2\n\treturn b\n}\n"
	p := sb.write(repo, "f.go", agent)
	sb.capture(repo, conv, "postToolUse", map[string]any{"tool_name": "Write",
		"tool_input": map[string]any{"path": p, "contents": agent}})
	// The agent edits again: a replacement in the middle of the file.
	edited := strings.Replace(agent, "\treturn b\n", "\tb++\n\treturn b\n", 1)
	sb.cursorEdit(repo, conv, "f.go", edited, "\treturn b\n", "\tb++\n\treturn b\n")
	// The person changes the agent's first body line and adds one.
	final := strings.Replace(edited, "\tb := a * 2\n", "\tb := a * 3 // tuned\n", 1)
	final = strings.Replace(final, "package x\n", "package x\n\n// F doubles.\n", 1)
	sb.write(repo, "f.go", final)
	sb.commit(repo, "f", "f.go")
	lines := sb.blameJSON(repo, "f.go")
	// package, "" (the agent's, below its line), comment, "" (the
	// person's), func, b := (the person's now), b++, return, }
	want := "a a - - a - a a a"
	if got := owners(lines, map[string]string{conv: "a"}); got != want {
		t.Fatalf("owners\n got %s\nwant %s\n%s", got, want, final)
	}
}

// Two agents (Cursor and Claude Code) in one file: each line is its own
// writer's, though both wrote a `}`.
func TestPositionTwoAgentsOneFile(t *testing.T) {
	sb, repo := installedSandbox(t)
	const cursorConv, claudeSess = "cccccccc-0000-0000-0000-00000000000c", "dddddddd-0000-0000-0000-00000000000d"
	first := "package x\n\nfunc A() {\n\ta()\n}\n"
	sb.capture(repo, cursorConv, "beforeSubmitPrompt", map[string]any{"prompt": "A"})
	p := sb.cursorEdit(repo, cursorConv, "two.go", first, "", first)

	added := "\nfunc B() {\n\tb()\n}\n"
	sb.claudeCapture(repo, map[string]any{"session_id": claudeSess, "hook_event_name": "UserPromptSubmit", "prompt": "B"})
	sb.write(repo, "two.go", first+added)
	sb.claudeCapture(repo, map[string]any{"session_id": claudeSess, "hook_event_name": "PostToolUse", "tool_name": "Edit",
		"tool_input": map[string]any{"file_path": p, "old_string": "\ta()\n}\n", "new_string": "\ta()\n}\n" + added},
		"tool_response": map[string]any{"filePath": p, "structuredPatch": []any{map[string]any{
			"oldStart": 4, "oldLines": 2, "newStart": 4, "newLines": 6,
			"lines": []any{" \ta()", " }", "+", "+func B() {", "+\tb()", "+}"}}}}})
	sb.commit(repo, "a and b", "two.go")
	names := map[string]string{cursorConv: "c", claudeSess: "d"}
	if got, want := owners(sb.blameJSON(repo, "two.go"), names), "c c c c c d d d d"; got != want {
		t.Fatalf("owners\n got %s\nwant %s", got, want)
	}
}

// A blank line the agent wrote, inside its code or ending its insertion,
// is its own at the commit and stays so at HEAD after a person edits
// around it; a blank line the person adds between the agent's lines is the
// person's.
func TestPositionBlankLinesKeepTheirOwner(t *testing.T) {
	sb, repo := installedSandbox(t)
	const conv = "aaaaaaaa-0000-0000-0000-0000000000b1"
	base := "package x\n"
	sb.write(repo, "b.go", base)
	sb.commit(repo, "base", "b.go")
	sb.capture(repo, conv, "beforeSubmitPrompt", map[string]any{"prompt": "blank"})
	agent := "\nfunc A() {\n\tx := 1\n\n\tuse(x)\n}\n\n"
	sb.cursorEdit(repo, conv, "b.go", base+agent, "package x\n", base+agent)
	// The person adds a blank line between two of the agent's lines.
	mine := strings.Replace(base+agent, "\tuse(x)\n", "\n\tuse(x)\n", 1)
	sb.write(repo, "b.go", mine)
	first := sb.commit(repo, "a", "b.go")
	names := map[string]string{conv: "a"}
	// package, "", func, x:=, "", ""(person), use, }, ""
	want := "- a a a a - a a a"
	if got := owners(sb.blameJSON(repo, "b.go"), names); got != want {
		t.Fatalf("at the commit\n got %s\nwant %s", got, want)
	}
	// A person's later commit around the agent's lines changes no owner.
	sb.write(repo, "b.go", mine+"// B is next.\nfunc B() {}\n")
	sb.commit(repo, "b", "b.go")
	if got := owners(sb.blameJSON(repo, "b.go"), names); got != want+" - -" {
		t.Fatalf("at HEAD\n got %s\nwant %s - -", got, want)
	}
	if got := owners(sb.blameJSON(repo, first, "--", "b.go"), names); got != want {
		t.Fatalf("blaming the first commit\n got %s\nwant %s", got, want)
	}
	// Blank lines count nowhere: the 4 countable added lines are the agent's.
	s := sb.showJSON(repo, first)
	if len(s.Conversations) != 1 || s.Conversations[0].WrittenLines != 4 || s.Conversations[0].AddedLines != 4 {
		t.Fatalf("show: %+v", s.Conversations)
	}
}

// A commit linked only by file overlap says so in every view: blame's text
// and JSON agree (a person's lines), show and log name it.
func TestPositionOverlapOnlyIsShownAsSuch(t *testing.T) {
	sb, repo := installedSandbox(t)
	const conv = "aaaaaaaa-0000-0000-0000-0000000000e1"
	sb.agentEdit(repo, conv, "o.go", "package o\n\nfunc O() {}\n")
	sb.commit(repo, "agent's", "o.go")
	sb.write(repo, "o.go", "package o\n\nfunc O() {}\n\nfunc P() {}\n")
	sha := sb.commit(repo, "person's", "o.go")
	s := sb.showJSON(repo, sha)
	if len(s.Conversations) != 1 || s.Conversations[0].Evidence != "overlap only" || s.Conversations[0].WrittenLines != 0 {
		t.Fatalf("show: %+v", s.Conversations)
	}
	if txt := sb.convo(repo, "log", "-n", "1"); !strings.Contains(txt, "edited the same files, wrote none of these lines") {
		t.Errorf("log:\n%s", txt)
	}
	if txt := sb.convo(repo, "show", sha); !strings.Contains(txt, "wrote none of these lines") {
		t.Errorf("show:\n%s", txt)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := sb.mcpSession(ctx, repo).CallTool(ctx, &mcp.CallToolParams{Name: "get_commit_conversations", Arguments: map[string]any{"commitHash": sha}})
	if err != nil || res.IsError {
		t.Fatalf("get_commit_conversations: %v %+v", err, res)
	}
	var out mcpserver.CommitOutput
	raw, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(raw, &out)
	if len(out.Conversations) != 1 || out.Conversations[0].Evidence != "overlap only" || !strings.Contains(out.Hint, "wrote none of these lines") {
		t.Errorf("MCP: %s", raw)
	}
	lines := sb.blameJSON(repo, "o.go")
	text := strings.Split(strings.TrimSpace(sb.convo(repo, "blame", "o.go")), "\n")
	for i, l := range lines {
		if l.Commit != sha {
			continue
		}
		if l.Attribution != "human" || !strings.Contains(text[i], "(by hand)") {
			t.Errorf("line %d: --json %s, text %q", l.Line, l.Attribution, text[i])
		}
	}
}

// A commit made in the same second as a conversation's first event, but
// before it, is never that conversation's (the old rule allowed 2 s).
func TestPositionCommitBeforeConversationInSameSecond(t *testing.T) {
	sb, repo := installedSandbox(t)
	const conv = "aaaaaaaa-0000-0000-0000-0000000000f1"
	sb.write(repo, "s.go", "package s\n")
	sha := sb.commit(repo, "person's", "s.go")
	committed := strings.TrimSpace(sb.run(repo, "git", "log", "-1", "--format=%ct", sha))
	// The conversation then starts, edits s.go and stops: its stop
	// re-scores the commits around it, this one included.
	sb.capture(repo, conv, "beforeSubmitPrompt", map[string]any{"prompt": "edit s.go"})
	sb.cursorEdit(repo, conv, "s.go", "package s\n\nfunc S() {}\n", "", "\nfunc S() {}\n")
	sb.capture(repo, conv, "stop", map[string]any{"status": "completed"})
	var n int
	fmt.Sscan(committed, &n)
	if now := strings.TrimSpace(sb.run(repo, "date", "+%s")); now > fmt.Sprint(n+1) {
		t.Skipf("this run was too slow (%s, the commit %s): the old 2 s rule would not link either", now, committed)
	}
	if s := sb.showJSON(repo, sha); len(s.Conversations) != 0 {
		t.Fatalf("a commit made before the conversation began is linked to it: %+v", s.Conversations)
	}
}

// An edit spooled by the capture's fast path keeps its position: the file
// is read in the hook, and the spool carries the located lines to the
// recording, though a person changed the file meanwhile.
func TestPositionThroughTheSpool(t *testing.T) {
	sb, repo := installedSandbox(t)
	const conv = "aaaaaaaa-0000-0000-0000-0000000000a5"
	agent := "package q\n\nfunc Q() error {\n\treturn nil\n}\n"
	p := sb.write(repo, "q.go", agent)
	body, _ := json.Marshal(map[string]any{"conversation_id": conv, "generation_id": "g", "hook_event_name": "afterFileEdit",
		"workspace_roots": []string{repo}, "file_path": p, "edits": []map[string]string{{"old_string": "", "new_string": agent}}})
	if r := sb.runEnv(repo, sb.with("GIT_CONVO_SYNC="), string(body), "git", "convo", "capture"); r.code != 0 {
		t.Fatalf("capture: %d %s", r.code, r.stderr)
	}
	if pending, _ := spool.Pending(spool.Dir(sb.linksDB)); len(pending) == 0 {
		t.Fatal("the edit was not spooled")
	}
	// The person's own function, with the same last two lines, goes first.
	sb.write(repo, "q.go", "package q\n\nfunc P() error {\n\treturn nil\n}\n\nfunc Q() error {\n\treturn nil\n}\n")
	sb.commit(repo, "p and q", "q.go")
	if got, want := owners(sb.blameJSON(repo, "q.go"), map[string]string{conv: "a"}), "a a - - - - a a a"; got != want {
		t.Fatalf("owners\n got %s\nwant %s", got, want)
	}
}

// A teammate reading the shared note sees the same owner on every line as
// the clone that wrote it: a person's identical and blank lines included.
func TestPositionTeammateSeesTheSameLines(t *testing.T) {
	_, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	b := cloneAs(t, bare, "b")
	a.convo(a.dir, "share", "on")
	const conv = "aaaaaaaa-0000-0000-0000-0000000000c7"
	agent := "package t\n\nfunc A() error {\n\tx := 1\n\n\treturn use(x)\n}\n"
	a.capture(a.dir, conv, "beforeSubmitPrompt", map[string]any{"prompt": "A"})
	a.cursorEdit(a.dir, conv, "t.go", agent, "", agent)
	// The person adds a function with the same closing lines, and a blank
	// line inside the agent's.
	mine := strings.Replace(agent, "\treturn use(x)\n", "\n\treturn use(x)\n", 1) + "\nfunc B() error {\n\treturn use(2)\n}\n"
	a.write(a.dir, "t.go", mine)
	a.commit(a.dir, "a and b", "t.go")
	a.run(a.dir, "git", "push", "-q", "origin", "main")
	b.run(b.dir, "git", "pull", "-q", "--ff-only")
	names := map[string]string{conv: "a"}
	local := owners(a.blameJSON(a.dir, "t.go"), names)
	// package, "", func, x:=, "" (agent's), "" (person's), return, }, "", func B, return, }
	if want := "a a a a a - a a - - - -"; local != want {
		t.Fatalf("A's blame\n got %s\nwant %s", local, want)
	}
	if shared := owners(b.blameJSON(b.dir, "t.go"), names); shared != local {
		t.Fatalf("B's blame from the note\n got %s\nwant %s", shared, local)
	}
}

// An edit that cannot be placed (its text stands twice in the file) is
// text evidence, and says so: its line reads "text match", never
// "position", and its link weighs it half.
func TestPositionAmbiguousEditIsATextMatch(t *testing.T) {
	sb, repo := installedSandbox(t)
	const conv = "aaaaaaaa-0000-0000-0000-0000000000d8"
	base := "package d\n\nfunc A() int {\n\treturn 1\n}\n"
	sb.write(repo, "d.go", base)
	sb.commit(repo, "base", "d.go")
	sb.capture(repo, conv, "beforeSubmitPrompt", map[string]any{"prompt": "twice"})
	// The agent adds a function whose one line is also A's.
	sb.cursorEdit(repo, conv, "d.go", base+"\nfunc B() int {\n\treturn 1\n}\n", "", "\treturn 1\n")
	sha := sb.commit(repo, "b", "d.go")
	lines := sb.blameJSON(repo, "d.go")
	if got, want := owners(lines, map[string]string{conv: "a"}), "- - - - - - - a~ -"; got != want {
		t.Fatalf("owners\n got %s\nwant %s", got, want)
	}
	s := sb.showJSON(repo, sha)
	if len(s.Conversations) != 1 || s.Conversations[0].Evidence != "text match" || s.Conversations[0].PositionLines != 0 ||
		!strings.Contains(s.Conversations[0].Reason, "(1 by text match only)") || s.Conversations[0].Confidence >= 0.6+0.4/3 {
		t.Fatalf("show: %+v", s.Conversations)
	}
}

// Amending the agent's commit with a person's identical line keeps each
// line's owner: the amended commit is carried by position too.
func TestPositionAmendKeepsOwners(t *testing.T) {
	sb, repo := installedSandbox(t)
	const conv = "aaaaaaaa-0000-0000-0000-0000000000e9"
	sb.capture(repo, conv, "beforeSubmitPrompt", map[string]any{"prompt": "E"})
	agent := "package e\n\nfunc E() {\n\tif ok() {\n\t\tgo()\n\t}\n}\n"
	sb.cursorEdit(repo, conv, "e.go", agent, "", agent)
	sb.commit(repo, "e", "e.go")
	sb.write(repo, "e.go", agent+"\nfunc F() {\n\tif ok() {\n\t\tstop()\n\t}\n}\n")
	sb.run(repo, "git", "commit", "-q", "--amend", "--no-edit", "-a")
	if got, want := owners(sb.blameJSON(repo, "e.go"), map[string]string{conv: "a"}), "a a a a a a a - - - - - -"; got != want {
		t.Fatalf("owners after amend\n got %s\nwant %s", got, want)
	}
}
