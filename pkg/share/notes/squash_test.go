package notes

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/trace"
	"github.com/git-convo/git-convo/pkg/store"
)

// evidenced is a note for commit saying conversation conv wrote lines of path.
func evidenced(commit, conv, path string, lines ...string) *trace.Record {
	in := trace.Input{Commit: commit, Time: time.Unix(1700000000, 0), Writer: "a@example.com",
		Added: map[string][]gitx.AddedLine{}, Writers: map[string]map[int]string{path: {}},
		Links: []trace.Link{{ID: conv, Title: "title of " + conv, Confidence: 0.9, Status: "auto"}}}
	for i, l := range lines {
		in.Added[path] = append(in.Added[path], gitx.AddedLine{Line: i + 1, Text: l})
		in.Writers[path][i+1] = conv
	}
	r := trace.Build(in)
	return &r
}

// history is a repository whose commits are made one by one, a minute
// apart (committer dates increase as on a real server).
type history struct {
	t   *testing.T
	g   Git
	now int64
}

func newHistory(t *testing.T) *history {
	g := Git{Dir: t.TempDir(), Env: gitEnv(t)}
	git(t, g, "", "init", "-q")
	return &history{t: t, g: g, now: 1700000000}
}

// commit writes files (path -> content) and commits them on the current
// branch; it returns the commit.
func (h *history) commit(msg string, files map[string]string) string {
	h.t.Helper()
	for p, body := range files {
		full := filepath.Join(h.g.Dir, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte(body), 0o644)
		git(h.t, h.g, "", "add", p)
	}
	h.now += 60
	date := fmt.Sprintf("GIT_COMMITTER_DATE=%d +0000", h.now)
	g := Git{Dir: h.g.Dir, Env: append(append([]string{}, h.g.Env...), date, "GIT_AUTHOR_"+date[4:])}
	git(h.t, g, "", "commit", "-q", "-m", msg)
	return git(h.t, h.g, "", "rev-parse", "HEAD")
}

// squashOnto makes, as a server does, one commit on main with the tree of
// branch (git commit-tree), and returns it.
func (h *history) squashOnto(branch, msg string) string {
	h.t.Helper()
	h.now += 60
	date := fmt.Sprintf("GIT_COMMITTER_DATE=%d +0000", h.now)
	g := Git{Dir: h.g.Dir, Env: append(append([]string{}, h.g.Env...), date, "GIT_AUTHOR_"+date[4:])}
	c := git(h.t, g, "", "commit-tree", branch+"^{tree}", "-p", "main", "-m", msg)
	git(h.t, h.g, "", "update-ref", "refs/heads/main", c)
	if git(h.t, h.g, "", "branch", "--show-current") == "main" {
		git(h.t, h.g, "", "reset", "-q", "--hard", "main") // the work tree follows, as after a pull
	}
	return c
}

// note writes a note for commit: conv wrote lines (texts) of path, as the
// agent's clone records it (the lines' numbers are looked up in the file).
func (h *history) note(commit, conv, path string, lines ...string) {
	h.t.Helper()
	body := git(h.t, h.g, "", "show", commit+":"+path)
	in := trace.Input{Commit: commit, Time: time.Unix(h.now, 0), Writer: "clone-aaaa",
		Added: map[string][]gitx.AddedLine{}, Writers: map[string]map[int]string{path: {}},
		Links: []trace.Link{{ID: conv, Title: "title of " + conv, Confidence: 1, Status: "auto"}}}
	for i, l := range strings.Split(body, "\n") {
		in.Added[path] = append(in.Added[path], gitx.AddedLine{Line: i + 1, Text: l})
		for _, w := range lines {
			if l == w {
				in.Writers[path][i+1] = conv
			}
		}
	}
	r := trace.Build(in)
	if _, err := h.g.Write(context.Background(), map[string]*trace.Record{commit: &r}, "clone-aaaa", "m"); err != nil {
		h.t.Fatal(err)
	}
}

