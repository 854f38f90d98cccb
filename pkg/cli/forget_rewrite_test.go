package cli

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/share/notes"
	"github.com/git-convo/git-convo/pkg/share/trace"
)

// TestForgetThenRewriteKeepsSharedLines: forget is local, and an amend or
// a rebase made after it does not undo that. A shares a commit whose lines
// conversations X and Y wrote and pushes; A forgets X, then amends the
// commit (a line typed by hand above X's, so they shift) and pushes; then
// rebases it onto main, which a teammate moved on, and pushes. The note on
// each new commit still gives X the lines the old commit's note gave it,
// where the rewrite put them, and no line to a person; the line typed by
// hand is not X's. A's and B's blame and show say so. An unlink of X
// from the new commit stays.
func TestForgetThenRewriteKeepsSharedLines(t *testing.T) {
	_, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	a.convo(a.dir, "share", "on")
	x, y := "61111111-2222-4333-8444-555555555555", "62222222-2222-4333-8444-555555555555"
	a.run(a.dir, "git", "checkout", "-q", "-b", "feature")
	body := "package limiter\n\nfunc Allow(client string) bool {\n\treturn bucket(client).take()\n}\n"
	a.conversation(t, x, "Add rate limiting", "A token bucket.", "add rate limiting", "limiter.go", body)
	a.conversation(t, y, "Add logging", "Added.", "add logging", "log.go", "package limiter\n\nfunc Log(msg string) {\n\tprintln(msg)\n}\n")
	c := a.commit(a.dir, "api: rate-limit and log", "limiter.go", "log.go")
	a.run(a.dir, "git", "push", "-q", "origin", "feature")
	a.convo(a.dir, "push")
	if note := a.noteText(notes.Ref, c); !strings.Contains(note, x) || !strings.Contains(note, y) {
		t.Fatalf("A's note on %s before forget:\n%s", c[:7], note)
	}
	a.convo(a.dir, "forget", x)
	b := cloneAs(t, bare, "b")
	follow := func() { // B takes A's branch and notes
		t.Helper()
		b.run(b.dir, "git", "fetch", "-q", "origin")
		b.run(b.dir, "git", "checkout", "-q", "-B", "feature", "origin/feature")
		b.convo(b.dir, "fetch")
	}

	// check: the note on commit gives X limiter.go's lines of X (xLines,
	// the blank one aside), no line of it to anyone else, none to a person.
	check := func(what, commit string, xLines []int, hand int) {
		t.Helper()
		note := a.noteText(notes.Ref, commit)
		if !strings.Contains(note, x) || !strings.Contains(note, y) || strings.Contains(note, `"type":"human"`) {
			t.Errorf("%s: A's note on %s:\n%s", what, commit[:7], note)
		}
		for _, tm := range []teammate{a, b} {
			if ids := convIDs(tm.showJSON(tm.dir, commit)); !has(ids, x) || !has(ids, y) {
				t.Errorf("%s: %s's show %s: %v, want X and Y", what, tm.dir, commit[:7], ids)
			}
			for _, l := range tm.blameJSON(tm.dir, "limiter.go") {
				switch {
				case slices.Contains(xLines, l.Line):
					if l.Attribution != "agent" || l.WrittenBy == nil || *l.WrittenBy != x {
						t.Errorf("%s: %s's blame limiter.go line %d: %s by %v, want X's", what, tm.dir, l.Line, l.Attribution, l.WrittenBy)
					}
				case l.Line == hand:
					if l.Attribution == "agent" || l.WrittenBy != nil {
						t.Errorf("%s: %s's blame limiter.go line %d (typed by hand): %s by %v", what, tm.dir, l.Line, l.Attribution, l.WrittenBy)
					}
				}
				if l.Attribution == "human" || l.WrittenBy != nil && *l.WrittenBy != x {
					t.Errorf("%s: %s's blame limiter.go line %d: %s by %v", what, tm.dir, l.Line, l.Attribution, l.WrittenBy)
				}
			}
			if out := tm.convo(tm.dir, "blame", "limiter.go"); strings.Contains(out, "(by hand)") {
				t.Errorf("%s: %s's blame gives lines to a person:\n%s", what, tm.dir, out)
			}
		}
	}

	// Amend: a line typed by hand above X's.
	a.write(a.dir, "limiter.go", "// Limits each client.\n"+body)
	a.run(a.dir, "git", "commit", "-q", "--amend", "--no-edit", "limiter.go")
	amended := strings.TrimSpace(a.run(a.dir, "git", "rev-parse", "HEAD"))
	a.run(a.dir, "git", "push", "-q", "-f", "origin", "feature")
	a.convo(a.dir, "push")
	follow()
	check("amended", amended, []int{2, 4, 5, 6}, 1)

	// Rebase onto main, moved on by a teammate.
	rebased := rebaseOntoMovedMain(t, a, bare)
	a.run(a.dir, "git", "push", "-q", "-f", "origin", "feature")
	a.convo(a.dir, "push")
	follow()
	check("rebased", rebased, []int{2, 4, 5, 6}, 1)

	// Withdrawn on purpose from the new commit: no refresh brings it back.
	a.convo(a.dir, "unlink", x, rebased)
	a.convo(a.dir, "relink", "origin/main..HEAD")
	a.convo(a.dir, "push")
	if note := a.noteText(notes.Ref, rebased); strings.Contains(note, x) || !strings.Contains(note, y) || strings.Contains(note, `"type":"human"`) {
		t.Errorf("A's note on %s after unlink and relink:\n%s", rebased[:7], note)
	}
}

