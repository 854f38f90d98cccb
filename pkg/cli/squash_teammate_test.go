package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/app/prsummary"
)

// squashedByTeammate pushes a's branch feature with its notes; B, who
// shares, fetches it and squashes every commit after base into the first
// (rebase -i, the others "fixup"), as a person tidying a teammate's branch
// does. It returns B and the new commit.
func squashedByTeammate(t *testing.T, a teammate, bare, base string) (teammate, string) {
	t.Helper()
	a.run(a.dir, "git", "push", "-q", "origin", "feature")
	a.convo(a.dir, "push")
	b := cloneAs(t, bare, "b")
	b.convo(b.dir, "share", "on")
	b.convo(b.dir, "fetch")
	b.run(b.dir, "git", "checkout", "-q", "-b", "feature", "origin/feature")
	env := append(append([]string{}, b.env...), "GIT_SEQUENCE_EDITOR=sed -i -e '2,$s/^pick/fixup/'", "GIT_EDITOR=true")
	if r := b.runEnv(b.dir, env, "", "git", "rebase", "-q", "-i", base); r.code != 0 {
		t.Fatalf("rebase -i: %s %s", r.stdout, r.stderr)
	}
	return b, strings.TrimSpace(b.run(b.dir, "git", "rev-parse", "HEAD"))
}

// sharerOnFeature is A, sharing, on a new branch feature of a team's
// remote (bare), and the commit feature starts at.
func sharerOnFeature(t *testing.T) (a teammate, bare, base string) {
	t.Helper()
	_, bare = newTeam(t)
	a = cloneAs(t, bare, "a")
	a.convo(a.dir, "share", "on")
	a.run(a.dir, "git", "checkout", "-q", "-b", "feature")
	return a, bare, strings.TrimSpace(a.run(a.dir, "git", "rev-parse", "HEAD"))
}

// whoWrote is blame's answer for each line of file: "x" or "y" for those
// conversations, else the attribution (human, unknown).
func whoWrote(tm teammate, file, x, y string) string {
	var got []string
	for _, l := range tm.blameJSON(tm.dir, file) {
		who := l.Attribution
		if l.WrittenBy != nil {
			who = map[string]string{x: "x", y: "y"}[*l.WrittenBy]
		}
		got = append(got, who)
	}
	return strings.Join(got, " ")
}

