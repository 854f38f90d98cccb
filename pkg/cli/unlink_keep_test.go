package cli

import (
	"database/sql"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/share/notes"
)

// TestUnlinkHoldsThroughRewrite: A, sharing, commits the lines of X and Y
// and pushes; Y's link is wrong, so A unlinks it. The decision holds: the
// amended commit (made before A pushes again), then the commit itself, is
// not linked to Y (show, blame, log, stats, pr, the note: Y's lines are no
// one's, not a person's), nor after relink of it, nor after a rebase of
// it; record -v says why. Linking Y by hand undoes the withdrawal, its
// lines Y's again.
func TestUnlinkHoldsThroughRewrite(t *testing.T) {
	a, bare, _ := sharerOnFeature(t)
	x, y := "71111111-2222-4333-8444-555555555555", "72222222-2222-4333-8444-555555555555"
	a.conversation(t, x, "Add rate limiting", "A token bucket.", "add rate limiting", "limiter.go", "package limiter\n\nvar limit = 10\n")
	a.conversation(t, y, "Add logging", "Added.", "add logging", "log.go", "package limiter\n\nfunc Log(msg string) {\n\tprintln(msg)\n}\n")
	c := a.commit(a.dir, "api: rate-limit and log", "limiter.go", "log.go")
	if ids := convIDs(a.showJSON(a.dir, c)); !has(ids, x) || !has(ids, y) {
		t.Fatalf("before unlink, %s is linked to %v; want X and Y", c[:7], ids)
	}
	a.run(a.dir, "git", "push", "-q", "origin", "feature") // the note naming Y is shared already
	a.convo(a.dir, "push")
	a.convo(a.dir, "unlink", y, c)

	// notY checks that nothing A reads or shares about commit names Y.
	notY := func(what, commit string) {
		t.Helper()
		if ids := convIDs(a.showJSON(a.dir, commit)); has(ids, y) || !has(ids, x) {
			t.Errorf("%s: show %s: %v, want X and not Y", what, commit[:7], ids)
		}
		for _, l := range a.blameJSON(a.dir, commit, "log.go") {
			// Y's lines are no one's now; never a person's.
			if l.WrittenBy != nil && *l.WrittenBy == y || l.Attribution == "human" {
				t.Errorf("%s: blame %s log.go line %d: %s by %v", what, commit[:7], l.Line, l.Attribution, l.WrittenBy)
			}
		}
		if note := a.noteText(notes.Ref, commit); strings.Contains(note, y) || !strings.Contains(note, x) || strings.Contains(note, `"type":"human"`) {
			t.Errorf("%s: the note on %s:\n%s", what, commit[:7], note)
		}
		for _, args := range [][]string{{"log", "--json", "-1", commit}, {"stats", "--json", "-1", commit},
			{"pr", "--format", "json", commit + "~1.." + commit}} {
			if out := a.convo(a.dir, args...); strings.Contains(out, y) || strings.Contains(out, "Add logging") {
				t.Errorf("%s: %s names Y:\n%s", what, strings.Join(args, " "), out)
			}
		}
	}
	a.write(a.dir, "limiter.go", "// Limits each client.\npackage limiter\n\nvar limit = 10\n")
	a.run(a.dir, "git", "commit", "-q", "--amend", "--no-edit", "limiter.go")
	amended := strings.TrimSpace(a.run(a.dir, "git", "rev-parse", "HEAD"))
	notY("amended", amended) // though the shared note on c still names Y
	a.convo(a.dir, "push")
	notY("unlinked, pushed", c)
	if out := a.convo(a.dir, "record", "-v", amended); !strings.Contains(out, y+" score") || !strings.Contains(out, "not linked: unlinked by hand") {
		t.Errorf("record -v of the amended commit does not say Y stays unlinked:\n%s", out)
	}
	a.convo(a.dir, "relink", amended+"~1.."+amended)
	notY("amended, relinked", amended)

	rebased := rebaseOntoMovedMain(t, a, bare)
	notY("rebased", rebased)
	a.convo(a.dir, "relink", "origin/main..HEAD")
	notY("rebased, relinked", rebased)

	// Linking by hand undoes the withdrawal, and relink keeps the link.
	a.convo(a.dir, "link", y, rebased)
	a.convo(a.dir, "relink", "origin/main..HEAD")
	if ids := convIDs(a.showJSON(a.dir, rebased)); !has(ids, y) || !has(ids, x) {
		t.Errorf("linked by hand: show %s: %v, want X and Y", rebased[:7], ids)
	}
	if note := a.noteText(notes.Ref, rebased); !strings.Contains(note, y) {
		t.Errorf("linked by hand: the note on %s lacks Y:\n%s", rebased[:7], note)
	}
	for _, l := range a.blameJSON(a.dir, rebased, "log.go") { // its lines are Y's again
		if l.WrittenBy == nil || *l.WrittenBy != y {
			t.Errorf("linked by hand: blame %s log.go line %d: %s by %v, want Y's", rebased[:7], l.Line, l.Attribution, l.WrittenBy)
		}
	}
}