// ownEntry is conversation id's link in the note on commit and the lines
// each contributor type of it has there, by file ("limiter.go ai" -> lines).
func ownEntry(t *testing.T, note, id string) (trace.ConvMeta, map[string][]int) {
	t.Helper()
	var cm trace.ConvMeta
	lines := map[string][]int{}
	for _, r := range notes.Decode([]byte(note)) {
		if m, ok := r.Meta(); ok {
			if c, ok := m.Conversations[id]; ok {
				cm = c
			}
		}
		for _, f := range r.Files {
			for _, c := range f.Conversations {
				if trace.ConversationID(c.URL) != id || c.Contributor == nil {
					continue
				}
				for _, rg := range c.Ranges {
					for l := rg.StartLine; l <= rg.EndLine; l++ {
						k := f.Path + " " + c.Contributor.Type
						lines[k] = append(lines[k], l)
					}
				}
			}
		}
	}
	return cm, lines
}

// An amend or a rebase after forget carries the forgotten conversation's
// link in words of the new commit: its reason claims no count of the old
// one's, no added lines of it, no file it no longer has lines in, no more
// written lines than it keeps; no line changed by hand, renamed away or
// squashed in from a commit where a person changed it is X's, and a
// person's "mixed" line is never shown as X's own; a commit that keeps none
// of X's lines (renamed away) has no link to X. A teammate's show says
// where the link was carried from.
func TestForgetThenRewriteCarriesNoOldCounts(t *testing.T) {
	x, y := "61111111-2222-4333-8444-555555555555", "62222222-2222-4333-8444-555555555555"
	body := "package limiter\n\nfunc Allow(client string) bool {\n\tb := bucket(client)\n\treturn b.take()\n}\n"
	edited := strings.Replace(body, "b.take()", "b.take() && ok(client)", 1)
	for _, tc := range []struct {
		name    string
		file    string           // where X's lines are after the rewrite
		rewrite func(a teammate) // after forget
		want    map[string][]int
		hand    []int // file's lines typed by hand
		dropped bool  // none of X's lines left: X has no entry in the note
	}{
		{name: "amend changes one of X's lines in place", file: "limiter.go",
			rewrite: func(a teammate) {
				a.write(a.dir, "limiter.go", edited+"\nfunc ok(string) bool { return true }\n")
				a.run(a.dir, "git", "commit", "-q", "--amend", "--no-edit", "-a")
			},
			want: map[string][]int{"limiter.go ai": {1, 2, 3, 4, 6}}, hand: []int{5, 7, 8}},
		{name: "amend changes one of X's lines and renames the file",
			file: "rate.go",
			rewrite: func(a teammate) {
				a.write(a.dir, "limiter.go", edited)
				a.run(a.dir, "git", "mv", "limiter.go", "rate.go")
				a.run(a.dir, "git", "commit", "-q", "--amend", "--no-edit", "-a")
			},
			want: map[string][]int{}, hand: []int{1, 2, 3, 4, 5, 6}, dropped: true},
		{name: "rebase -i squashes in a commit where a person changed X's lines", file: "limiter.go",
			rewrite: func(a teammate) {
				base := strings.TrimSpace(a.run(a.dir, "git", "rev-parse", "HEAD~2"))
				r := a.runEnv(a.dir, append(append([]string{}, a.env...), "GIT_SEQUENCE_EDITOR=sed -i -e 2s/^pick/fixup/", "GIT_EDITOR=true"), "", "git", "rebase", "-q", "-i", base)
				if r.code != 0 {
					a.t.Fatalf("rebase: %s %s", r.stdout, r.stderr)
				}
			},
			want: map[string][]int{"limiter.go ai": {2, 3, 4, 5, 7}}, hand: []int{1, 6}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, bare := newTeam(t)
			a := cloneAs(t, bare, "a")
			a.convo(a.dir, "share", "on")
			a.conversation(t, x, "Add rate limiting", "A token bucket.", "add rate limiting", "limiter.go", body)
			a.conversation(t, y, "Add logging", "Added.", "add logging", "log.go", "package limiter\n\nfunc Log(msg string) {\n\tprintln(msg)\n}\n")
			c := a.commit(a.dir, "api", "limiter.go", "log.go")
			if strings.HasPrefix(tc.name, "rebase") { // B: a person changes X's line 5, adds one above
				a.write(a.dir, "limiter.go", "// Package limiter.\n"+edited)
				a.commit(a.dir, "B", "limiter.go")
			}
			a.convo(a.dir, "push")
			a.convo(a.dir, "forget", x)
			tc.rewrite(a)
			rewritten := strings.TrimSpace(a.run(a.dir, "git", "rev-parse", "HEAD"))
			a.convo(a.dir, "push")
			note := a.noteText(notes.Ref, rewritten)
			cm, lines := ownEntry(t, note, x)
			if tc.dropped {
				if cm.Title != "" || len(lines) > 0 {
					t.Errorf("X claims a commit that adds none of its lines: %+v %v\n%s", cm, lines, note)
				}
				if out := a.convo(a.dir, "show", rewritten); strings.Contains(out, "Add rate limiting") {
					t.Errorf("show names X on a commit that adds none of its lines:\n%s", out)
				}
				return
			}
			if !reflect.DeepEqual(lines, tc.want) {
				t.Errorf("X's lines %v, want %v\n%s", lines, tc.want, note)
			}
			kept := 0
			for _, ls := range lines {
				kept += len(ls)
			}
			var files []string
			if len(lines) > 0 {
				files = []string{tc.file}
			}
			if want := "carried from " + c[:12]; !strings.HasPrefix(cm.Reason, "carried from ") || strings.Contains(cm.Reason, "added lines") ||
				strings.HasPrefix(tc.name, "amend") && !strings.HasPrefix(cm.Reason, want) ||
				cm.AddedLines != 0 || cm.WrittenLines > kept || !reflect.DeepEqual(cm.MatchedFiles, files) {
				t.Errorf("X's link %+v, want carried, no count, files %v\n%s", cm, files, note)
			}
			for _, l := range a.blameJSON(a.dir, tc.file) {
				if slices.Contains(tc.hand, l.Line) && l.WrittenBy != nil && *l.WrittenBy == x {
					t.Errorf("%s line %d (typed by hand) given to X", tc.file, l.Line)
				}
			}
			if len(lines) == 0 {
				return
			}
			b := cloneAs(t, bare, "b")
			a.run(a.dir, "git", "push", "-q", "-f", "origin", "HEAD:refs/heads/feature")
			b.run(b.dir, "git", "fetch", "-q", "origin")
			b.run(b.dir, "git", "checkout", "-q", "-B", "feature", "origin/feature")
			b.convo(b.dir, "fetch")
			if out := b.convo(b.dir, "show", rewritten); !strings.Contains(out, "why "+cm.Reason) || strings.Contains(out, " of 5 ") {
				t.Errorf("B's show:\n%s", out)
			}
		})
	}
}