const (
	apiBase = "package api\n\nimport \"errors\"\n\nfunc Old() error {\n\tif x {\n\t\treturn nil\n\t}\n\treturn errors.New(\"old\")\n}\n"
	limit   = "\nfunc Limit(n int) error {\n\tif n > maxBurst {\n\t\treturn errTooMany\n\t}\n\tbucket.Take(n)\n\treturn nil\n}\n"
)

// limitLines are the lines the agent wrote in Limit.
var limitLines = strings.Split(strings.Trim(limit, "\n"), "\n")

// Squash detection on real histories: a server-side squash of an agent's
// branch is recognised; people's commits that add braces and "return nil"
// to the same file, before or after, never are.
func TestSquashesRecognisedByStructureAndSubstance(t *testing.T) {
	ctx := context.Background()
	h := newHistory(t)
	h.commit("base", map[string]string{"api/api.go": apiBase, "api/other.go": "package api\n"})
	// A person's commit from before any conversation: braces and return nil.
	before := h.commit("human before", map[string]string{"api/api.go": apiBase + "\nfunc A() error {\n\treturn nil\n}\n"})
	git(t, h.g, "", "checkout", "-q", "-b", "feature")
	agent := h.commit("agent", map[string]string{"api/api.go": apiBase + "\nfunc A() error {\n\treturn nil\n}\n" + limit})
	h.note(agent, "conv-sq", "api/api.go", limitLines...)
	git(t, h.g, "", "checkout", "-q", "main")
	// A person's commit after the agent's, on main: the same braces and
	// return nil, and one line of Limit's (a coincidence).
	after := h.commit("human after", map[string]string{"api/api.go": apiBase + "\nfunc A() error {\n\treturn nil\n}\n\nfunc B() error {\n\tbucket.Take(n)\n\treturn nil\n}\n"})
	squash := h.squashOnto("feature", "Limits (#7)")
	// A rename on a second branch, squashed too: the file moved, the lines stayed.
	git(t, h.g, "", "checkout", "-q", "-b", "moved", agent)
	git(t, h.g, "", "mv", "api/api.go", "api/limits.go")
	renamed := h.commit("rename", map[string]string{})
	git(t, h.g, "", "checkout", "-q", "main")
	git(t, h.g, "", "reset", "-q", "--hard", after) // main without the first squash
	movedSquash := h.squashOnto("moved", "Limits, moved (#8)")
	if r := git(t, h.g, "", "diff", "--name-status", "-M", renamed+"^", renamed); !strings.HasPrefix(r, "R100") {
		t.Fatalf("not a rename: %s", r)
	}

	got, err := h.g.SquashesIn(ctx, []string{"--no-walk", squash, movedSquash, before, after}, BuildOptions{Writer: "clone-bbbb"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, commit string
		want         bool
	}{
		{"the squash", squash, true},
		{"the squash of a renamed file", movedSquash, true},
		{"a person's commit before the conversation", before, false},
		{"a person's commit after, with braces, return nil and one line of the agent's", after, false},
	} {
		rec, ok := got[c.commit]
		if ok != c.want {
			t.Errorf("%s: derived %v, want %v (%+v)", c.name, ok, c.want, rec)
			continue
		}
		if !ok {
			continue
		}
		m, _ := rec.Meta()
		cm := m.Conversations["conv-sq"]
		if !strings.HasPrefix(cm.Reason, "squash of "+agent[:7]+": ") || cm.Derived != DerivedSquash || cm.Confidence != 1 || m.Writer != "clone-bbbb" {
			t.Errorf("%s: %+v (writer %q)", c.name, cm, m.Writer)
		}
		checkSharer(t, c.commit, rec, "conv-sq", "clone-aaaa", "clone-bbbb")
		// The squash's diff keeps the lines B shares with Limit as context;
		// the moved file's diff adds them all, and A's brace and return
		// nil just before Limit stay A's.
		if cm.WrittenLines < 4 || cm.WrittenLines > len(limitLines) || c.commit == movedSquash && cm.WrittenLines != len(limitLines) {
			t.Errorf("%s: %d lines given to the conversation, want 4 to %d", c.name, cm.WrittenLines, len(limitLines))
		}
	}
}

// A candidate must reproduce a real share of the conversation's
// distinctive lines, in runs; its confidence follows the share.
func TestSquashShareAndRuns(t *testing.T) {
	fn := func(name string, n int) string {
		var b strings.Builder
		fmt.Fprintf(&b, "\nfunc %s() {\n", name)
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "\tstep%s%d(ctx, %d)\n", name, i, i*7)
		}
		b.WriteString("}\n")
		return b.String()
	}
	wrote := fn("Wrote", 10)
	for _, tc := range []struct {
		name     string
		squashed string // what the squash adds instead of wrote
		want     float64
	}{
		{"all of it", wrote, 1},
		{"six of ten lines, in a run", fn("Wrote", 6), 0.64}, // 7 of 11 with the signature
		{"four of ten lines", fn("Wrote", 4), 0},
		{"ten lines, each alone between a person's", interleave(wrote), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHistory(t)
			h.commit("base", map[string]string{"w.go": "package w\n"})
			git(t, h.g, "", "checkout", "-q", "-b", "feature")
			agent := h.commit("agent", map[string]string{"w.go": "package w\n" + wrote})
			h.note(agent, "conv", "w.go", strings.Split(wrote, "\n")...)
			git(t, h.g, "", "checkout", "-q", "-b", "shaped", "main")
			h.commit("as merged", map[string]string{"w.go": "package w\n" + tc.squashed})
			git(t, h.g, "", "checkout", "-q", "main")
			squash := h.squashOnto("shaped", "merged")
			got, err := h.g.SquashesIn(context.Background(), []string{"--no-walk", squash}, BuildOptions{Writer: "w"})
			if err != nil {
				t.Fatal(err)
			}
			rec, ok := got[squash]
			if !ok {
				if tc.want != 0 {
					t.Fatalf("not recognised, want confidence %v", tc.want)
				}
				return
			}
			m, _ := rec.Meta()
			if c := m.Conversations["conv"].Confidence; c != tc.want {
				t.Errorf("confidence %v, want %v (%s)", c, tc.want, m.Conversations["conv"].Reason)
			}
		})
	}
}