// TestSquashOfTeammatesCommits: B squashes a teammate's commits into one.
// Each squashed commit's record is read for the new one (the rewrite map
// keeps every commit a squash was made of), moved where the squash put its
// lines, each conversation's entries kept apart by type: X's lines stay
// X's, the lines a person changed over them stay a person's. Where one of
// the squashed commits has no record, its lines are not known: no line of
// the squash is given to a person, and X's stay X's.
func TestSquashOfTeammatesCommits(t *testing.T) {
	const x = "71111111-2222-4333-8444-555555555555"
	body := "package limiter\n\nfunc Allow(client string) bool {\n\tb := bucket(client)\n\treturn b.take()\n}\n"
	t.Run("both recorded", func(t *testing.T) {
		a, bare, base := sharerOnFeature(t)
		a.conversation(t, x, "Add rate limiting", "A token bucket.", "add rate limiting", "limiter.go", body)
		a.commit(a.dir, "limiter", "limiter.go")
		// A person heads the file and changes X's return line.
		a.write(a.dir, "limiter.go", "// Package limiter.\n"+strings.Replace(body, "b.take()", "b.take() && ok(client)", 1))
		a.commit(a.dir, "limiter: check the client", "limiter.go")
		b, s := squashedByTeammate(t, a, bare, base)
		// Line 3 is blank: X's, inside its run.
		if got, want := whoWrote(b, "limiter.go", x, ""), "human x x x x human x"; got != want {
			t.Errorf("blame of the squash: %s, want %s", got, want)
		}
		var st statsJSON
		if err := json.Unmarshal([]byte(b.convo(b.dir, "stats", "--json", base+".."+s)), &st); err != nil {
			t.Fatal(err)
		}
		if st.Examined != 1 || st.Added != 6 || st.Agent != 4 {
			t.Errorf("stats of the squash: %d of %d lines an agent's in %d examined, want 4 of 6 in 1", st.Agent, st.Added, st.Examined)
		}
		var ps prsummary.Summary
		if err := json.Unmarshal([]byte(b.convo(b.dir, "pr", base+".."+s, "--json")), &ps); err != nil {
			t.Fatal(err)
		}
		if len(ps.Conversations) != 1 || ps.Conversations[0].ID != x || ps.Conversations[0].Lines != 4 || ps.Conversations[0].Evidence != "copied by rewrite" {
			t.Errorf("pr of the squash: %+v", ps.Conversations)
		}
	})
	t.Run("one without a record", func(t *testing.T) {
		_, bare := newTeam(t)
		// M, who does not share, starts the branch by hand.
		m := cloneAs(t, bare, "m")
		m.run(m.dir, "git", "checkout", "-q", "-b", "feature")
		base := strings.TrimSpace(m.run(m.dir, "git", "rev-parse", "HEAD"))
		m.write(m.dir, "notes.txt", "one\ntwo\n")
		m.commit(m.dir, "notes", "notes.txt")
		m.run(m.dir, "git", "push", "-q", "--no-verify", "origin", "feature")
		a := cloneAs(t, bare, "a")
		a.convo(a.dir, "share", "on")
		a.run(a.dir, "git", "checkout", "-q", "-b", "feature", "origin/feature")
		a.conversation(t, x, "Add rate limiting", "A token bucket.", "add rate limiting", "limiter.go", body)
		a.commit(a.dir, "limiter", "limiter.go")
		b, s := squashedByTeammate(t, a, bare, base)
		// M's lines are not known; X's stay X's.
		for f, want := range map[string]string{"notes.txt": "unknown unknown", "limiter.go": "x x x x x x"} {
			if got := whoWrote(b, f, x, ""); got != want {
				t.Errorf("blame of the squash's %s: %s, want %s", f, got, want)
			}
		}
		if out := b.convo(b.dir, "show", s); !strings.Contains(out, "Add rate limiting") {
			t.Errorf("show of the squash does not name X's conversation:\n%s", out)
		}
		var st statsJSON
		if err := json.Unmarshal([]byte(b.convo(b.dir, "stats", "--json", base+".."+s)), &st); err != nil {
			t.Fatal(err)
		}
		if st.Examined != 0 {
			t.Errorf("stats count the squash as examined: %+v", st)
		}
	})
	t.Run("own and a teammate's, read by a third", func(t *testing.T) {
		// B squashes its own agent's commit (Y) and a file typed by hand
		// into A's (X): B's note of the squash must not call X's lines a
		// person's (B's database never saw them written), nor C's read.
		const y = "72222222-2222-4333-8444-555555555555"
		a, bare, base := sharerOnFeature(t)
		a.conversation(t, x, "Add rate limiting", "A token bucket.", "add rate limiting", "limiter.go", body)
		a.commit(a.dir, "limiter", "limiter.go")
		b, _ := squashedByTeammate(t, a, bare, base) // nothing to squash yet: B checks out A's branch
		b.conversation(t, y, "Other", "Other.", "other", "other.go", "package other\n\nfunc O() int {\n\treturn 1\n}\n")
		b.write(b.dir, "notes.txt", "by hand\nmore\n")
		b.commit(b.dir, "other", "other.go", "notes.txt")
		env := append(append([]string{}, b.env...), "GIT_SEQUENCE_EDITOR=sed -i -e '2,$s/^pick/fixup/'", "GIT_EDITOR=true")
		if r := b.runEnv(b.dir, env, "", "git", "rebase", "-q", "-i", base); r.code != 0 {
			t.Fatalf("rebase -i: %s %s", r.stdout, r.stderr)
		}
		b.run(b.dir, "git", "push", "-q", "-f", "origin", "feature")
		b.convo(b.dir, "push")
		for _, tm := range []teammate{b, cloneAs(t, bare, "c")} {
			if tm.dir != b.dir {
				tm.convo(tm.dir, "fetch")
				tm.run(tm.dir, "git", "checkout", "-q", "-b", "feature", "origin/feature")
			}
			if got := whoWrote(tm, "limiter.go", x, y); strings.Contains(got, "human") || strings.Contains(got, "y") {
				t.Errorf("%s: X's limiter.go read as %s", filepath.Base(tm.dir), got)
			}
			if got := whoWrote(tm, "other.go", x, y); got != "y y y y y" {
				t.Errorf("%s: Y's other.go read as %s", filepath.Base(tm.dir), got)
			}
		}
	})
	t.Run("a rename", func(t *testing.T) {
		// X writes limiter.go; a person renames it; the squash adds rate.go
		// (git blame in A follows the rename to X's lines).
		a, bare, base := sharerOnFeature(t)
		a.conversation(t, x, "Add rate limiting", "A token bucket.", "add rate limiting", "limiter.go", body)
		a.commit(a.dir, "limiter", "limiter.go")
		a.run(a.dir, "git", "mv", "limiter.go", "rate.go")
		a.commit(a.dir, "rename", "rate.go")
		b, _ := squashedByTeammate(t, a, bare, base)
		if got := whoWrote(b, "rate.go", x, ""); strings.Contains(got, "human") {
			t.Errorf("X's lines, renamed, read as %s", got)
		}
	})
	t.Run("eighteen commits", func(t *testing.T) {
		// A fixup of 18 recorded commits: git pairs each with the squash
		// and writes the amends on the way; every record is read. (A
		// person's commit alone has no record: its lines would not be
		// known.)
		a, bare, base := sharerOnFeature(t)
		for i := range 18 {
			p := fmt.Sprintf("f%02d.go", i)
			a.conversation(t, x, "Add rate limiting", "A token bucket.", "file "+p, p, fmt.Sprintf("package f\n\nvar V%d = %d\n", i, i))
			if i < 17 {
				a.commit(a.dir, p, p)
			}
		}
		a.write(a.dir, "notes.txt", "by hand\n") // typed beside X's last file
		a.commit(a.dir, "last", "f17.go", "notes.txt")
		b, s := squashedByTeammate(t, a, bare, base)
		if got := whoWrote(b, "notes.txt", x, "") + " / " + whoWrote(b, "f00.go", x, ""); got != "human / x x x" {
			t.Errorf("the squash of 18: %s, want human / x x x", got)
		}
		var st statsJSON
		if err := json.Unmarshal([]byte(b.convo(b.dir, "stats", "--json", base+".."+s)), &st); err != nil {
			t.Fatal(err)
		}
		if st.Examined != 1 || st.Agent != 36 {
			t.Errorf("stats of the squash of 18: %+v, want 36 agent lines in 1 examined commit", st)
		}
	})
}

