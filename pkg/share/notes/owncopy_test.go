package notes

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/share/trace"
)

// ownCopy makes this clone's record that git copied onto a commit it
// rewrote a record about that commit: the lines moved where the rewrite
// put them, a changed line no one's, the evidence of a file so cut dropped
// and its written lines capped; a refresh then keeps the forgotten
// conversation's entry there, never on a line the rebuilt record gives
// another conversation. A copy from a commit not rewritten into it, or a
// record about the commit itself, is left as it is.
func TestOwnCopy(t *testing.T) {
	ctx := context.Background()
	const base = "package a\n"
	const fn = "\nfunc A() int {\n\treturn 1\n}\n" // lines 2-5 of c, X's 3-5
	const bBody = "package b\n\nfunc B() {}\n"     // Y's 1 and 3
	h := newHistory(t)
	root := h.commit("base", map[string]string{"a.go": base})
	git(t, h.g, "", "checkout", "-q", "-b", "c")
	c := h.commit("X and Y", map[string]string{"a.go": base + fn, "b.go": bBody})
	variant := func(name string, files map[string]string) string {
		git(t, h.g, "", "checkout", "-q", "-b", name, root)
		return h.commit("rewritten", files)
	}
	shifted := variant("shifted", map[string]string{"a.go": "// Package a.\n" + base + fn, "b.go": bBody})
	changed := variant("changed", map[string]string{"a.go": base + strings.Replace(fn, "return 1", "return 2", 1), "b.go": bBody})
	gone := variant("gone", map[string]string{"b.go": bBody})
	other := variant("other", map[string]string{"a.go": base + fn, "b.go": bBody})

	record := func(commit string, writers map[string]map[int]string, links ...trace.Link) *trace.Record {
		d, err := h.g.diffs(ctx, []string{commit})
		if err != nil {
			t.Fatal(err)
		}
		r := trace.Build(trace.Input{Commit: commit, Time: time.Unix(1700000000, 0), Added: d[commit].added, Writers: writers,
			Links: links, Writer: "clone-a"})
		return &r
	}
	x := trace.Link{ID: "conv-x", Agent: "cursor", Title: "X", Confidence: 0.8, Status: "auto", Reason: "lines", WrittenLines: 3, AddedLines: 7, MatchedFiles: []string{"a.go"}}
	y := trace.Link{ID: "conv-y", Agent: "cursor", Title: "Y", Confidence: 0.7, Status: "auto", Reason: "lines", WrittenLines: 2, AddedLines: 7}
	old := record(c, map[string]map[int]string{"a.go": {3: "conv-x", 4: "conv-x", 5: "conv-x"}, "b.go": {1: "conv-y", 3: "conv-y"}}, x, y)
	preds := func(commit string) []string {
		if commit == other {
			return nil
		}
		return []string{c}
	}
	forgot := func(_ string, ids []string) map[string]bool {
		out := map[string]bool{}
		for _, id := range ids {
			out[id] = id == "conv-x"
		}
		return out
	}
	for _, tc := range []struct {
		name      string
		commit    string
		old       *trace.Record
		same      bool  // old comes back as it was
		dropped   bool  // X has no entry: commit adds none of its lines
		xLines    []int // X's lines of a.go in the moved record, and in the refreshed one
		evidence  bool  // X's evidence of a.go kept
		written   int   // X's written lines
		built     map[string]map[int]string
		alone     bool  // nothing rebuilt: the store links nothing to the commit
		keptLines []int // X's lines of a.go after a refresh against built (built: Y's)
	}{
		{name: "amend above X's lines", commit: shifted, old: old, xLines: []int{4, 5, 6}, evidence: true, written: 3,
			built: map[string]map[int]string{"b.go": {1: "conv-y", 3: "conv-y"}}, keptLines: []int{4, 5, 6}},
		{name: "a moved line now another conversation's", commit: shifted, old: old, xLines: []int{4, 5, 6}, evidence: true, written: 3,
			built: map[string]map[int]string{"a.go": {5: "conv-y"}, "b.go": {1: "conv-y", 3: "conv-y"}}, keptLines: []int{4, 6}},
		{name: "X alone on the commit", commit: shifted, old: old, xLines: []int{4, 5, 6}, evidence: true, written: 3,
			alone: true, keptLines: []int{4, 5, 6}},
		{name: "amend of one of X's lines", commit: changed, old: old, xLines: []int{3, 5}, written: 2,
			built: map[string]map[int]string{"b.go": {1: "conv-y", 3: "conv-y"}}, keptLines: []int{3, 5}},
		{name: "X's file gone", commit: gone, old: old, dropped: true,
			built: map[string]map[int]string{"b.go": {1: "conv-y", 3: "conv-y"}}},
		{name: "not rewritten from the copy's commit", commit: other, old: old, same: true},
		{name: "the commit's own record", commit: c, old: old, same: true},
		{name: "no record", commit: shifted, same: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := ""
			if tc.old != nil {
				before = string(Encode([]trace.Record{*tc.old}))
			}
			got := h.g.ownCopy(ctx, tc.commit, tc.old, &carrier{preds: preds, budget: rewriteDiffsMax})
			if tc.old != nil && string(Encode([]trace.Record{*tc.old})) != before {
				t.Fatal("ownCopy changed the record it was given")
			}
			if tc.same {
				if got != tc.old {
					t.Fatalf("got another record: %v", got)
				}
				return
			}
			if got.VCS.Revision != tc.commit {
				t.Errorf("revision %s, want %s", got.VCS.Revision, tc.commit)
			}
			if l := aiLines(*got, "conv-x")["a.go"]; !reflect.DeepEqual(l, tc.xLines) {
				t.Errorf("X's lines %v, want %v", l, tc.xLines)
			}
			m, _ := got.Meta()
			cm, ok := m.Conversations["conv-x"]
			if tc.dropped {
				// None of X's lines is left: X claims nothing of commit, not
				// even "its lines the rewrite did not change".
				r := refreshed(tc.commit, record(tc.commit, tc.built, y), got, forgot, BuildOptions{})
				if rm, _ := r.Meta(); ok || rm.Conversations["conv-x"].Title != "" {
					t.Errorf("X kept on a commit that adds none of its lines: %+v, refreshed %+v", cm, rm.Conversations["conv-x"])
				}
				return
			}
			// Its text speaks of the new commit: no count of the old one's.
			var files []string
			if len(tc.xLines) > 0 {
				files = []string{"a.go"}
			}
			if cm.WrittenLines != tc.written || cm.Reason != carriedNote(c) || cm.AddedLines != 0 || !reflect.DeepEqual(cm.MatchedFiles, files) {
				t.Errorf("X's entry %+v, want written %d, files %v", cm, tc.written, files)
			}
			hasEv := false
			for _, e := range m.Evidence {
				hasEv = hasEv || e.Conversation == "conv-x" && e.Path == "a.go"
			}
			if hasEv != tc.evidence {
				t.Errorf("X's evidence of a.go kept: %v, want %v", hasEv, tc.evidence)
			}

			// The refresh keeps X (forgotten here) beside the rebuilt record.
			built := record(tc.commit, tc.built, y)
			if tc.alone {
				built = nil
			}
			r := refreshed(tc.commit, built, got, forgot, BuildOptions{})
			if l := aiLines(*r, "conv-x")["a.go"]; !reflect.DeepEqual(l, tc.keptLines) {
				t.Errorf("X's lines after the refresh %v, want %v\n%s", l, tc.keptLines, Encode([]trace.Record{*r}))
			}
			if _, twice := contributors(*r, "a.go"); len(twice) > 0 {
				t.Errorf("lines given twice: %v\n%s", twice, Encode([]trace.Record{*r}))
			}
			if m, _ := r.Meta(); r.VCS.Revision != tc.commit || m.Conversations["conv-x"].Title != "X" {
				t.Errorf("refreshed: revision %s, X %+v", r.VCS.Revision, m.Conversations["conv-x"])
			}
		})
	}
}

