package cli

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// A --no-ff merge adds no lines of its own: stats counts the branch's lines
// once, as git log --numstat does, the merger gets no credit, and the merge
// links to nothing by itself.
func TestMergeAddsNoLines(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.convo(repo, "install", "--cursor=none")
	const conv = "aaaaaaaa-0000-0000-0000-0000000000aa"
	sb.run(repo, "git", "switch", "-q", "-c", "feature")
	sb.agentEdit(repo, conv, "greet.txt", "hello\nworld\nfrom\nthe agent\n")
	sb.commit(repo, "greet", "greet.txt")
	sb.run(repo, "git", "switch", "-q", "main")
	sb.write(repo, "notes.txt", "by hand\n")
	sb.commit(repo, "notes", "notes.txt")
	sb.run(repo, "git", "-c", "user.name=Mer Ger", "-c", "user.email=m@example.com", "merge", "-q", "--no-ff", "-m", "merge feature", "feature")
	sb.convo(repo, "record", "HEAD")

	var st statsJSON
	if err := json.Unmarshal([]byte(sb.convo(repo, "stats", "--json", "-3")), &st); err != nil {
		t.Fatal(err)
	}
	if st.Added != 5 || st.Agent != 4 {
		t.Errorf("stats -3: %d of %d lines by agents, want 4 of 5", st.Agent, st.Added)
	}
	for _, a := range st.ByAuthor {
		if strings.Contains(a.Name, "Mer Ger") {
			t.Errorf("the merger is credited with lines: %+v", a)
		}
	}
	merge := sb.showJSON(repo, "HEAD")
	if !merge.Commit.Recorded {
		t.Fatal("the merge is not recorded")
	}
	if len(merge.Conversations) != 0 {
		t.Errorf("the merge links to %v; its lines are the branch commit's", convIDs(merge))
	}
	if feat := sb.showJSON(repo, "feature"); !has(convIDs(feat), conv) {
		t.Errorf("the branch commit lost its conversation: %v", convIDs(feat))
	}
}

// log --json prints show-shaped objects: a recorded commit says so, with
// its branch, as show --json does.
func TestLogJSONIsShowShaped(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.convo(repo, "install", "--cursor=none")
	sb.agentEdit(repo, "aaaaaaaa-0000-0000-0000-0000000000ab", "a.txt", "one\ntwo\n")
	sb.commit(repo, "a", "a.txt")
	show := sb.showJSON(repo, "HEAD")
	var log showJSON
	if err := json.Unmarshal([]byte(strings.Split(sb.convo(repo, "log", "--json", "-1"), "\n")[0]), &log); err != nil {
		t.Fatal(err)
	}
	if !show.Commit.Recorded || show.Commit.Branch != "main" {
		t.Fatalf("show --json: %+v", show.Commit)
	}
	if log.Commit.Recorded != show.Commit.Recorded || log.Commit.Branch != show.Commit.Branch ||
		strings.Join(log.Commit.Files, ",") != strings.Join(show.Commit.Files, ",") {
		t.Errorf("log --json commit %+v, show --json %+v", log.Commit, show.Commit)
	}
	// With --name-only the paths are git log's, here only those under the pathspec.
	sb.agentEdit(repo, "aaaaaaaa-0000-0000-0000-0000000000ab", "b.txt", "three\n")
	sb.write(repo, "c.txt", "four\n")
	sb.commit(repo, "b and c", "b.txt", "c.txt")
	if err := json.Unmarshal([]byte(strings.Split(sb.convo(repo, "log", "--json", "--name-only", "-1", "--", "c.txt"), "\n")[0]), &log); err != nil {
		t.Fatal(err)
	}
	if !log.Commit.Recorded || strings.Join(log.Commit.Files, ",") != "c.txt" {
		t.Errorf("log --json --name-only -- c.txt: %+v", log.Commit)
	}
}