// interleave puts a person's line between each line of a function.
func interleave(fn string) string {
	var b strings.Builder
	for i, l := range strings.Split(fn, "\n") {
		fmt.Fprintf(&b, "%s\n\tperson(%d)\n", l, i)
	}
	return b.String()
}

// A teammate's note is a claim. A hostile note attached to an old commit,
// naming the victim's conversation with the hashes of lines a person typed
// later, never makes that person's commit a squash; a record about another
// commit than the one it is attached to is not read at all.
func TestSquashHostileNotes(t *testing.T) {
	ctx := context.Background()
	h := newHistory(t)
	old := h.commit("old", map[string]string{"x/x.go": "package x\n\nfunc Old() {}\n"})
	typed := "\nfunc Typed(a, b int) int {\n\tsum := a*31 + b\n\treturn sum ^ magic\n}\n"
	person := h.commit("a person types", map[string]string{"x/x.go": "package x\n\nfunc Old() {}\n" + typed})
	lines := strings.Split(strings.Trim(typed, "\n"), "\n")
	// The forged note: on the old commit, evidence of the person's lines.
	forged := evidenced(old, "conv-victim", "x/x.go", lines...)
	// A copy of a record about the person's commit, attached to the old one.
	copied := evidenced(person, "conv-victim", "x/x.go", lines...)
	unrelated := h.commit("unrelated", map[string]string{"y.go": "package y\n"})
	if _, err := h.g.Write(ctx, map[string]*trace.Record{old: forged, unrelated: copied}, "clone-evil", "m"); err != nil {
		t.Fatal(err)
	}
	got, err := h.g.SquashesIn(ctx, []string{"--no-walk", person}, BuildOptions{Writer: "w"})
	if err != nil || len(got) != 0 {
		t.Fatalf("the person's commit was derived from a forged note: %v %v", got, err)
	}
	rd := NewReader(ctx, h.g.Dir)
	defer rd.Close()
	recs, err := rd.Records(ctx, []string{unrelated, old})
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := recs[unrelated]; ok && len(Linked(unrelated, r)) > 0 {
		t.Errorf("a record about %s read on %s: %+v", person[:7], unrelated[:7], Linked(unrelated, r))
	}
}

