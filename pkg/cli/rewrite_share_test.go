package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/app/prsummary"
	"github.com/git-convo/git-convo/pkg/share/notes"
)

// TestShareRebasedCommitKeepsTeammatesRecord: A shares its agent's commit;
// B (sharing, so git convo fetch puts A's note on refs/notes/convo, which
// notes.rewriteRef copies) rebases it onto main, then amends it; D, not
// sharing, rebases it too (git copies nothing: A's note is on a tracking
// ref only). show, blame and pr give A's conversation on the new commits,
// copied by rewrite, at a lower confidence, shared by A, with only the
// lines the rewrites left unchanged. A copy of A's note onto an unrelated
// commit is still refused.
func TestShareRebasedCommitKeepsTeammatesRecord(t *testing.T) {
	_, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	a.convo(a.dir, "share", "on")
	a.run(a.dir, "git", "checkout", "-q", "-b", "feature")
	const conv = "21111111-2222-4333-8444-555555555555"
	body := "package limiter\n\nfunc Allow(client string) bool {\n\treturn bucket(client).take()\n}\n"
	a.conversation(t, conv, "Add rate limiting to the API", "A token bucket per client.", "add rate limiting", "limiter.go", body)
	x := a.commit(a.dir, "api: rate-limit clients", "limiter.go")
	a.run(a.dir, "git", "push", "-q", "origin", "feature")
	a.convo(a.dir, "push")
	sharer := strings.TrimSpace(a.run(a.dir, "git", "config", notes.KeyWriter))

	// main moves on, by a person.
	m := cloneAs(t, bare, "m")
	m.write(m.dir, "README", "limits\n")
	person := m.commit(m.dir, "readme", "README")
	m.run(m.dir, "git", "push", "-q", "--no-verify", "origin", "main")

	b := cloneAs(t, bare, "b")
	b.convo(b.dir, "share", "on")
	b.convo(b.dir, "fetch")
	if n := b.noteText(notes.Ref, x); !strings.Contains(n, conv) {
		t.Fatalf("B's refs/notes/convo lacks A's note:\n%s", n)
	}
	// A's commit itself, read from A's note, counts as A counts it: the
	// blank line in no share.
	for _, tm := range []teammate{a, b} {
		var st statsJSON
		if err := json.Unmarshal([]byte(tm.convo(tm.dir, "stats", "--json", x+"~1.."+x)), &st); err != nil {
			t.Fatal(err)
		}
		if st.Examined != 1 || st.Added != 4 || st.Agent != 4 {
			t.Errorf("%s: stats of A's commit: %d of %d lines an agent's in %d examined commits, want 4 of 4 in 1", tm.dir, st.Agent, st.Added, st.Examined)
		}
	}
	b.run(b.dir, "git", "checkout", "-q", "-b", "feature", "origin/feature")
	b.run(b.dir, "git", "rebase", "-q", "origin/main")
	y := strings.TrimSpace(b.run(b.dir, "git", "rev-parse", "HEAD"))
	if n := b.noteText(notes.Ref, y); !strings.Contains(n, `"revision":"`+x+`"`) {
		t.Fatalf("notes.rewriteRef did not copy A's note to the rebased commit:\n%s", n)
	}
	checkCopied(t, b, y, x, conv, sharer, []int{1, 2, 3, 4, 5})

	// pr gives the conversation, with its evidence.
	var s prsummary.Summary
	if err := json.Unmarshal([]byte(b.convo(b.dir, "pr", "origin/main", "--json")), &s); err != nil {
		t.Fatal(err)
	}
	if len(s.Conversations) != 1 || s.Conversations[0].ID != conv || s.Conversations[0].Evidence != "copied by rewrite" ||
		s.Conversations[0].Origin != "notes" || s.Conversations[0].Lines != 4 {
		t.Errorf("pr of the rebased branch: %+v", s.Conversations)
	}

	// B amends, rewriting the agent's one line of code: it is no longer
	// the conversation's, the others still are.
	b.write(b.dir, "limiter.go", strings.Replace(body, "take()", "takeOne()", 1))
	b.run(b.dir, "git", "commit", "-q", "--amend", "--no-edit", "limiter.go")
	w := strings.TrimSpace(b.run(b.dir, "git", "rev-parse", "HEAD"))
	checkCopied(t, b, w, x, conv, sharer, []int{1, 2, 3, 5})

	// D does not share: A's note is on its tracking ref only, so git copies
	// nothing; the rewrite still brings A's record.
	d := cloneAs(t, bare, "d")
	d.run(d.dir, "git", "fetch", "-q", "origin")
	d.run(d.dir, "git", "checkout", "-q", "-b", "feature", "origin/feature")
	d.run(d.dir, "git", "rebase", "-q", "origin/main")
	dy := strings.TrimSpace(d.run(d.dir, "git", "rev-parse", "HEAD"))
	checkCopied(t, d, dy, x, conv, sharer, []int{1, 2, 3, 4, 5})
	// conversations and conversation list the rebased commit too, though
	// no note sits on it.
	var list struct {
		ID      string `json:"id"`
		Commits int    `json:"commits"`
	}
	if err := json.Unmarshal([]byte(d.convo(d.dir, "conversations", "--json", "--all")), &list); err != nil || list.ID != conv || list.Commits != 2 {
		t.Errorf("conversations in D: %+v (%v), want %s with its 2 commits", list, err, conv)
	}
	var cj struct {
		Commits []struct{ Hash, Reason string }
	}
	if err := json.Unmarshal([]byte(d.convo(d.dir, "conversation", "--json", conv)), &cj); err != nil {
		t.Fatal(err)
	}
	var copiedTo []string
	for _, c := range cj.Commits {
		if strings.Contains(c.Reason, "copied by rewrite from "+x[:12]) {
			copiedTo = append(copiedTo, c.Hash)
		}
	}
	if len(cj.Commits) != 2 || !slices.Equal(copiedTo, []string{dy}) {
		t.Errorf("conversation in D lists %+v, want %s and its rebased %s (copied by rewrite)", cj.Commits, x[:7], dy[:7])
	}
	if out := d.convo(d.dir, "conversation", conv); !strings.Contains(out, dy[:12]) {
		t.Errorf("conversation in D does not list the rebased commit %s:\n%s", dy[:12], out)
	}

	// M's commit, with no record anywhere, rebased by B: B recorded the new
	// commit only to find none of its agents wrote it, which says nothing
	// of M's lines. pr and stats leave it out, not examined.
	m.run(m.dir, "git", "checkout", "-q", "-b", "plain", "HEAD~1")
	m.write(m.dir, "plain.txt", "one\ntwo\n")
	m.commit(m.dir, "plain", "plain.txt")
	m.run(m.dir, "git", "push", "-q", "--no-verify", "origin", "plain")
	b.run(b.dir, "git", "fetch", "-q", "origin")
	b.run(b.dir, "git", "checkout", "-q", "-b", "plain", "origin/plain")
	b.run(b.dir, "git", "rebase", "-q", "origin/main")
	var pst statsJSON
	if err := json.Unmarshal([]byte(b.convo(b.dir, "stats", "--json", "HEAD~1..HEAD")), &pst); err != nil {
		t.Fatal(err)
	}
	var ps prsummary.Summary
	if err := json.Unmarshal([]byte(b.convo(b.dir, "pr", "HEAD~1..HEAD", "--json")), &ps); err != nil {
		t.Fatal(err)
	}
	if pst.Examined != 0 || pst.Added != 0 || ps.Commits.Covered != 0 || ps.Headline.NoRecord != 2 {
		t.Errorf("a teammate's commit with no record, rebased here: stats %+v, pr %+v %+v", pst, ps.Commits, ps.Headline.Lines)
	}

	// A copy of A's note onto an unrelated commit (the person's) is not read.
	b.run(b.dir, "git", "notes", "--ref="+notes.Ref, "copy", "-f", x, person)
	if cs := b.showJSON(b.dir, person).Conversations; len(cs) != 0 {
		t.Errorf("a note copied onto an unrelated commit was read: %+v", cs)
	}
	for _, l := range b.blameJSON(b.dir, "README") {
		if l.WrittenBy != nil {
			t.Errorf("blame gives the person's README to %s", *l.WrittenBy)
		}
	}

	// B's own commit, by hand, with a hostile record about it claiming its
	// lines; B amends it. The local verdict (a person's lines) stands on the
	// new commit too: a rewrite opens no line of a commit B recorded itself.
	b.run(b.dir, "git", "checkout", "-q", "-b", "own", "origin/main")
	b.write(b.dir, "mine.go", "package mine\n\nfunc Mine() int {\n\treturn 42\n}\n")
	own := b.commit(b.dir, "mine, by hand", "mine.go")
	forged := `{"version":"0.1.0","id":"00000000-0000-8000-8000-000000000002","timestamp":"2020-01-01T00:00:00Z",` +
		`"vcs":{"type":"git","revision":"` + own + `"},"files":[{"path":"mine.go","conversations":[{"url":"git-convo:conversation/conv-evil",` +
		`"contributor":{"type":"ai"},"ranges":[{"start_line":1,"end_line":5}]}]}],"metadata":{"dev.git-convo":{"format":1,"writer":"clone-evil",` +
		`"conversations":{"conv-evil":{"confidence":1,"status":"auto","written_lines":4,"position_lines":4}}}}}`
	b.run(b.dir, "git", "notes", "--ref="+notes.Ref, "add", "-f", "-m", forged, own)
	b.run(b.dir, "git", "commit", "-q", "--amend", "-m", "mine, by hand, reworded")
	for _, l := range b.blameJSON(b.dir, "mine.go") {
		if l.WrittenBy != nil {
			t.Errorf("blame of B's own amended commit gives line %d to %s", l.Line, *l.WrittenBy)
		}
	}
	var st statsJSON
	if err := json.Unmarshal([]byte(b.convo(b.dir, "stats", "--json", "HEAD~1..HEAD")), &st); err != nil {
		t.Fatal(err)
	}
	if st.Examined != 1 || st.Added != 4 || st.Agent != 0 {
		t.Errorf("stats of B's own amended commit: %+v", st)
	}

	// The rewrite map is the clone's own state: uninstall takes it out.
	rewrites := filepath.Join(b.dir, ".git", "git-convo-rewrites")
	if _, err := os.Stat(rewrites); err != nil {
		t.Fatalf("no rewrite map after B's rewrites: %v", err)
	}
	b.convo(b.dir, "uninstall")
	if _, err := os.Stat(rewrites); !os.IsNotExist(err) {
		t.Errorf("uninstall left %s (%v)", rewrites, err)
	}
}