// With nothing forgotten, an amend's note is the rebuilt record alone, as
// before rewrites were carried: no line of the old commit's copy, no
// "carried from".
func TestAmendWithoutForgetCarriesNothing(t *testing.T) {
	_, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	a.convo(a.dir, "share", "on")
	x := "61111111-2222-4333-8444-555555555555"
	body := "package limiter\n\nfunc Allow(client string) bool {\n\treturn bucket(client).take()\n}\n"
	a.conversation(t, x, "Add rate limiting", "A token bucket.", "add rate limiting", "limiter.go", body)
	a.commit(a.dir, "api", "limiter.go")
	a.convo(a.dir, "push")
	a.write(a.dir, "limiter.go", "// Limits each client.\n"+strings.Replace(body, "take()", "take() && true", 1))
	a.run(a.dir, "git", "commit", "-q", "--amend", "--no-edit", "limiter.go")
	amended := strings.TrimSpace(a.run(a.dir, "git", "rev-parse", "HEAD"))
	a.convo(a.dir, "push")
	note := a.noteText(notes.Ref, amended)
	recs := notes.Decode([]byte(note))
	cm, lines := ownEntry(t, note, x)
	if len(recs) != 1 || recs[0].VCS.Revision != amended || strings.Contains(cm.Reason, "carried") ||
		!reflect.DeepEqual(lines, map[string][]int{"limiter.go ai": {2, 3, 4, 6}}) {
		t.Errorf("X's link %+v, lines %v\n%s", cm, lines, note)
	}
}

