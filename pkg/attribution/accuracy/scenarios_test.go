package accuracy

import (
	"fmt"
	"maps"
	"path/filepath"
	"strings"
	"testing"
)

// world is one scenario's team: a bare remote holding the background
// history, the clone of the person who works with the agents (sharing on),
// a server that merges as a forge does, and a teammate who clones later.
type world struct {
	t       testing.TB
	root    string
	remote  string
	me      *user
	mine    *clone
	mates   []*clone                // teammates who worked in the scenario (mate)
	truth   map[string]*commitTruth // by commit subject (rewrites keep it)
	paths   map[string]bool         // the files the scenario touched
	started map[string]bool         // the conversations begun so far
	// The conversations: ids told apart by their first 8 characters, which
	// the -v notes print.
	cursor  agent // afterFileEdit
	cursor2 agent // postToolUse of its edit tools
	claude  agent
}

func newWorld(t testing.TB, root, base string, bg *history) *world {
	t.Helper()
	w := &world{t: t, root: root, truth: map[string]*commitTruth{}, paths: map[string]bool{}, started: map[string]bool{},
		cursor:  agent{"cursor", "c0a00001-0000-4000-8000-000000000001", false},
		cursor2: agent{"cursor", "c0b00002-0000-4000-8000-000000000002", true},
		claude:  agent{"claude", "c1c00003-0000-4000-8000-000000000003", false},
	}
	w.me = newUser(t, root, "me", "Ada Lovelace", "ada@example.com")
	w.remote = filepath.Join(root, "remote.git")
	w.me.git("", "clone", "-q", "--bare", base, w.remote)
	dir := filepath.Join(root, "mine")
	w.me.git("", "clone", "-q", w.remote, dir)
	indexPaths(w.me, dir)
	w.me.convo(dir, "install", "--cursor=none", "--claude=none")
	w.me.convo(dir, "share", "on")
	files := tree{}
	for p, ls := range bg.files {
		for _, s := range ls {
			files[p] = append(files[p], line{text: s})
		}
	}
	w.mine = &clone{t: t, w: w, u: w.me, dir: dir, cur: "main", files: files, saved: map[string]tree{},
		branchPaths: map[string]map[string]bool{"main": {}}, dirty: map[string]bool{}}
	return w
}

// server runs git as a forge's merge button does, in its own clone with no
// git-convo: it returns that clone.
func (w *world) server() (*user, string) {
	u := newUser(w.t, w.root, "server", "Forge", "noreply@forge.example")
	dir := filepath.Join(w.root, "server-clone")
	u.git("", "clone", "-q", w.remote, dir)
	return u, dir
}

// teammate clones the remote after everything, installs git-convo and
// fetches: what they know of conversations comes from notes only.
func (w *world) teammate() (*user, string) {
	return w.join("mate", "Alan Turing", "alan@example.com")
}

// join is a person who clones the remote now, installs git-convo and
// fetches the notes: it returns them and their clone.
func (w *world) join(name, fullName, email string) (*user, string) {
	u := newUser(w.t, w.root, name, fullName, email)
	dir := filepath.Join(w.root, name+"-clone")
	u.git("", "clone", "-q", w.remote, dir)
	indexPaths(u, dir)
	u.convo(dir, "install", "--cursor=none", "--claude=none")
	u.git(dir, "fetch", "-q")
	return u, dir
}

// mate is B, a teammate who shares and works on the agent's clone's branch
// (pushed with its notes): B joins, checks the branch out and gets the
// model of it, its last commit the agent's clone's. What B knows of the
// conversations comes from notes only. The test measures B's clone too,
// once B has pulled main.
func (w *world) mate(branch string) *clone {
	u, dir := w.join("b", "Edsger Dijkstra", "edsger@example.com")
	u.convo(dir, "share", "on")
	u.git(dir, "checkout", "-q", "-b", branch, "origin/"+branch)
	a := w.mine
	b := &clone{t: w.t, w: w, u: u, dir: dir, cur: branch, files: a.files.clone(), saved: map[string]tree{},
		branchPaths: map[string]map[string]bool{branch: maps.Clone(a.branchPaths[branch])}, dirty: map[string]bool{}, last: a.last}
	w.mates = append(w.mates, b)
	return b
}