// The refresh (Update, from the store) never deletes what it did not write:
// a derived record, a withdrawal. Withdrawn links are ignored by readers and
// by later derivations, whoever wrote them.
func TestRefreshKeepsDerivedAndWithdrawals(t *testing.T) {
	ctx := context.Background()
	h := newHistory(t)
	h.commit("base", map[string]string{"w.go": "package w\n"})
	git(t, h.g, "", "checkout", "-q", "-b", "feature")
	wrote := "\nfunc Wrote() {\n\tstepOne(ctx, 1)\n\tstepTwo(ctx, 2)\n\tstepThree(ctx, 3)\n}\n"
	agent := h.commit("agent", map[string]string{"w.go": "package w\n" + wrote})
	h.note(agent, "conv", "w.go", strings.Split(wrote, "\n")...)
	git(t, h.g, "", "checkout", "-q", "main")
	squash := h.squashOnto("feature", "merged")
	got, err := h.g.SquashesIn(ctx, []string{"--no-walk", squash}, BuildOptions{Writer: "clone-bbbb"})
	if err != nil || len(got) != 1 {
		t.Fatalf("%v %v", got, err)
	}
	r := got[squash]
	// A first prompt the teammate shared: what a refresh with prompts off
	// would take from a forgotten conversation of this clone's own.
	m, _ := r.Meta()
	c := m.Conversations["conv"]
	c.FirstPrompt = "the teammate's prompt"
	m.Conversations["conv"] = c
	r.SetMeta(m)
	if _, err := h.g.Write(ctx, map[string]*trace.Record{squash: &r}, "clone-bbbb", "m"); err != nil {
		t.Fatal(err)
	}
	linked := func() []string {
		rd := NewReader(ctx, h.g.Dir)
		defer rd.Close()
		recs, err := rd.Records(ctx, []string{squash})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, lc := range Linked(squash, recs[squash]) {
			ids = append(ids, lc.ConversationID)
		}
		return ids
	}
	// The store has no link for the squash: the refresh writes nil.
	refresh := func() {
		if _, err := h.g.write(ctx, map[string]*trace.Record{squash: nil}, "clone-bbbb", "refresh", refreshedKnown); err != nil {
			t.Fatal(err)
		}
	}
	refresh()
	if ids := linked(); len(ids) != 1 || ids[0] != "conv" {
		t.Fatalf("after a refresh, the squash's links: %v", ids)
	}
	// The store never had the teammate's conversation ("forgot" says so of
	// every id): the derived link is kept as it was, not as a forgotten
	// conversation of this clone's (clipped, re-shared).
	note := func() string {
		texts, err := h.g.Read(ctx, []string{Ref}, map[string]bool{squash: true})
		if err != nil {
			t.Fatal(err)
		}
		return string(texts[squash])
	}
	before := note()
	forgotAll := func(commit string, built *trace.Record, olds []trace.Record) *trace.Record {
		return refreshed(commit, built, lastOf(olds), func(_ string, ids []string) map[string]bool {
			out := map[string]bool{}
			for _, id := range ids {
				out[id] = true
			}
			return out
		}, BuildOptions{})
	}
	if _, err := h.g.write(ctx, map[string]*trace.Record{squash: nil}, "clone-bbbb", "refresh", forgotAll); err != nil {
		t.Fatal(err)
	}
	if after := note(); after != before {
		t.Errorf("a refresh by a store that never had the derived link's conversation changed it:\n%s\n%s", before, after)
	}
	// Another clone withdraws it (unlink): every reader drops it.
	git(t, h.g, "", "config", KeyWriter, "clone-cccc")
	if err := h.g.Withdraw(ctx, squash, "conv", "false", Settings{On: true}); err != nil {
		t.Fatal(err)
	}
	if ids := linked(); len(ids) != 0 {
		t.Fatalf("withdrawn, still linked: %v", ids)
	}
	refresh()
	if ids := linked(); len(ids) != 0 {
		t.Fatalf("withdrawn, linked again after a refresh: %v", ids)
	}
	links, err := h.g.DerivedLinks(ctx, BuildOptions{})
	if err != nil || len(links) != 0 {
		t.Errorf("derived links after the withdrawal: %+v %v", links, err)
	}
	// The commit has a note now: no clone derives it again.
	if again, err := h.g.SquashesIn(ctx, []string{"--no-walk", squash}, BuildOptions{}); err != nil || len(again) != 0 {
		t.Errorf("derived again: %v %v", again, err)
	}
}