// TestForgetThenSplitCarriesNoLineThePartDoesNotAdd: A shares a commit of
// X's limiter.go and Y's log.go, forgets X, then splits the commit with
// rebase -i (edit): part1 adds limiter.go, part2 log.go; git records the
// old commit as rewritten into part2 only. part2 adds none of X's lines:
// its note must not give X any (the diff from the old commit leaves
// limiter.go as it was, so moving lines alone would carry them all).
func TestForgetThenSplitCarriesNoLineThePartDoesNotAdd(t *testing.T) {
	const x, y = "61111111-2222-4333-8444-555555555555", "62222222-2222-4333-8444-555555555555"
	a := forgotOneOfTwo(t, x, y)
	base := strings.TrimSpace(a.run(a.dir, "git", "rev-parse", "HEAD~"))
	r := a.runEnv(a.dir, append(append([]string{}, a.env...), "GIT_SEQUENCE_EDITOR=sed -i -e 1s/^pick/edit/", "GIT_EDITOR=true"), "",
		"git", "rebase", "-q", "-i", base)
	if r.code != 0 {
		t.Fatalf("rebase: %s %s", r.stdout, r.stderr)
	}
	a.run(a.dir, "git", "reset", "-q", "HEAD^")
	a.run(a.dir, "git", "add", "limiter.go")
	a.run(a.dir, "git", "commit", "-q", "-m", "part1")
	a.run(a.dir, "git", "add", "log.go")
	a.run(a.dir, "git", "commit", "-q", "-m", "part2")
	if r := a.runEnv(a.dir, append(append([]string{}, a.env...), "GIT_EDITOR=true"), "", "git", "rebase", "--continue"); r.code != 0 {
		t.Fatalf("rebase --continue: %s %s", r.stdout, r.stderr)
	}
	p2 := strings.TrimSpace(a.run(a.dir, "git", "rev-parse", "HEAD"))
	a.convo(a.dir, "push")
	note := a.noteText(notes.Ref, p2)
	if strings.Contains(note, x) {
		t.Errorf("part2 (adds only log.go) names the forgotten X:\n%s", note)
	}
	if !strings.Contains(note, y) {
		t.Errorf("part2's note lost Y:\n%s", note)
	}
}

