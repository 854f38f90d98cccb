package cli

import (
	"encoding/json"
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
		_, bare := newTeam(t)
		a := cloneAs(t, bare, "a")
		a.convo(a.dir, "share", "on")
		a.run(a.dir, "git", "checkout", "-q", "-b", "feature")
		base := strings.TrimSpace(a.run(a.dir, "git", "rev-parse", "HEAD"))
		a.conversation(t, x, "Add rate limiting", "A token bucket.", "add rate limiting", "limiter.go", body)
		a.commit(a.dir, "limiter", "limiter.go")
		// A person heads the file and changes X's return line.
		a.write(a.dir, "limiter.go", "// Package limiter.\n"+strings.Replace(body, "b.take()", "b.take() && ok(client)", 1))
		a.commit(a.dir, "limiter: check the client", "limiter.go")
		b, s := squashedByTeammate(t, a, bare, base)
		var got []string
		for _, l := range b.blameJSON(b.dir, "limiter.go") {
			who := l.Attribution
			if l.WrittenBy != nil && *l.WrittenBy == x {
				who = "x"
			}
			got = append(got, who)
		}
		// Line 3 is blank: X's, inside its run.
		if want := "human x x x x human x"; strings.Join(got, " ") != want {
			t.Errorf("blame of the squash: %s, want %s", strings.Join(got, " "), want)
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
			var got []string
			for _, l := range b.blameJSON(b.dir, f) {
				who := l.Attribution
				if l.WrittenBy != nil && *l.WrittenBy == x {
					who = "x"
				}
				got = append(got, who)
			}
			if strings.Join(got, " ") != want {
				t.Errorf("blame of the squash's %s: %s, want %s", f, strings.Join(got, " "), want)
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
}