// Old records (before links were marked derived) still read, labelled as
// the old rule's; share clean finds those today's rules would not make.
func TestDerivedLinksOldRule(t *testing.T) {
	ctx := context.Background()
	h := newHistory(t)
	base := h.commit("base", map[string]string{"w.go": "package w\n"})
	person := h.commit("a person", map[string]string{"w.go": "package w\n\nfunc P() error {\n\treturn nil\n}\n"})
	old := evidenced(person, "conv", "w.go", "}", "\treturn nil")
	m, _ := old.Meta()
	c := m.Conversations["conv"]
	c.Reason = "squash of " + base[:7]
	m.Conversations["conv"] = c
	old.SetMeta(m)
	if _, err := h.g.Write(ctx, map[string]*trace.Record{person: old}, "a@example.com", "m"); err != nil {
		t.Fatal(err)
	}
	links, err := h.g.DerivedLinks(ctx, BuildOptions{})
	if err != nil || len(links) != 1 {
		t.Fatalf("%+v %v", links, err)
	}
	if l := links[0]; !l.OldRule || !l.Stale || l.Unchecked || !l.Shared || l.Commit != person || l.Writer != "a@example.com" {
		t.Errorf("%+v", l)
	}
	// Naming a commit this clone lacks, it cannot be judged here.
	c.Reason = "squash of 1234567"
	m.Conversations["conv"] = c
	old.SetMeta(m)
	if _, err := h.g.Write(ctx, map[string]*trace.Record{person: old}, "a@example.com", "m"); err != nil {
		t.Fatal(err)
	}
	if links, err := h.g.DerivedLinks(ctx, BuildOptions{}); err != nil || len(links) != 1 || links[0].Stale || !links[0].Unchecked {
		t.Errorf("a link naming a missing commit: %+v %v", links, err)
	}
}

// checkSharer fails unless derived record rec gives conv's link to sharer,
// the teammate whose note it came from, and readers show it so: "shared by"
// the sharer, derived by deriver (this clone), never the other way round.
func checkSharer(t *testing.T, commit string, rec trace.Record, conv, sharer, deriver string) {
	t.Helper()
	m, _ := rec.Meta()
	if got := m.Conversations[conv].SharedBy; got != sharer {
		t.Errorf("%s: the derived link's shared_by = %q, want %q", commit[:7], got, sharer)
	}
	for _, lc := range Linked(commit, rec) {
		if lc.ConversationID == conv && (lc.SharedBy != sharer || lc.DerivedBy != deriver) {
			t.Errorf("%s: read as shared by %q, derived by %q; want %q, %q", commit[:7], lc.SharedBy, lc.DerivedBy, sharer, deriver)
		}
	}
}

