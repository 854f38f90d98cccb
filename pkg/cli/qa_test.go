package cli

import (
	"encoding/json"
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