// A revision named h or help is a revision; "git convo help" is git's help.
func TestRevisionNamedHelp(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.write(repo, "f.txt", "x\n")
	first := sb.commit(repo, "f", "f.txt")
	sb.write(repo, "f.txt", "x\ny\n")
	sb.commit(repo, "g", "f.txt")
	for _, name := range []string{"h", "help"} {
		sb.run(repo, "git", "branch", name, first)
		if out := sb.convo(repo, "show", name); !strings.HasPrefix(out, "commit "+first) {
			t.Errorf("show %s:\n%s", name, out)
		}
		if out := sb.convo(repo, "log", "--oneline", name); strings.Count(strings.TrimSpace(out), "\n") != 1 {
			t.Errorf("log %s:\n%s", name, out)
		}
		if out := sb.convo(repo, "stats", name); !strings.Contains(out, "of 2 commits") {
			t.Errorf("stats %s:\n%s", name, out)
		}
		if out := sb.convo(repo, "blame", name, "--", "f.txt"); strings.Count(out, "\n") != 1 {
			t.Errorf("blame %s -- f.txt:\n%s", name, out)
		}
	}
	if out := sb.convo(repo, "help"); !strings.Contains(out, "git convo <command>") {
		t.Errorf("git convo help:\n%s", out)
	}
	if out := sb.convo(repo, "help", "show"); !strings.Contains(out, "git convo show") {
		t.Errorf("git convo help show:\n%s", out)
	}
	for _, cmd := range []string{"stats", "show", "conversations", "install"} {
		if out := sb.convo(repo, cmd, "--help"); strings.Contains(out, "COMMANDS:") {
			t.Errorf("%s --help lists a help subcommand:\n%s", cmd, out)
		}
	}
}

// jsonIDs reads the "id" of each JSON Lines object.
func jsonIDs(t *testing.T, out string) []string {
	t.Helper()
	var ids []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l == "" {
			continue
		}
		var o struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal([]byte(l), &o); err != nil {
			t.Fatalf("not JSON: %q (%v)", l, err)
		}
		ids = append(ids, o.ID)
	}
	return ids
}

// conversations, search, conversation and import take their options as git
// does: approxidate dates, -n1, options after the words, "--" ends them.
func TestConversationOptionForms(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.convo(repo, "install", "--cursor=none")
	const old, recent = "aaaaaaaa-0000-0000-0000-0000000000a1", fixtureConv
	const now = "2026-11-20T12:00:00Z"
	base := sb.env
	sb.env = sb.with("GIT_CONVO_NOW=2026-10-01T12:00:00Z")
	sb.agentEdit(repo, old, "rotation.txt", "rotate keys\n")
	sb.env = sb.with("GIT_CONVO_NOW=2026-11-20T11:00:00Z")
	sb.agentEdit(repo, recent, "rotation2.txt", "rotate logs\n")
	sb.env = base
	at := sb.with("GIT_CONVO_NOW=" + now)
	run := func(args ...string) string {
		t.Helper()
		r := sb.runEnv(repo, at, "", append([]string{"git", "convo"}, args...)...)
		if r.code != 0 {
			t.Fatalf("git convo %s exited %d: %s", strings.Join(args, " "), r.code, r.stderr)
		}
		return r.stdout
	}
	for _, since := range []string{"--since=2.weeks", "--since=yesterday", "--since=2 weeks ago", "--since=3d"} {
		if got := jsonIDs(t, run("conversations", "--json", since)); strings.Join(got, ",") != recent {
			t.Errorf("conversations %s: %v, want only %s", since, got, recent)
		}
		if got := jsonIDs(t, run("search", "rotation", since, "--json")); strings.Join(got, ",") != recent {
			t.Errorf("search rotation %s --json: %v, want only %s", since, got, recent)
		}
	}
	if got := jsonIDs(t, run("conversations", "--json", "--since=2.months")); len(got) != 2 {
		t.Errorf("conversations --since=2.months: %v, want both", got)
	}
	if r := sb.runEnv(repo, at, "", "git", "convo", "conversations", "--since=not a date"); r.code != 2 || !strings.Contains(r.stderr, "not a date") {
		t.Errorf("--since=not a date: exit %d, %q", r.code, r.stderr)
	}
	for _, n := range [][]string{{"-n1"}, {"-n", "1"}, {"--max-count=1"}} {
		if got := jsonIDs(t, run(append([]string{"conversations", "--json"}, n...)...)); len(got) != 1 {
			t.Errorf("conversations %v: %v, want one", n, got)
		}
	}
	if got := jsonIDs(t, run("search", "rotation", "--json")); len(got) != 2 {
		t.Errorf("search rotation --json: %v", got)
	}
	if out := run("search", "--", "--json"); strings.TrimSpace(out) != "" {
		t.Errorf("search -- --json looks for the word --json, found:\n%s", out)
	}
	var one struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal([]byte(run("conversation", recent, "--json")), &one); err != nil || one.ID != recent {
		t.Errorf("conversation <id> --json: %+v %v", one, err)
	}
	if out := run("import", "--dry-run", "--since=2.weeks"); !strings.Contains(out, "dry run") {
		t.Errorf("import --dry-run --since=2.weeks:\n%s", out)
	}
}