// TestAmendOfTeammatesCommit: B amends A's commit (A typed line 1 of
// limiter.go, X wrote the rest; A's note says so). What A's note names
// stays named, though B's own record of the new commit cannot tell: B's
// agent adding a file, or B removing one, leaves A's person's line a
// person's and X's lines X's, and the commit examined.
func TestAmendOfTeammatesCommit(t *testing.T) {
	const x, y = "73333333-2222-4333-8444-555555555555", "74444444-2222-4333-8444-555555555555"
	body := "package limiter\n\nfunc Allow(client string) bool {\n\tb := bucket(client)\n\treturn b.take()\n}\n"
	for _, tc := range []struct {
		name  string
		amend func(b teammate)
	}{
		{"B's agent adds a file", func(b teammate) {
			b.conversation(t, y, "Other", "Other.", "other", "other.go", "package other\n\nfunc O() int {\n\treturn 1\n}\n")
			b.run(b.dir, "git", "add", "other.go")
		}},
		{"B removes a file", func(b teammate) { b.run(b.dir, "git", "rm", "-q", "notes.txt") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, bare, _ := sharerOnFeature(t)
			a.conversation(t, x, "Add rate limiting", "A token bucket.", "add", "limiter.go", body)
			a.write(a.dir, "limiter.go", "// Package limiter.\n"+body)
			a.write(a.dir, "notes.txt", "one\ntwo\n")
			c := a.commit(a.dir, "limiter", "limiter.go", "notes.txt")
			b, _ := squashedByTeammate(t, a, bare, c) // nothing after c: B is on A's branch
			tc.amend(b)
			b.run(b.dir, "git", "commit", "-q", "--amend", "--no-edit")
			if got, want := whoWrote(b, "limiter.go", x, y), "human x x x x x x"; got != want {
				t.Errorf("B's blame of limiter.go: %s, want %s", got, want)
			}
			if st := statsOf(t, b, "HEAD~1..HEAD"); st.Examined != 1 {
				t.Errorf("stats leave the amended commit out: %+v", st)
			}
		})
	}
}