// A squash recognised by text alone (the branch it joined is gone, its
// tip's files not the squash's) cannot tell who wrote a line it did not
// match: a closing brace below a line a person rewrote, a function typed
// beside. Those lines are unknown, never a person's, while the matched
// run stays the conversation's.
func TestSquashByTextLeavesUnmatchedUnknown(t *testing.T) {
	const wrote = "\nfunc openLedger(x int) error {\n\tif x < 0 {\n\t\treturn fmt.Errorf(\"openLedger: %d\", x)\n\t}\n\treturn nil\n}\n"
	typed := "\nfunc closeLedger(y int) error {\n\treturn shutLedger(y * 2)\n}\n"
	rewrote := strings.Replace(wrote, "\treturn nil\n", "\treturn ledgerErr(x)\n", 1)
	for _, tc := range []struct {
		name, fix string
		want      map[string]string // line text -> contributor type
	}{
		{"a line rewritten above the brace", rewrote, map[string]string{
			"func openLedger(x int) error {": "ai", "\treturn ledgerErr(x)": "unknown", "}": "unknown"}},
		{"a function typed after", wrote + typed, map[string]string{
			"func openLedger(x int) error {": "ai", "\treturn shutLedger(y * 2)": "unknown"}},
		{"both", rewrote + typed, map[string]string{
			"\t\treturn fmt.Errorf(\"openLedger: %d\", x)": "ai", "\treturn ledgerErr(x)": "unknown",
			"func closeLedger(y int) error {": "unknown"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			h := newHistory(t)
			h.commit("base", map[string]string{"l/l.go": "package l\n\nimport \"fmt\"\n"})
			git(t, h.g, "", "checkout", "-q", "-b", "feature")
			agent := h.commit("agent", map[string]string{"l/l.go": "package l\n\nimport \"fmt\"\n" + wrote})
			h.note(agent, "conv", "l/l.go", strings.Split(wrote, "\n")...)
			h.commit("fix by hand", map[string]string{"l/l.go": "package l\n\nimport \"fmt\"\n" + tc.fix})
			git(t, h.g, "", "checkout", "-q", "main")
			squash := h.squashOnto("feature", "ledger (#9)")
			git(t, h.g, "", "branch", "-q", "-D", "feature") // its tip gone: text alone
			got, err := h.g.SquashesIn(ctx, []string{"--no-walk", squash}, BuildOptions{Writer: "w"})
			if err != nil {
				t.Fatal(err)
			}
			rec, ok := got[squash]
			if !ok {
				t.Fatal("the squash is not recognised")
			}
			body := strings.Split(git(t, h.g, "", "show", squash+":l/l.go"), "\n")
			types := map[string][]string{}
			for _, f := range rec.Files {
				for _, c := range f.Conversations {
					for _, r := range c.Ranges {
						for n := r.StartLine; n <= r.EndLine; n++ {
							types[body[n-1]] = append(types[body[n-1]], c.Contributor.Type)
						}
					}
				}
			}
			for line, want := range tc.want {
				if g := types[line]; len(g) == 0 || g[len(g)-1] != want {
					t.Errorf("%q: %v, want %s", line, g, want)
				}
			}
			for line, ts := range types {
				for _, ty := range ts {
					if ty == "human" {
						t.Errorf("%q given to a person by a text match", line)
					}
				}
			}
		})
	}
}