// A commit rewritten by amend or rebase is one commit, not two, in a
// conversation's count and its list.
func TestRewrittenCommitsCountOnce(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.convo(repo, "install", "--cursor=none")
	const conv = "aaaaaaaa-0000-0000-0000-0000000000c1"
	sb.agentEdit(repo, conv, "a.txt", "one\ntwo\n")
	sb.commit(repo, "a", "a.txt")
	sb.run(repo, "git", "commit", "-q", "--amend", "-m", "a, amended")
	sb.run(repo, "git", "switch", "-q", "-c", "topic")
	sb.agentEdit(repo, conv, "b.txt", "three\n")
	sb.commit(repo, "b", "b.txt")
	sb.run(repo, "git", "switch", "-q", "main")
	sb.write(repo, "c.txt", "by hand\n")
	sb.commit(repo, "c", "c.txt")
	sb.run(repo, "git", "rebase", "-q", "main", "topic")

	var row struct {
		ID      string `json:"id"`
		Commits int    `json:"commits"`
	}
	for _, l := range strings.Split(strings.TrimSpace(sb.convo(repo, "conversations", "--json")), "\n") {
		if err := json.Unmarshal([]byte(l), &row); err != nil {
			t.Fatal(err)
		}
		if row.ID == conv {
			break
		}
	}
	if row.ID != conv || row.Commits != 2 {
		t.Errorf("conversation %s counts %d commits, want 2 (a amended, b rebased)", row.ID, row.Commits)
	}
	var found struct {
		Commits int `json:"commits"`
	}
	if err := json.Unmarshal([]byte(strings.Split(sb.convo(repo, "search", "--json", "please"), "\n")[0]), &found); err != nil || found.Commits != 2 {
		t.Errorf("search counts %d commits (%v), want 2", found.Commits, err)
	}
}

// A blank line inside an agent's edit is the agent's; one a person added
// beside the edit stays the person's.
func TestBlankLinesInsideAnEdit(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.convo(repo, "install", "--cursor=none")
	const conv = "aaaaaaaa-0000-0000-0000-0000000000d1"
	agent := "func a() {\n\treturn 1\n}\n\n\nfunc b() {\n\treturn 2\n}\n"
	sb.agentEdit(repo, conv, "x.go", agent)
	sb.write(repo, "x.go", agent+"\n// by hand\n\n")
	sb.commit(repo, "x", "x.go")
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(sb.convo(repo, "blame", "--json", "x.go")), "\n") {
		var bl blameLineJSON
		if err := json.Unmarshal([]byte(l), &bl); err != nil {
			t.Fatal(err)
		}
		got = append(got, bl.Attribution)
	}
	want := "agent agent agent agent agent agent agent agent human human human"
	if strings.Join(got, " ") != want {
		t.Errorf("attributions\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	out := sb.convo(repo, "blame", "x.go")
	if n := strings.Count(out, "(by hand)"); n != 3 {
		t.Errorf("%d lines by hand, want 3:\n%s", n, out)
	}
}

// import --dry-run creates nothing and says what it would import.
func TestImportDryRunCreatesNothing(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	out := sb.convo(repo, "import", "--dry-run")
	if _, err := os.Stat(sb.linksDB); err == nil {
		t.Errorf("import --dry-run created %s", sb.linksDB)
	}
	if !strings.Contains(out, "would import: ") || strings.Contains(out, "imported now") {
		t.Errorf("import --dry-run says:\n%s", out)
	}
	sb.convo(repo, "import")
	if _, err := os.Stat(sb.linksDB); err != nil {
		t.Errorf("import wrote no database: %v", err)
	}
	if out := sb.convo(repo, "import", "--dry-run"); !strings.Contains(out, "would import: ") {
		t.Errorf("import --dry-run over a database:\n%s", out)
	}
}