// TestShareOnWarnsOfWhatItCouldNotCarry: A forgets X, turns sharing off,
// amends the commit, and lets git prune the old one; share on then cannot
// read the diff from the old commit to carry X's link. Every note is
// written all the same: share on says so on stderr as a warning, one line,
// and exits 0.
func TestShareOnWarnsOfWhatItCouldNotCarry(t *testing.T) {
	const x, y = "61111111-2222-4333-8444-555555555555", "62222222-2222-4333-8444-555555555555"
	a := forgotOneOfTwo(t, x, y)
	a.convo(a.dir, "share", "off")
	a.write(a.dir, "limiter.go", "// x\npackage limiter\n")
	a.run(a.dir, "git", "commit", "-q", "--amend", "--no-edit", "-a")
	h := strings.TrimSpace(a.run(a.dir, "git", "rev-parse", "HEAD"))
	a.run(a.dir, "git", "reflog", "expire", "--expire=now", "--all")
	a.run(a.dir, "git", "gc", "-q", "--prune=now")
	r := a.runEnv(a.dir, a.env, "", "git", "convo", "share", "on")
	if r.code != 0 {
		t.Fatalf("share on: exit %d, want 0\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "sharing is on") {
		t.Errorf("share on did not finish:\n%s", r.stdout)
	}
	var warned int
	for _, l := range strings.Split(strings.TrimSpace(r.stderr), "\n") {
		if strings.HasPrefix(l, "git-convo: warning: ") && strings.Contains(l, "not carried") {
			warned++
		}
	}
	if warned != 1 {
		t.Errorf("share on: %d warning lines of what it could not carry, want 1:\n%s", warned, r.stderr)
	}
	if note := a.noteText(notes.Ref, h); !strings.Contains(note, y) || strings.Contains(note, x) {
		t.Errorf("the amended commit's note: want Y's, not X's:\n%s", note)
	}
}

// forgotOneOfTwo is a teammate, sharing on, who shared one commit (on main's
// first) of conversation x's limiter.go and y's log.go, then forgot x.
func forgotOneOfTwo(t *testing.T, x, y string) teammate {
	_, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	a.convo(a.dir, "share", "on")
	a.conversation(t, x, "Add rate limiting", "A token bucket.", "add rate limiting", "limiter.go",
		"package limiter\n\nfunc Allow(client string) bool {\n\tb := bucket(client)\n\treturn b.take()\n}\n")
	a.conversation(t, y, "Add logging", "Added.", "add logging", "log.go", "package limiter\n\nfunc Log(msg string) {\n\tprintln(msg)\n}\n")
	a.commit(a.dir, "api", "limiter.go", "log.go")
	a.convo(a.dir, "push")
	a.convo(a.dir, "forget", x)
	return a
}

// TestForgetThenFixupKeepsAPersonsLinesAPersons: X writes limiter.go
// (c1), a person then changes two of its lines (c2: X's "mixed"), X writes
// more.go (c3). A forgets X, then folds c2 and c3 into one commit with
// rebase -i (fixup, either way round). The lines the person changed stay
// none of X's own: shown as X's, they would give a person's work to an AI.
func TestForgetThenFixupKeepsAPersonsLinesAPersons(t *testing.T) {
	const x = "61111111-2222-4333-8444-555555555555"
	const body = "package limiter\n\nfunc Allow(client string) bool {\n\tb := bucket(client)\n\treturn b.take()\n}\n"
	for name, todo := range map[string]string{"pick c2, fixup c3": "2s/^pick/fixup/", "pick c3, fixup c2": "1{s/^pick/fixup/;h;d};2G"} {
		t.Run(name, func(t *testing.T) {
			_, bare := newTeam(t)
			a := cloneAs(t, bare, "a")
			a.convo(a.dir, "share", "on")
			a.conversation(t, x, "Add rate limiting", "A token bucket.", "add rate limiting", "limiter.go", body)
			c1 := a.commit(a.dir, "A", "limiter.go")
			a.write(a.dir, "limiter.go", "// Package limiter.\n"+strings.Replace(body, "b.take()", "b.take() && ok(client)", 1))
			a.commit(a.dir, "P", "limiter.go")
			a.conversation(t, x, "Add rate limiting", "A token bucket.", "add more", "more.go", "package limiter\n\nfunc More() int {\n\treturn 42\n}\n")
			a.commit(a.dir, "A2", "more.go")
			a.convo(a.dir, "push")
			a.convo(a.dir, "forget", x)
			r := a.runEnv(a.dir, append(append([]string{}, a.env...), "GIT_SEQUENCE_EDITOR=sed -i -e '"+todo+"'", "GIT_EDITOR=true"), "",
				"git", "rebase", "-q", "-i", c1)
			if r.code != 0 {
				t.Fatalf("rebase: %s %s", r.stdout, r.stderr)
			}
			a.convo(a.dir, "push")
			xs := 0
			for _, l := range a.blameJSON(a.dir, "limiter.go") {
				if l.WrittenBy != nil && *l.WrittenBy == x && l.Attribution == "agent" {
					xs++
				}
				if l.WrittenBy != nil && *l.WrittenBy == x && (l.Line == 1 || l.Line == 6) && l.Attribution == "agent" {
					t.Errorf("limiter.go line %d (changed by hand) shown as X's own", l.Line)
				}
			}
			if xs == 0 {
				t.Errorf("limiter.go: no line of c1's shown as X's (blame reads no note)")
			}
		})
	}
}