// rebaseOntoMovedMain has a teammate move main on, then rebases a's
// branch onto it; it returns a's new HEAD.
func rebaseOntoMovedMain(t *testing.T, a teammate, bare string) string {
	t.Helper()
	before := strings.TrimSpace(a.run(a.dir, "git", "rev-parse", "HEAD"))
	m := cloneAs(t, bare, "m")
	m.write(m.dir, "README", "limits\n")
	m.commit(m.dir, "readme", "README")
	m.run(m.dir, "git", "push", "-q", "--no-verify", "origin", "main")
	a.run(a.dir, "git", "fetch", "-q", "origin")
	a.run(a.dir, "git", "rebase", "-q", "origin/main")
	rebased := strings.TrimSpace(a.run(a.dir, "git", "rev-parse", "HEAD"))
	if rebased == before {
		t.Fatal("the rebase made no new commit")
	}
	return rebased
}

// rowsNaming lists the rows of every table of links.sqlite that hold
// any of words (each row "table: its values quoted"): what forget must
// leave none of.
func (sb *sandbox) rowsNaming(words ...string) []string {
	sb.t.Helper()
	db := sb.openDB()
	defer db.Close()
	// One query: each table's rows as text, SQLite quoting every column.
	var union []string
	err := eachString(db, `SELECT 'SELECT ''' || m.name || ': '' || ' || group_concat('quote("' || c.name || '")', ' || '' '' || ') || ' FROM "' || m.name || '"'
FROM sqlite_master m JOIN pragma_table_info(m.name) c WHERE m.type = 'table' GROUP BY m.name`, func(q string) { union = append(union, q) })
	var out []string
	if err == nil {
		err = eachString(db, strings.Join(union, " UNION ALL "), func(row string) {
			for _, w := range words {
				if strings.Contains(row, w) {
					out = append(out, row)
					return
				}
			}
		})
	}
	if err != nil {
		sb.t.Fatal(err)
	}
	return out
}

// eachString calls fn with each row of q, a query of one text column.
func eachString(db *sql.DB, q string, fn func(string)) error {
	rows, err := db.Query(q)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return err
		}
		fn(v)
	}
	return rows.Err()
}

// TestUnlinkThenLinkBack: while Y is unlinked from C, C's lines Y wrote are
// no one's, so no line of C is called a person's (a typed line reads
// unknown, never Y's); linking Y back by hand examines C again: the typed
// line is a person's, Y's lines Y's (review of the unlink: they stayed
// unknown for good).
func TestUnlinkThenLinkBack(t *testing.T) {
	a, _, _ := sharerOnFeature(t)
	x, y := "71111111-2222-4333-8444-555555555555", "72222222-2222-4333-8444-555555555555"
	a.conversation(t, x, "Add rate limiting", "A token bucket.", "add rate limiting", "limiter.go", "package limiter\n\nvar limit = 10\n")
	a.conversation(t, y, "Add logging", "Added.", "add logging", "log.go", "package limiter\n\nfunc Log(msg string) {\n\tprintln(msg)\n}\n")
	a.write(a.dir, "NOTES", "typed by hand, every word\n")
	c := a.commit(a.dir, "api: rate-limit, log, notes", "limiter.go", "log.go", "NOTES")
	typed := func(what, want string) {
		t.Helper()
		for _, l := range a.blameJSON(a.dir, c, "NOTES") {
			if l.Attribution != want {
				t.Errorf("%s: blame NOTES line %d (typed by hand): %s, want %s", what, l.Line, l.Attribution, want)
			}
		}
	}
	ys := func(what string, want bool) {
		t.Helper()
		for _, l := range a.blameJSON(a.dir, c, "log.go") {
			if l.Line == 2 {
				continue // blank
			}
			if got := l.WrittenBy != nil && *l.WrittenBy == y; got != want || !want && l.Attribution == "human" {
				t.Errorf("%s: blame log.go line %d: %s by %v, want Y's: %v (never a person's)", what, l.Line, l.Attribution, l.WrittenBy, want)
			}
		}
	}
	typed("before unlink", "human")
	ys("before unlink", true)
	a.convo(a.dir, "unlink", y, c)
	typed("Y unlinked", "unknown")
	ys("Y unlinked", false)
	a.convo(a.dir, "link", y, c)
	typed("Y linked back", "human")
	ys("Y linked back", true)
}