// shiftedHistory is c, a commit adding a.go onto root, and n, the same
// rewritten onto root with a line above.
func shiftedHistory(t *testing.T) (h *history, root, c, n string) {
	const body = "package a\n\nfunc A() int {\n\treturn 1\n}\n"
	h = newHistory(t)
	root = h.commit("base", map[string]string{"b.go": "package b\n"})
	git(t, h.g, "", "checkout", "-q", "-b", "c")
	c = h.commit("X", map[string]string{"a.go": body})
	git(t, h.g, "", "checkout", "-q", "-b", "new", root)
	n = h.commit("X, with a line above", map[string]string{"a.go": "// A.\n" + body})
	return h, root, c, n
}

// ownOld: git concatenates a record it copies by rewrite with one already
// on the new commit (a hook wrote it first), in either order; the refresh
// starts from both, the copy moved, each conversation once, the hook's
// record's lines of a conversation its own, its others yielding to the
// copy's (no line given twice). Without a copy
// from a commit rewritten into it, the note's last record, as before.
func TestOwnOld(t *testing.T) {
	ctx := context.Background()
	h, root, c, n := shiftedHistory(t)
	rec := func(commit string, writers map[string]int, links ...trace.Link) trace.Record {
		d, err := h.g.diffs(ctx, []string{commit})
		if err != nil {
			t.Fatal(err)
		}
		w := map[string]map[int]string{"a.go": {}}
		for id, line := range writers {
			w["a.go"][line] = id
		}
		return trace.Build(trace.Input{Commit: commit, Time: time.Unix(1700000000, 0), Added: d[commit].added, Writers: w, Links: links, Writer: "clone-a"})
	}
	x := trace.Link{ID: "conv-x", Title: "X", Confidence: 0.8, Status: "auto", WrittenLines: 1}
	y := trace.Link{ID: "conv-y", Title: "Y", Confidence: 0.7, Status: "auto", WrittenLines: 1}
	copied := rec(c, map[string]int{"conv-x": 3}, x)       // X's line 3 of c: line 4 of n
	hooked := rec(n, map[string]int{"conv-y": 1}, y)       // written on n before git copied
	unrelated := rec(root, map[string]int{"conv-x": 1}, x) // about a commit n was not rewritten from
	yTook := rec(n, map[string]int{"conv-y": 4}, y)        // the hook's record gives X's moved line to Y
	preds := func(string) []string { return []string{c} }
	for _, tc := range []struct {
		name    string
		olds    []trace.Record
		want    string // the result's revision: "n", or "last" (olds' last, as it was)
		x, y    []int  // X's and Y's lines of a.go
		written int    // X's written lines
	}{
		{name: "the copy alone", olds: []trace.Record{copied}, want: "n", x: []int{4}, written: 1},
		{name: "the hook's record, then the copy", olds: []trace.Record{hooked, copied}, want: "n", x: []int{4}, y: []int{1}, written: 1},
		{name: "the copy, then the hook's record", olds: []trace.Record{copied, hooked}, want: "n", x: []int{4}, y: []int{1}, written: 1},
		{name: "the hook's record gives X's line to another", olds: []trace.Record{yTook, copied}, want: "n", y: []int{4}, written: 0},
		{name: "the copy twice", olds: []trace.Record{copied, copied}, want: "n", x: []int{4}, written: 1},
		{name: "no copy", olds: []trace.Record{hooked}, want: "last", y: []int{1}},
		{name: "a copy of a commit not rewritten into it", olds: []trace.Record{hooked, unrelated}, want: "last", x: []int{1}, written: 1},
		{name: "none", want: "last"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := h.g.ownOld(ctx, n, tc.olds, nil, &carrier{preds: preds, budget: rewriteDiffsMax})
			if tc.want == "last" {
				if last := lastOf(tc.olds); got != last {
					t.Fatalf("got %v, want the note's last record %v", got, last)
				}
				return
			}
			if got.VCS.Revision != n {
				t.Errorf("revision %s, want %s", got.VCS.Revision, n)
			}
			if l := aiLines(*got, "conv-x")["a.go"]; !reflect.DeepEqual(l, tc.x) {
				t.Errorf("X's lines %v, want %v", l, tc.x)
			}
			if l := aiLines(*got, "conv-y")["a.go"]; !reflect.DeepEqual(l, tc.y) {
				t.Errorf("Y's lines %v, want %v", l, tc.y)
			}
			if m, _ := got.Meta(); m.Conversations["conv-x"].WrittenLines != tc.written || m.Writer != "clone-a" {
				t.Errorf("X's entry %+v, writer %q", m.Conversations["conv-x"], m.Writer)
			}
			// The hook's record gave the lines of no conversation to a
			// person: none of X's is a person's too.
			if types, twice := contributors(*got, "a.go"); len(twice) > 0 {
				t.Errorf("lines given twice: %v (%s)\n%s", twice, types, Encode([]trace.Record{*got}))
			}
		})
	}
}