// rewrittenByMate: the agent's clone pushes branch feature (its notes go
// with it); B (mate) rewrites it with rewrite, pushes it again and as main
// (a fast-forward); the agent's clone switches to main and pulls.
func (w *world) rewrittenByMate(rewrite func(b *clone)) {
	a := w.mine
	a.u.git(a.dir, "push", "-q", "origin", "feature")
	b := w.mate("feature")
	rewrite(b)
	b.u.git(b.dir, "push", "-q", "origin", "+feature", "feature:main")
	a.switchTo("main")
	w.pulled(b.files, b.branchPaths["feature"])
}

// squashTruth is the truth of a commit made of the commits with subjects (a
// squash): the writers of every one, and paths as they are in files.
func (w *world) squashTruth(subjects []string, files tree, paths map[string]bool) *commitTruth {
	tr := &commitTruth{writers: map[string]bool{}, files: tree{}, started: maps.Clone(w.started)}
	for _, s := range subjects {
		for id := range w.truth[s].writers {
			tr.writers[id] = true
		}
	}
	for p := range paths {
		tr.files[p] = append([]line{}, files[p]...)
	}
	return tr
}

// later is what every scenario ends with: people's commits made after the
// conversations, in a file an agent edited and in one none did, with the
// lines every Go file repeats; then a push.
func (w *world) later(agentFile, otherFile string) {
	c := w.mine
	c.personInsert(agentFile, c.after(agentFile, -1), block("laterByHand", 0))
	c.commit("later: a person adds laterByHand")
	c.personInsert(otherFile, c.after(otherFile, 0), block("unrelatedByHand", 1))
	c.commit("later: a person adds unrelatedByHand")
	c.u.git(c.dir, "push", "-q", "origin", "main")
}

// serverMerged brings main from the remote after the server merged branch,
// whose files the scenario's model takes.
func (w *world) serverMerged(branch string) {
	c := w.mine
	w.pulled(c.saved[branch], c.branchPaths[branch])
}

// pulled brings main from the remote into the agent's clone, on main, where
// paths became as they are in files.
func (w *world) pulled(files tree, paths map[string]bool) {
	c := w.mine
	c.u.git(c.dir, "pull", "-q", "--ff-only")
	c.files = overlay(c.files, files, paths)
	for p := range paths {
		c.branchPaths["main"][p] = true
	}
}

type scenario struct {
	name, about string
	play        func(w *world)
}

// Files of the background history the scenarios edit (each its own, so
// that a scenario's rebase never meets a conflict).
func bgFile(i int) string {
	return fmt.Sprintf("pkg%02d/file%02d.go", i%10, i)
}