// A commit this clone examined itself keeps its verdict against a
// teammate's record of it, but for a derived one (a squash of teammates'
// commits, made here by git reset --soft): its conversation's lines fill
// the lines no local conversation wrote, and where it read them by text,
// the rest are unknown, no longer a person's.
func TestMergeDerivedLinesIntoExamined(t *testing.T) {
	ctx := context.Background()
	const body = "package w\n\nfunc W() {\n\tstepOne(ctx, 1)\n\tstepTwo(ctx, 2)\n}\n"
	for _, tc := range []struct {
		name         string
		derived      string // the record's link: "" recorded, else derived
		unknownRest  bool   // the record gives line 1 to no one
		wantWriter   bool   // line 4 given to the record's conversation
		wantRecorded bool
	}{
		{"a teammate's record", "", false, false, true},
		{"a derived record, by position", DerivedSquash, false, true, true},
		{"a derived record, by text", DerivedSquash, true, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHistory(t)
			h.commit("base", map[string]string{"x.go": "package x\n"})
			c := h.commit("squash here", map[string]string{"w.go": body})
			in := trace.Input{Commit: c, Time: time.Unix(h.now, 0), Writer: "clone-aaaa", Unexamined: tc.unknownRest,
				Added: map[string][]gitx.AddedLine{}, Writers: map[string]map[int]string{"w.go": {}},
				Links: []trace.Link{{ID: "conv", Confidence: 1, Status: "auto", Derived: tc.derived}}}
			for i, l := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
				in.Added["w.go"] = append(in.Added["w.go"], gitx.AddedLine{Line: i + 1, Text: l})
				if i >= 2 {
					in.Writers["w.go"][i+1] = "conv"
				}
			}
			r := trace.Build(in)
			if _, err := h.g.Write(ctx, map[string]*trace.Record{c: &r}, "clone-aaaa", "m"); err != nil {
				t.Fatal(err)
			}
			git(t, h.g, "", "update-ref", TrackingRef("origin"), Ref)
			rd := NewReader(ctx, h.g.Dir)
			defer rd.Close()
			writers := map[string]map[string]map[int]store.LineWriter{}
			recorded := map[string]bool{c: true}
			if err := rd.MergeDerivedLinesIn(ctx, []string{c}, []string{"w.go"}, writers, recorded); err != nil {
				t.Fatal(err)
			}
			_, got := writers[c]["w.go"][4]
			if got != tc.wantWriter || recorded[c] != tc.wantRecorded {
				t.Errorf("line 4 given %v, examined %v; want %v, %v", got, recorded[c], tc.wantWriter, tc.wantRecorded)
			}
		})
	}
}

// This clone's record of a commit that reproduces a teammate's noted lines
// (withSquashed): their conversation's lines join it as a derived link when
// the reading may be shared; the lines no one wrote are a person's only when
// that reading placed every line by position.
func TestWithSquashed(t *testing.T) {
	lines := []gitx.AddedLine{{Line: 1, Text: "mine()"}, {Line: 2, Text: "theirs(1)"}, {Line: 3, Text: "theirs(2)"}, {Line: 4, Text: "typed()"}}
	for _, tc := range []struct {
		name       string
		conf       float64
		unexamined bool   // sq names no one for line 4
		sharer     string // who shared the noted lines
		want       string // contributor of lines 1..4
	}{
		{"by text", 1, true, "clone-a", "ai:mine ai:theirs ai:theirs unknown"},
		{"by position", 1, false, "clone-a", "ai:mine ai:theirs ai:theirs human"},
		{"too weak to share", 0.5, false, "clone-a", "ai:mine unknown unknown unknown"},
		{"this clone's own notes, fetched back", 1, true, "clone-b", "ai:mine human human human"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sq := trace.Build(trace.Input{Commit: "c", Added: map[string][]gitx.AddedLine{"f.go": lines}, Unexamined: tc.unexamined,
				Writers: map[string]map[int]string{"f.go": {2: "theirs", 3: "theirs"}},
				Links:   []trace.Link{{ID: "theirs", Confidence: tc.conf, Derived: DerivedSquash, SharedBy: tc.sharer}}})
			in := trace.Input{Commit: "c", Added: map[string][]gitx.AddedLine{"f.go": lines}, Writer: "clone-b",
				Writers: map[string]map[int]string{"f.go": {1: "mine"}}, Links: []trace.Link{{ID: "mine", Confidence: 1}}}
			withSquashed(&in, sq)
			got := make([]string, len(lines))
			for _, f := range trace.Build(in).Files {
				for _, c := range f.Conversations {
					who := c.Contributor.Type
					if id := trace.ConversationID(c.URL); id != "" {
						who += ":" + id
					}
					for _, r := range c.Ranges {
						for n := r.StartLine; n <= r.EndLine; n++ {
							got[n-1] = who
						}
					}
				}
			}
			if g := strings.Join(got, " "); g != tc.want {
				t.Errorf("%s, want %s", g, tc.want)
			}
		})
	}
}