// TestSquashByTeammateAfterBranchDeleted: A's branch is gone when B's
// squash of it comes back (B took the branch over), so A recognises the
// squash from its own note by text alone. X's distinctive lines stay X's;
// what text cannot tell (X's closing brace below a line a person rewrote,
// the rewritten line, a function typed beside) is unknown, never a
// person's: not in A's blame, nor, through A's note, in a later clone's.
func TestSquashByTeammateAfterBranchDeleted(t *testing.T) {
	const x = "75555555-2222-4333-8444-555555555555"
	body := "package ledger\n\nfunc Open(x int) error {\n\tif x < 0 {\n\t\treturn fmt.Errorf(\"open ledger: %d\", x)\n\t}\n\treturn nil\n}\n"
	a, bare, base := sharerOnFeature(t)
	a.conversation(t, x, "Open the ledger", "Open.", "open the ledger", "ledger.go", body)
	a.commit(a.dir, "ledger", "ledger.go")
	a.write(a.dir, "ledger.go", strings.Replace(body, "\treturn nil\n", "\treturn ledgerErr(x)\n", 1)+
		"\nfunc Close(y int) error { return shut(y * 2) }\n")
	a.commit(a.dir, "ledger: by hand", "ledger.go")
	b, _ := squashedByTeammate(t, a, bare, base)
	// B's notes stay in B (no pre-push): A reads the squash from its own.
	b.run(b.dir, "git", "push", "-q", "--no-verify", "origin", "+feature", "feature:main")
	a.run(a.dir, "git", "checkout", "-q", "main")
	a.run(a.dir, "git", "branch", "-q", "-D", "feature")
	a.run(a.dir, "git", "pull", "-q", "--ff-only")
	const want = "x x x x x x unknown unknown unknown unknown"
	if got := whoWrote(a, "ledger.go", x, ""); got != want {
		t.Errorf("A's blame of the squash: %s, want %s", got, want)
	}
	// Text blame agrees: no title on a line --json gives no one.
	for i, l := range strings.Split(strings.TrimSuffix(a.convo(a.dir, "blame", "ledger.go"), "\n"), "\n") {
		if titled := strings.Contains(l, "Open the ledger"); titled != (i < 6) {
			t.Errorf("A's text blame, line %d: %q", i+1, l)
		}
	}
	a.convo(a.dir, "push")
	c := cloneAs(t, bare, "c")
	if got := whoWrote(c, "ledger.go", x, ""); got != want {
		t.Errorf("a later clone's blame of the squash: %s, want %s", got, want)
	}
	if st := statsOf(t, c, "HEAD~1..HEAD"); st.Examined != 0 {
		t.Errorf("stats count the squash read by text as examined: %+v", st)
	}
	// B's copy by rewrite places X's brace; A's derived reading, which
	// cannot, does not supersede it.
	b.convo(b.dir, "fetch")
	if got := strings.Fields(whoWrote(b, "ledger.go", x, "")); len(got) != 10 || strings.Join(got[:6], " ") != "x x x x x x" || got[7] != "x" {
		t.Errorf("B's blame of its squash: %v, want X's lines 1-6 and 8", got)
	}
}

// statsOf is stats --json of revs in tm's clone.
func statsOf(t *testing.T, tm teammate, revs string) statsJSON {
	t.Helper()
	var st statsJSON
	if err := json.Unmarshal([]byte(tm.convo(tm.dir, "stats", "--json", revs)), &st); err != nil {
		t.Fatal(err)
	}
	return st
}