var scenarios = []scenario{
	{"one commit, two agents and a person", "Cursor writes a function into an old file and creates a file, Claude Code adds a function to the same file, a person adds one of the same shape and rewrites one of Cursor's lines; one commit.",
		func(w *world) {
			c, f := w.mine, bgFile(1)
			c.put(fn{&w.cursor, f, 0, "parseHeader", 0})
			c.agentInsert(w.cursor, "add a table package", "table/table.go", 0, append(fileHeader("table"), append(block("newTable", 2), block("tableRows", 1)...)...))
			c.put(fn{&w.claude, f, -1, "renderTable", 1})
			c.put(fn{nil, f, 1, "manualCheck", 0})
			c.personEdit(f, w.cursor.id, "\treturn nil", "\treturn validate(x)")
			c.commit("feat: parser, table and a manual check")
			w.later(f, bgFile(2))
		}},
	{"later commits on the same file", "Cursor, then a person, then Claude Code, then a person again (rewriting a line of Claude's), each in its own commit on one file.",
		func(w *world) {
			c, f := w.mine, bgFile(3)
			c.commitFn(fn{&w.cursor, f, 0, "loadConfig", 1})
			c.commitFn(fn{nil, f, -1, "saveConfig", 1})
			c.commitFn(fn{&w.claude, f, 1, "mergeConfig", 0})
			c.personEdit(f, w.claude.id, "\treturn nil", "\treturn w.flush()")
			c.commitFn(fn{nil, f, -1, "resetConfig", 2})
			w.later(f, bgFile(4))
		}},
	{"amend", "Cursor's commit amended twice: with a person's function, then with Claude Code's.",
		func(w *world) {
			c, f := w.mine, bgFile(5)
			c.commitFn(fn{&w.cursor, f, 0, "openStore", 0})
			c.put(fn{nil, f, -1, "closeStore", 0})
			c.amend()
			c.put(fn{&w.claude, f, 1, "syncStore", 1})
			c.amend()
			w.later(f, bgFile(6))
		}},
	{"rebase", "A branch of Cursor's, a person's and Claude Code's commits is rebased onto a person's newer commit on main, then main fast-forwards to it.",
		func(w *world) {
			c, f, g := w.mine, bgFile(7), bgFile(8)
			w.branchWork(fn{nil, bgFile(9), 0, "mainline", 1},
				fn{&w.cursor, f, 0, "dialPeer", 1}, fn{nil, f, -1, "hangUp", 0}, fn{&w.claude, g, 0, "retryPeer", 0})
			c.switchTo("feature")
			c.rebaseOnto("main")
			c.switchTo("main")
			c.fastForward("feature")
			w.later(f, bgFile(10))
		}},
	{"cherry-pick", "Claude Code's commit on a topic branch is cherry-picked onto main; Cursor's next commit stays on the topic branch.",
		func(w *world) {
			c, f, g := w.mine, bgFile(11), bgFile(12)
			c.branch("topic")
			pick := c.commitFn(fn{&w.claude, f, -1, "quoteName", 2})
			c.commitFn(fn{&w.cursor, g, 0, "unquoteName", 2})
			c.switchTo("main")
			c.cherryPick(pick, "feat: quoteName")
			w.later(f, bgFile(13))
		}},
	{"squash merge on the server", "A pushed branch (Cursor, Claude Code, a person; notes shared) is squash-merged by the server after a person's commit on main; the agent's clone pulls.",
		func(w *world) {
			c, f, g := w.mine, bgFile(14), bgFile(15)
			branch := w.branchWork(fn{nil, bgFile(16), 0, "beforeSquash", 0},
				fn{&w.cursor, f, 0, "limitRate", 0}, fn{&w.claude, f, -1, "burstRate", 1}, fn{nil, g, 0, "rateDocs", 2})
			c.u.git(c.dir, "push", "-q", "origin", "main", "feature")
			srv, dir := w.server()
			srv.git(dir, "merge", "-q", "--squash", "origin/feature")
			srv.git(dir, "commit", "-q", "-m", "Rate limits (#12)")
			srv.git(dir, "push", "-q", "origin", "main")
			w.truth["Rate limits (#12)"] = w.squashTruth(branch, c.saved["feature"], c.branchPaths["feature"])
			w.serverMerged("feature")
			w.later(f, bgFile(17))
		}},
	{"a commit just before a conversation", "A person commits a function to a file; at once a Cursor conversation (edits through its tools) starts and edits the same file; its commit follows.",
		func(w *world) {
			c, f := w.mine, bgFile(22)
			c.commitFn(fn{nil, f, 0, "justBefore", 0})
			c.commitFn(fn{&w.cursor2, f, -1, "justAfter", 0})
			w.later(f, bgFile(23))
		}},
	{"a teammate's note on an old commit", "Cursor's commit is pushed with its note; a hostile teammate copies that note onto an old commit of a person's in the same file and pushes the notes; the agent's clone fetches.",
		func(w *world) {
			c, f := w.mine, bgFile(24)
			agentCommit := c.commitFn(fn{&w.cursor, f, 0, "signToken", 1})
			w.later(f, bgFile(25))
			w.forgeNote(agentCommit, f)
			c.u.git(c.dir, "fetch", "-q")
		}},
	{"rebase merge on the server", "A pushed branch (Cursor, a person, Claude Code; notes shared) is rebased onto main by the server (new commits, same changes); the agent's clone pulls.",
		func(w *world) {
			c, f, g := w.mine, bgFile(18), bgFile(19)
			w.branchWork(fn{nil, bgFile(20), 0, "beforeRebase", 2},
				fn{&w.cursor2, f, 0, "walkTree", 2}, fn{nil, f, -1, "pruneTree", 0}, fn{&w.claude, g, 0, "countTree", 1})
			c.u.git(c.dir, "push", "-q", "origin", "main", "feature")
			srv, dir := w.server()
			srv.git(dir, "checkout", "-q", "-b", "merging", "origin/feature")
			srv.git(dir, "rebase", "-q", "origin/main")
			srv.git(dir, "push", "-q", "origin", "merging:main")
			w.serverMerged("feature")
			w.later(f, bgFile(21))
		}},
	{"squash by a teammate", "Cursor's commit and a person's fix of it (one of Cursor's lines rewritten, a function typed) on a branch, pushed with the notes; a teammate who shares squashes the fix into Cursor's commit (rebase -i, fixup), pushes, and main fast-forwards to it; the agent's clone pulls.",
		func(w *world) {
			w.squashByMate(bgFile(26), func(b *clone, _ string) { fixup(b) })
			w.later(bgFile(26), bgFile(27))
		}},
	{"squash by a teammate, reset --soft", "As squash by a teammate, but the teammate squashes with git reset --soft and a new commit (a rewrite git does not report).",
		func(w *world) {
			w.squashByMate(bgFile(30), func(b *clone, subject string) {
				b.u.git(b.dir, "reset", "-q", "--soft", "origin/main")
				b.u.git(b.dir, "commit", "-q", "-m", subject)
			})
			w.later(bgFile(30), bgFile(31))
		}},
	{"squash by a teammate, branch deleted", "As squash by a teammate, but the agent's clone deletes its branch once pushed (the teammate took it over) before the squash.",
		func(w *world) {
			w.squashByMate(bgFile(32), func(b *clone, _ string) {
				a := w.mine
				a.switchTo("main")
				a.u.git(a.dir, "branch", "-q", "-D", "feature")
				fixup(b)
			})
			w.later(bgFile(32), bgFile(33))
		}},
	{"amend by a teammate", "Claude Code's commit on a branch, pushed with the notes; a teammate who shares amends it with a line typed into Claude Code's function, pushes, and main fast-forwards to it; the agent's clone pulls.",
		func(w *world) {
			c, f := w.mine, bgFile(28)
			c.branch("feature")
			c.commitFn(fn{&w.claude, f, 0, "auditTrail", 1})
			w.rewrittenByMate(func(b *clone) {
				b.personInsert(f, b.lineOf(f, "func (s *Server) auditTrail(ctx context.Context) error {")+1, []string{"\tdefer s.trace(\"auditTrail\")()"})
				b.amend()
			})
			w.later(f, bgFile(29))
		}},
	{"amend by a teammate, with their agent", "Cursor's commit on a branch, pushed with the notes; a teammate who shares has their own Claude Code conversation add a function to another file, types a line into Cursor's function and amends Cursor's commit with both, pushes, and main fast-forwards to it; the agent's clone pulls.",
		func(w *world) {
			c, f, g := w.mine, bgFile(34), bgFile(35)
			c.branch("feature")
			c.commitFn(fn{&w.cursor, f, 0, "settleInvoice", 0})
			w.rewrittenByMate(func(b *clone) {
				theirs := agent{"claude", "c2d00004-0000-4000-8000-000000000004", false}
				b.put(fn{&theirs, g, 0, "voidInvoice", 2})
				b.personInsert(f, b.lineOf(f, "func settleInvoice(x int) error {")+1, []string{"\tdefer trace(\"settleInvoice\")()"})
				b.amend()
			})
			w.later(f, bgFile(36))
		}},
}