// checkCopied checks that tm's show and blame give commit, rewritten here
// from old, A's conversation conv as a copy (shared by sharer), and blame
// exactly lines of limiter.go to it.
func checkCopied(t *testing.T, tm teammate, commit, old, conv, sharer string, lines []int) {
	t.Helper()
	cs := tm.showJSON(tm.dir, commit).Conversations
	if len(cs) != 1 || cs[0].ID != conv || cs[0].Origin != "notes" || cs[0].SharedBy != sharer ||
		cs[0].Evidence != "copied by rewrite" || cs[0].Confidence != notes.RewriteFactor ||
		!strings.Contains(cs[0].Reason, "copied by rewrite from "+old[:12]) {
		t.Fatalf("%s: show of the rewritten commit %s: %+v", tm.dir, commit[:7], cs)
	}
	if out := tm.convo(tm.dir, "show", commit); !strings.Contains(out, "shared by "+sharer) || !strings.Contains(out, "copied by rewrite") {
		t.Errorf("%s: show does not say whose record it is and how it came:\n%s", tm.dir, out)
	}
	if out := tm.convo(tm.dir, "log", "-n", "1", "--color=never", commit); !strings.Contains(out, "shared by "+sharer) ||
		!strings.Contains(out, "copied by rewrite") {
		t.Errorf("%s: log of the rewritten commit:\n%s", tm.dir, out)
	}
	var got []int
	for _, l := range tm.blameJSON(tm.dir, "limiter.go") {
		if l.WrittenBy == nil {
			continue
		}
		if *l.WrittenBy != conv || l.Commit != commit || l.Evidence == nil || *l.Evidence != "copied by rewrite" {
			t.Errorf("%s: blame line %d: %s by %s (evidence %v)", tm.dir, l.Line, l.Commit, *l.WrittenBy, l.Evidence)
		}
		got = append(got, l.Line)
	}
	if !slices.Equal(got, lines) {
		t.Errorf("%s: blame gives lines %v to the conversation, want %v", tm.dir, got, lines)
	}
	// stats and pr count the commit's lines as blame gives them: its
	// non-blank lines (line 2 is blank) the copy keeps are the agent's.
	agent := 0
	for _, n := range lines {
		if n != 2 {
			agent++
		}
	}
	rg := commit + "~1.." + commit
	var st statsJSON
	if err := json.Unmarshal([]byte(tm.convo(tm.dir, "stats", "--json", rg)), &st); err != nil {
		t.Fatal(err)
	}
	if st.Examined != 1 || st.Added != 4 || st.Agent != agent {
		t.Errorf("%s: stats of the rewritten commit: %d of %d lines an agent's in %d examined commits, want %d of 4 in 1",
			tm.dir, st.Agent, st.Added, st.Examined, agent)
	}
	if out, want := tm.convo(tm.dir, "stats", rg), fmt.Sprintf("%d of 4 added lines written by agents", agent); !strings.Contains(out, want) {
		t.Errorf("%s: stats of the rewritten commit does not say %q:\n%s", tm.dir, want, out)
	}
	var s prsummary.Summary
	if err := json.Unmarshal([]byte(tm.convo(tm.dir, "pr", rg, "--json")), &s); err != nil {
		t.Fatal(err)
	}
	if s.Headline.Agent != agent || s.Headline.Added != 4 || s.Commits.Covered != 1 {
		t.Errorf("%s: pr of the rewritten commit: %+v, commits %+v; want %d of 4 lines", tm.dir, s.Headline.Lines, s.Commits, agent)
	}
}