// TestSquashByTeammateResetSoft: B squashes A's branch with git reset
// --soft and a new commit, a rewrite git does not report (no post-rewrite,
// no copy by rewrite). B's clone examined the commit itself and found none
// of its own conversations in X's lines: that says nothing of who wrote
// them. Once A's clone has recognised the squash and shared it, B reads
// X's lines as X's, as A and a later clone do; with a conversation of B's
// own in the commit, B's note does not call X's lines a person's either.
func TestSquashByTeammateResetSoft(t *testing.T) {
	const x, y = "76666666-2222-4333-8444-555555555555", "77777777-2222-4333-8444-555555555555"
	body := "package limiter\n\nfunc Allow(client string) bool {\n\tb := bucket(client)\n\treturn b.take()\n}\n"
	for _, tc := range []struct {
		name     string
		own      bool   // B's own conversation adds other.go to the squash
		want     string // every clone's blame of limiter.go
		examined int    // stats: the squash's lines all known
		pr       string // pr's limiter.go lines: an agent's, no agent's edit, no record
	}{
		// A's clone reads the squash by position (its branch's file):
		// the person's lines are a person's.
		{"by hand", false, "human x x x x human x", 1, "4 2 0"},
		// B's note reads it by text: the person's lines are unknown.
		{"with B's own conversation", true, "unknown x x x x unknown x", 0, "4 0 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, bare, base := sharerOnFeature(t)
			a.conversation(t, x, "Add rate limiting", "A token bucket.", "add rate limiting", "limiter.go", body)
			a.commit(a.dir, "limiter", "limiter.go")
			a.write(a.dir, "limiter.go", "// Package limiter.\n"+strings.Replace(body, "b.take()", "b.take() && ok(client)", 1))
			a.commit(a.dir, "limiter: check the client", "limiter.go")
			b, _ := squashedByTeammate(t, a, bare, "HEAD") // B on A's branch, nothing squashed yet
			b.run(b.dir, "git", "reset", "-q", "--soft", base)
			paths := []string{"limiter.go"}
			if tc.own {
				b.conversation(t, y, "Other", "Other.", "other", "other.go", "package other\n\nfunc O() int {\n\treturn 1\n}\n")
				paths = append(paths, "other.go")
			}
			b.commit(b.dir, "limiter", paths...)
			b.run(b.dir, "git", "push", "-q", "origin", "+feature", "feature:main")
			b.convo(b.dir, "push")
			a.run(a.dir, "git", "checkout", "-q", "main")
			a.run(a.dir, "git", "pull", "-q", "--ff-only")
			a.convo(a.dir, "push")
			b.convo(b.dir, "fetch")
			c := cloneAs(t, bare, "c")
			for _, tm := range []teammate{a, b, c} {
				if got := whoWrote(tm, "limiter.go", x, y); got != tc.want {
					t.Errorf("%s's blame of the squash: %s, want %s", filepath.Base(tm.dir), got, tc.want)
				}
				// stats and pr count the lines as blame reads them, in
				// the clone that squashed too (its local count gave X's
				// lines to no agent).
				if st := statsOf(t, tm, "HEAD~1..HEAD"); st.Examined != tc.examined || st.Examined == 1 && (st.Added != 6 || st.Agent != 4) {
					t.Errorf("%s's stats of the squash: %+v, want %d examined (4 of 6 lines an agent's)", filepath.Base(tm.dir), st, tc.examined)
				}
				var pr struct {
					Files []struct {
						Path                    string
						Agent, NoEdit, NoRecord int
					}
					Commits struct{ Uncovered []struct{ Reason string } }
				}
				if err := json.Unmarshal([]byte(tm.convo(tm.dir, "pr", "--json", "HEAD~1..HEAD")), &pr); err != nil {
					t.Fatal(err)
				}
				for _, f := range pr.Files {
					if got := fmt.Sprintf("%d %d %d", f.Agent, f.NoEdit, f.NoRecord); f.Path == "limiter.go" && got != tc.pr {
						t.Errorf("%s's pr of limiter.go: agent, no edit, no record %s, want %s", filepath.Base(tm.dir), got, tc.pr)
					}
				}
				if u := pr.Commits.Uncovered; tm.dir == b.dir && tc.examined == 0 && (len(u) != 1 || !strings.Contains(u[0].Reason, "squash")) {
					t.Errorf("B's pr: the squash made there is uncovered as %+v, want a squash's reason", u)
				}
				if !tc.own {
					continue
				}
				if got := whoWrote(tm, "other.go", x, y); got != "y y y y y" {
					t.Errorf("%s's blame of B's other.go: %s", filepath.Base(tm.dir), got)
				}
			}
		})
	}
}
