package gitx

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

func TestMakesCommit(t *testing.T) {
	tests := []struct {
		msg  string
		want bool
	}{
		{"commit: add a", true},
		{"commit (initial): first", true},
		{"commit (amend): add a", true},
		{"commit (merge): Merge branch 'x'", true},
		{"cherry-pick: add b", true},
		{"revert: Revert \"add b\"", true},
		{"merge side: Merge made by the 'ort' strategy.", true},
		{"merge side: Fast-forward", false},
		{"pull: Fast-forward", false},
		{"pull --no-rebase: Merge made by the 'ort' strategy.", true},
		{"rebase (pick): add c", true},
		{"rebase -i (pick): add c", true},
		{"rebase (squash): add c", true},
		{"rebase (start): checkout main", false},
		{"rebase (finish): returning to refs/heads/topic", false},
		{"checkout: moving from main to topic", false},
		{"reset: moving to HEAD~1", false},
		{"am: add d", true},
		{"branch: Created from HEAD", false},
	}
	for _, tt := range tests {
		if got := makesCommit(tt.msg); got != tt.want {
			t.Errorf("makesCommit(%q) = %v, want %v", tt.msg, got, tt.want)
		}
	}
}

// NewCommits finds the commits a work tree made and the branch each was made
// on, from the reflogs alone, though HEAD moved on since.
func TestNewCommitsBranches(t *testing.T) {
	r := newTestRepo(t)
	r.write("a", "a\n")
	r.commit("base")
	r.git("checkout", "-q", "-b", "topic")
	var topic []string
	for i := range 3 {
		r.write(fmt.Sprintf("t%d", i), "t\n")
		topic = append(topic, r.commit(fmt.Sprintf("t%d", i)))
	}
	r.git("checkout", "-q", "-b", "picked", "main")
	r.at("cherry-pick", "main..topic")
	picked := strings.Fields(r.git("rev-list", "--reverse", "main..picked"))
	r.git("checkout", "-q", "main")
	r.write("m", "m\n")
	onMain := r.commit("on main")
	r.at("merge", "-q", "--no-edit", "--no-ff", "picked")
	merge := r.git("rev-parse", "HEAD")
	r.git("checkout", "-q", "-b", "ff", "topic~1")
	r.at("merge", "-q", "topic") // fast-forward: no new commit
	r.git("checkout", "-q", "topic")
	r.at("rebase", "-q", "main")
	rebased := strings.Fields(r.git("rev-list", "--reverse", "main..topic"))
	r.git("checkout", "-q", "--detach", "main")
	r.write("d", "d\n")
	detached := r.commit("detached")
	r.git("checkout", "-q", "main")

	got, err := r.open().NewCommits(100)
	if err != nil {
		t.Fatal(err)
	}
	type want struct{ hash, branch string }
	var wants []want
	add := func(branch string, hashes ...string) {
		for _, h := range hashes {
			wants = append(wants, want{h, branch})
		}
	}
	add("main", r.git("rev-parse", "main~2"))
	add("topic", topic...)
	add("picked", picked...)
	add("main", onMain, merge)
	add("topic", rebased...)
	add("", detached)
	if len(got) != len(wants) {
		for _, e := range got {
			t.Logf("%s %s %q", e.New[:8], e.Branch, e.Message)
		}
		t.Fatalf("%d commits, want %d", len(got), len(wants))
	}
	for i, w := range wants {
		if got[i].New != w.hash || got[i].Branch != w.branch {
			t.Errorf("commit %d: %s on %q, want %s on %q (%s)", i, got[i].New[:8], got[i].Branch, w.hash[:8], w.branch, got[i].Message)
		}
	}
	if last, _ := r.open().NewCommits(2); len(last) != 2 || last[1].New != detached {
		t.Errorf("NewCommits(2) = %+v", last)
	}
}

// A linked worktree reads its own HEAD reflog; the branches' are shared.
func TestNewCommitsInLinkedWorktree(t *testing.T) {
	r := newTestRepo(t)
	r.commit("base")
	wt := filepath.Join(t.TempDir(), "wt")
	r.git("worktree", "add", "-q", "-b", "side", wt)
	gitIn(t, wt, nil, "commit", "-q", "--allow-empty", "-m", "in the worktree")
	h := gitIn(t, wt, nil, "rev-parse", "HEAD")
	repo, err := Open(t.Context(), wt, false)
	if err != nil {
		t.Fatal(err)
	}
	got, err := repo.NewCommits(1)
	if err != nil || len(got) != 1 || got[0].New != h || got[0].Branch != "side" {
		t.Errorf("NewCommits = %+v, %v", got, err)
	}
}

// Merges lists what merges and pulls did to HEAD, fast-forwards included
// (which NewCommits leaves out), oldest first; commits and checkouts are not.
func TestMerges(t *testing.T) {
	r := newTestRepo(t)
	r.write("a", "a\n")
	base := r.commit("base")
	r.git("checkout", "-q", "-b", "topic")
	r.write("t", "t\n")
	tip := r.commit("t")
	r.git("checkout", "-q", "main")
	r.at("merge", "-q", "topic") // fast-forward
	r.write("m", "m\n")
	r.commit("m")
	r.git("checkout", "-q", "-b", "side", "topic")
	r.write("s", "s\n")
	r.commit("s")
	r.git("checkout", "-q", "main")
	before := r.git("rev-parse", "HEAD")
	r.at("merge", "-q", "--no-edit", "side")
	after := r.git("rev-parse", "HEAD")

	got, err := r.open().Merges(10)
	if err != nil {
		t.Fatal(err)
	}
	want := [][2]string{{base, tip}, {before, after}}
	if len(got) != len(want) {
		t.Fatalf("Merges = %+v, want %d entries", got, len(want))
	}
	for i, w := range want {
		if got[i].Old != w[0] || got[i].New != w[1] {
			t.Errorf("entry %d: %s..%s, want %s..%s (%s)", i, got[i].Old[:8], got[i].New[:8], w[0][:8], w[1][:8], got[i].Message)
		}
	}
	if last, _ := r.open().Merges(1); len(last) != 1 || last[0].New != after {
		t.Errorf("Merges(1) = %+v", last)
	}
}