// typedLines is each conversation's lines of a.go in r by contributor
// type ("mixed:conv-x").
func typedLines(r trace.Record) map[string][]int {
	out := map[string][]int{}
	for _, f := range r.Files {
		if f.Path != "a.go" {
			continue
		}
		for _, c := range f.Conversations {
			if c.URL == "" || c.Contributor == nil {
				continue
			}
			k := c.Contributor.Type + ":" + trace.ConversationID(c.URL)
			for _, rg := range c.Ranges {
				for l := rg.StartLine; l <= rg.EndLine; l++ {
					out[k] = append(out[k], l)
				}
			}
		}
	}
	return out
}

// No join of ownOld changes an entry's contributor type: the record about
// the commit keeps its view of a conversation whole (a copy's entries of a
// conversation it names are left out), and of two copies giving one
// conversation's lines of a file as different types, the first stands (a
// person's "mixed" line is never shown as an AI's, nor the reverse).
func TestOwnOldKeepsContributorTypes(t *testing.T) {
	ctx := context.Background()
	const body = "package a\n\nfunc A() int {\n\treturn 1\n}\n"
	h := newHistory(t)
	root := h.commit("base", map[string]string{"b.go": "package b\n"})
	var c, c2, n string // c and c2 squashed into n, each adding a.go
	for _, b := range []struct {
		name string
		to   *string
	}{{"c", &c}, {"c2", &c2}, {"new", &n}} {
		git(t, h.g, "", "checkout", "-q", "-b", b.name, root)
		*b.to = h.commit(b.name, map[string]string{"a.go": body})
	}
	x := trace.Link{ID: "conv-x", Agent: "cursor", Model: "gpt-5", Title: "X", Confidence: 0.8, Status: "auto", WrittenLines: 1}
	y := trace.Link{ID: "conv-y", Agent: "cursor", Model: "gpt-5", Title: "Y", Confidence: 0.7, Status: "auto", WrittenLines: 1}
	rec := func(commit string, w map[int]string, links ...trace.Link) trace.Record {
		d, err := h.g.diffs(ctx, []string{commit})
		if err != nil {
			t.Fatal(err)
		}
		return trace.Build(trace.Input{Commit: commit, Time: time.Unix(1700000000, 0), Added: d[commit].added,
			Writers: map[string]map[int]string{"a.go": w}, Links: links, Writer: "clone-a"})
	}
	selfAI := rec(n, map[int]string{4: "conv-x"}, x)
	selfMixed := rec(n, map[int]string{4: "mixed:conv-x"}, x)
	copyMixed := rec(c, map[int]string{1: "mixed:conv-x", 2: "conv-y"}, x, y)
	copyAI := rec(c, map[int]string{1: "conv-x", 3: "conv-x"}, x)
	copy2Mixed := rec(c2, map[int]string{5: "mixed:conv-x"}, x)
	preds := func(string) []string { return []string{c, c2} }
	for _, tc := range []struct {
		name string
		olds []trace.Record
		want map[string][]int
	}{
		{name: "the record about the commit names X (ai), a copy gives X mixed lines",
			olds: []trace.Record{selfAI, copyMixed}, want: map[string][]int{"ai:conv-x": {4}, "ai:conv-y": {2}}},
		{name: "the copy first", olds: []trace.Record{copyMixed, selfAI}, want: map[string][]int{"ai:conv-x": {4}, "ai:conv-y": {2}}},
		{name: "the record about the commit names X (mixed), a copy gives X ai lines",
			olds: []trace.Record{selfMixed, copyAI}, want: map[string][]int{"mixed:conv-x": {4}}},
		{name: "two copies, ai first", olds: []trace.Record{copyAI, copy2Mixed}, want: map[string][]int{"ai:conv-x": {1, 2, 3}}},
		{name: "two copies, mixed first", olds: []trace.Record{copy2Mixed, copyAI}, want: map[string][]int{"mixed:conv-x": {5}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := h.g.ownOld(ctx, n, tc.olds, nil, &carrier{preds: preds, budget: rewriteDiffsMax})
			if l := typedLines(*got); !reflect.DeepEqual(l, tc.want) {
				t.Errorf("lines %v, want %v\n%s", l, tc.want, Encode([]trace.Record{*got}))
			}
		})
	}
}