// squashByMate is the squash by a teammate: on a new branch feature, Cursor
// writes a function into f and a person fixes it in a commit of its own
// (one of Cursor's lines rewritten, a function typed); then B squashes the
// branch into one commit with the subject of Cursor's (rewrittenByMate),
// and the truth of that subject becomes the squash's.
func (w *world) squashByMate(f string, squash func(b *clone, subject string)) {
	c := w.mine
	c.branch("feature")
	c.commitFn(fn{&w.cursor, f, 0, "openLedger", 0})
	agentCommit := c.last
	c.personEdit(f, w.cursor.id, "\treturn nil", "\treturn ledgerErr(x)")
	c.put(fn{nil, f, -1, "closeLedger", 1})
	c.commit("fix: ledger by hand")
	fix := c.last
	w.rewrittenByMate(func(b *clone) {
		squash(b, agentCommit)
		w.truth[agentCommit] = w.squashTruth([]string{agentCommit, fix}, b.files, b.branchPaths["feature"])
		b.last = agentCommit
	})
}

// fixup squashes B's branch into its first commit as a person tidying it
// does: git rebase -i, every later commit "fixup".
func fixup(b *clone) {
	b.u.git(b.dir, "-c", "sequence.editor=sed -i -e '2,$s/^pick/fixup/'", "rebase", "-q", "-i", "origin/main")
}