// A copy is moved (a git diff) only when it names a conversation the
// rebuilt record does not link, within the diffs an update may read; a
// copy whose diff cannot be read, or past them, carries nothing and says
// so (errs), and so does a rewrite map that cannot be read.
func TestOwnOldCarriesOnlyWhatItCan(t *testing.T) {
	ctx := context.Background()
	h, _, c, n := shiftedHistory(t)
	d, err := h.g.diffs(ctx, []string{c})
	if err != nil {
		t.Fatal(err)
	}
	x := trace.Link{ID: "conv-x", Title: "X", Confidence: 0.8, Status: "auto", WrittenLines: 1}
	copied := trace.Build(trace.Input{Commit: c, Time: time.Unix(1700000000, 0), Added: d[c].added,
		Writers: map[string]map[int]string{"a.go": {3: "conv-x"}}, Links: []trace.Link{x}, Writer: "clone-a"})
	unknown := strings.Repeat("e", 40) // a commit no one has: its diff cannot be read
	bogus := copied
	bogus.VCS = &trace.VCS{Type: "git", Revision: unknown}
	for _, tc := range []struct {
		name   string
		old    trace.Record
		linked map[string]bool
		budget int
		moved  bool // a record about n comes back
		spent  int  // diffs read
		errs   int
	}{
		{name: "X not linked: moved", old: copied, budget: 2, moved: true, spent: 1},
		{name: "X linked by the rebuilt record: the note's record, no diff", old: copied, linked: map[string]bool{"conv-x": true}, budget: 2},
		{name: "no diff left", old: copied, budget: 0, errs: 1},
		{name: "the diff cannot be read", old: bogus, budget: 2, spent: 1, errs: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cr := &carrier{preds: func(string) []string { return []string{c, unknown} }, budget: tc.budget}
			got := h.g.ownOld(ctx, n, []trace.Record{tc.old}, tc.linked, cr)
			if moved := got.VCS.Revision == n; moved != tc.moved || tc.budget-cr.budget != tc.spent || len(cr.errs) != tc.errs {
				t.Errorf("moved %v, diffs %d, errors %v; want %v, %d, %d", moved, tc.budget-cr.budget, cr.errs, tc.moved, tc.spent, tc.errs)
			}
		})
	}

	// A map that cannot be read: nothing carried, the error kept.
	cr := Git{Dir: t.TempDir()}.newCarrier(ctx)
	if ps := cr.preds(n); len(ps) != 0 || len(cr.errs) != 1 {
		t.Errorf("unreadable map: predecessors %v, errors %v", ps, cr.errs)
	}
}