// findings are the scenarios that miss a goal today, by name, with what
// goes wrong: a product issue the harness found, kept until it is fixed.
// The default run, which asserts the goals, leaves them out; the table-only
// run (GIT_CONVO_ACCURACY_REPORT_ONLY=1, as bench.sh runs it) plays them,
// and so does -accuracy.findings, which then fails on their goals.
var findings = map[string]string{
	"amend by a teammate": "the teammate's clone reads Claude Code's lines as copied by rewrite, but that copy is never shared: " +
		"it writes no note of the amended commit (its database holds no conversation of it), and the agent's clone cannot tie the " +
		"amended commit to its own record (the patch changed), so the agent's and every later clone give Claude Code's lines to no one (unknown): recall 0",
	"amend by a teammate, with their agent": "the teammate's note of the amended commit names their own agent's lines only, not Cursor's " +
		"(its copy by rewrite is not shared), so the agent's and the later clone give Cursor's 6 lines to no one (unknown, not a person: " +
		"on 0e04726^, before the last fixes of rewrites, they were a person's); recall 0.625",
	"squash by a teammate, branch deleted": "the agent's clone, its branch gone, recognises the squash by text match only, and " +
		"Cursor's closing brace (below the line a person rewrote) matches nothing distinctive: unknown (a person's before the squash " +
		"reading left unmatched lines unknown); its shared note brings that to the later clone: recall 0.800 there and in the " +
		"agent's clone (the teammate's places the brace by its copy by rewrite: 1.000)",
}

// forgeNote is a hostile teammate: they copy the note of the agent's commit
// onto a person's commit made months before the conversation (one of the 90
// before the scenario that changed file, else the 50th) and push the notes.
func (w *world) forgeNote(agentCommit, file string) {
	u := newUser(w.t, w.root, "mallory", "Mallory", "mallory@example.com")
	dir := filepath.Join(w.root, "mallory-clone")
	u.git("", "clone", "-q", w.remote, dir)
	u.git(dir, "fetch", "-q", "origin", "refs/notes/convo:refs/notes/convo")
	victim := "origin/main~50"
	if old := strings.Fields(u.git(dir, "rev-list", "origin/main~93..origin/main~3", "--", file)); len(old) > 0 {
		victim = old[0]
	}
	note := u.git(dir, "notes", "--ref=convo", "show", agentCommit)
	u.git(dir, "notes", "--ref=convo", "add", "-f", "-m", note, victim)
	u.git(dir, "push", "-q", "origin", "refs/notes/convo")
}

// fn is one function written into file after its k-th function (k < 0:
// counted from the end), by an agent or, when by is nil, a person.
type fn struct {
	by      *agent
	file    string
	k       int
	name    string
	variant int
}

// put writes f's function as its writer would: an agent's turn through its
// hooks, or a person's typing.
func (c *clone) put(f fn) {
	c.t.Helper()
	lines, at := block(f.name, f.variant), c.after(f.file, f.k)
	if f.by == nil {
		c.personInsert(f.file, at, lines)
		return
	}
	c.agentInsert(*f.by, "add "+f.name, f.file, at, lines)
}

// commitFn puts f and commits it alone, as "feat: <name>" ("by hand" for a
// person's): it returns the commit.
func (c *clone) commitFn(f fn) string {
	c.t.Helper()
	c.put(f)
	subject := "feat: " + f.name
	if f.by == nil {
		subject += " by hand"
	}
	return c.commit(subject)
}

// branchWork commits fns on a new branch "feature", one commit each, then
// onMain on main, where it leaves the clone: a branch out while main moves
// on. It returns the branch's commit subjects.
func (w *world) branchWork(onMain fn, fns ...fn) []string {
	c := w.mine
	c.branch("feature")
	var subjects []string
	for _, f := range fns {
		c.commitFn(f)
		subjects = append(subjects, c.last)
	}
	c.switchTo("main")
	c.commitFn(onMain)
	return subjects
}

// indexPaths writes the commit-graph with changed-path filters, as git
// maintenance does in a clone people work in: blame over a long history then
// skips the commits that did not touch the file. It changes no answer, only
// how long the measure takes.
func indexPaths(u *user, dir string) {
	u.git(dir, "commit-graph", "write", "--reachable", "--changed-paths")
}
