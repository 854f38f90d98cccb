package notes

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/share/trace"
	"github.com/git-convo/git-convo/pkg/store"
)

// A teammate's record on a commit this clone rebases, then amends, is read
// for the new commits once the clone's post-rewrite hook recorded the
// rewrite: copied by rewrite, at a lower confidence, still the teammate's,
// with the lines the rewrites left unchanged at their new numbers and no
// other. The same record copied onto an unrelated commit stays refused.
func TestRewriteCarriesCopiedRecords(t *testing.T) {
	ctx := context.Background()
	const base = "package api\n\nfunc Old() error {\n\treturn nil\n}\n"
	const agentFn = "\nfunc A() error {\n\tx := compute()\n\treturn use(x)\n}\n" // lines 6-10 of X
	h := newHistory(t)
	h.commit("base", map[string]string{"api/api.go": base})
	git(t, h.g, "", "config", "notes.rewriteRef", RewriteRef)
	git(t, h.g, "", "checkout", "-q", "-b", "feature")
	x := h.commit("the agent's function", map[string]string{"api/api.go": base + agentFn})
	h.noteLines(x, "conv-rw", "api/api.go", 7, 8, 9, 10) // by clone-aaaa, the teammate
	git(t, h.g, "", "checkout", "-q", "main")
	person := h.commit("doc", map[string]string{"api/api.go": "// Package api.\n" + base})
	git(t, h.g, "", "checkout", "-q", "feature")
	git(t, h.g, "", "rebase", "-q", "main")
	y := git(t, h.g, "", "rev-parse", "HEAD")
	if n := git(t, h.g, "", "notes", "--ref="+Ref, "show", y); !strings.Contains(n, `"revision":"`+x+`"`) {
		t.Fatalf("git did not copy the note to the rebased commit:\n%s", n)
	}
	// A hostile copy of the same note onto a person's commit.
	git(t, h.g, "", "notes", "--ref="+Ref, "copy", "-f", x, person)

	// read is how many records, and clipped records, a fresh reader gives c.
	read := func(c string) (int, int) {
		t.Helper()
		rd := NewReader(ctx, h.g.Dir)
		defer rd.Close()
		r, err := rd.Records(ctx, []string{c})
		if err != nil {
			t.Fatal(err)
		}
		cl, err := rd.ClippedRecords(ctx, []string{c})
		if err != nil {
			t.Fatal(err)
		}
		return len(r), len(cl)
	}
	// Before the rewrite is known here, the copy is another commit's claim.
	if n, _ := read(y); n != 0 {
		t.Fatalf("a record naming %s was read for %s with no rewrite recorded", x[:7], y[:7])
	}
	if err := RecordRewrites(commonDir(t, h.g), [][2]string{{x, y}}); err != nil {
		t.Fatal(err)
	}

	check := func(name, c, from string, wantLines []int, wantHash bool) {
		t.Helper()
		rd := NewReader(ctx, h.g.Dir)
		defer rd.Close()
		recs, err := rd.ClippedRecords(ctx, []string{c})
		if err != nil {
			t.Fatal(err)
		}
		rec, ok := recs[c]
		if !ok {
			t.Fatalf("%s: the teammate's record is not read for the rewritten commit", name)
		}
		if got := aiLines(rec, "conv-rw")["api/api.go"]; !reflect.DeepEqual(got, wantLines) {
			t.Errorf("%s: the conversation's lines = %v, want %v", name, got, wantLines)
		}
		for _, f := range rec.Files {
			for _, cv := range f.Conversations {
				if !strings.HasSuffix(cv.URL, "conv-rw") {
					continue
				}
				for _, rg := range cv.Ranges {
					if (rg.ContentHash != "") != wantHash {
						t.Errorf("%s: range %+v keeps its hash: %v, want %v", name, rg, rg.ContentHash != "", wantHash)
					}
				}
			}
		}
		lcs := Linked(c, rec)
		if len(lcs) != 1 {
			t.Fatalf("%s: links %+v", name, lcs)
		}
		lc := lcs[0]
		if lc.Evidence() != store.LinkEvidenceRewrite || lc.RewrittenFrom != from || lc.SharedBy != "clone-aaaa" ||
			lc.Confidence != RewriteFactor || !strings.Contains(lc.Reason, "copied by rewrite from "+from[:12]) {
			t.Errorf("%s: link %+v (evidence %q)", name, lc.Link, lc.Evidence())
		}
		writers := map[string]map[string]map[int]store.LineWriter{}
		if err := rd.MergeLineWriters(ctx, []string{c}, writers, map[string]bool{}); err != nil {
			t.Fatal(err)
		}
		for n, w := range writers[c]["api/api.go"] {
			if w.Evidence != store.EvidenceRewrite || store.LineEvidence(w) != store.LinkEvidenceRewrite {
				t.Errorf("%s: line %d's evidence %q", name, n, w.Evidence)
			}
		}
	}
	// The rebase moved every line down one, changing none.
	check("rebased", y, x, []int{8, 9, 10, 11}, true)

	// An amend that rewrites one of the agent's lines: the others keep
	// their place, that one is no longer the agent's.
	body := "// Package api.\n" + base + strings.Replace(agentFn, "return use(x)", "return useBetter(x)", 1)
	h.commit("the agent's function", map[string]string{"api/api.go": body}) // a new commit, then folded
	git(t, h.g, "", "reset", "-q", "--soft", "HEAD~2")
	git(t, h.g, "", "commit", "-q", "-C", y) // what an amend makes, without git copying
	w := git(t, h.g, "", "rev-parse", "HEAD")
	if err := RecordRewrites(commonDir(t, h.g), [][2]string{{y, w}}); err != nil {
		t.Fatal(err)
	}
	// No note on w: the predecessors' own notes are read for it.
	check("amended, with no note of its own", w, x, []int{8, 9, 11}, false)
	git(t, h.g, "", "notes", "--ref="+Ref, "copy", y, w) // as notes.rewriteRef does
	check("amended", w, x, []int{8, 9, 11}, false)

	// The forged copy on the person's commit stays refused.
	if n, c := read(person); n != 0 || c != 0 {
		t.Errorf("a record about %s copied onto the person's %s was read", x[:7], person[:7])
	}
	// And a rewrite map never made the teammate's record another's: the
	// old commit keeps its own record, read as before.
	rd := NewReader(ctx, h.g.Dir)
	defer rd.Close()
	recs, err := rd.Records(ctx, []string{x})
	if err != nil {
		t.Fatal(err)
	}
	if lcs := Linked(x, recs[x]); len(lcs) != 1 || lcs[0].RewrittenFrom != "" || lcs[0].Confidence != 1 {
		t.Errorf("the original commit's link: %+v", lcs)
	}
}

// lineShift follows an unchanged line through a -U0 diff's hunks, and
// nothing else: a changed, removed or unknown file's lines are not kept.
func TestShiftRange(t *testing.T) {
	const diff = "diff --git a/a.go b/a.go\n--- a/a.go\n+++ b/a.go\n" +
		"@@ -0,0 +1,2 @@\n+// one\n+// two\n" + // two lines inserted at the top
		"@@ -5 +7 @@\n--- looks like a header\n+++ and so does this\n" + // line 5 changed
		"@@ -9,2 +10,0 @@\n-x\n-y\n" + // lines 9-10 removed
		"diff --git a/gone.go b/gone.go\n--- a/gone.go\n+++ /dev/null\n@@ -1,3 +0,0 @@\n-a\n-b\n-c\n"
	shifts := parseShifts([]byte(diff), []string{"a.go", "gone.go", "same.go"})
	for _, tc := range []struct {
		path string
		rg   [2]int
		want [][2]int
	}{
		{"a.go", [2]int{1, 4}, [][2]int{{3, 6}}},
		{"a.go", [2]int{3, 7}, [][2]int{{5, 6}, {8, 9}}},
		{"a.go", [2]int{8, 12}, [][2]int{{10, 12}}}, // old 8, then 11-12: consecutive now
		{"gone.go", [2]int{1, 2}, nil},
		{"same.go", [2]int{4, 6}, [][2]int{{4, 6}}},
	} {
		var got [][2]int
		for _, r := range shiftRange(testRange(tc.rg), shifts[tc.path]) {
			got = append(got, [2]int{r.StartLine, r.EndLine})
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %v: %v, want %v", tc.path, tc.rg, got, tc.want)
		}
	}
	// A file the diff names but was not asked for (a name git quoted):
	// nothing says the asked files were left alone.
	quoted := parseShifts([]byte("diff --git \"a/\\303\\251.go\" \"b/\\303\\251.go\"\n--- \"a/\\303\\251.go\"\n+++ \"b/\\303\\251.go\"\n@@ -1 +1 @@\n-a\n+b\n"), []string{"é.go"})
	if r := shiftRange(testRange([2]int{2, 3}), quoted["é.go"]); r != nil {
		t.Errorf("an unrecognised file's lines were kept: %v", r)
	}
	// A changed binary file names itself on no "---"/"+++" line: nothing
	// says any asked file was left alone.
	binary := parseShifts([]byte("diff --git a/x.go b/x.go\nindex 1..2 100644\nBinary files a/x.go and b/x.go differ\n"), []string{"x.go"})
	if r := shiftRange(testRange([2]int{2, 3}), binary["x.go"]); r != nil {
		t.Errorf("a changed binary file's lines were kept: %v", r)
	}
}

func testRange(r [2]int) trace.Range {
	return trace.Range{StartLine: r[0], EndLine: r[1], ContentHash: "fnv1a64:x"}
}

// commonDir is g's git common dir, as a hook's repository knows it.
func commonDir(t *testing.T, g Git) string {
	t.Helper()
	return strings.TrimSpace(git(t, g, "", "rev-parse", "--path-format=absolute", "--git-common-dir"))
}

// The rewrite map is appended to, and cut to its newest rewritesMax pairs
// once it has grown a quarter past them.
func TestRecordRewritesTrim(t *testing.T) {
	ctx := context.Background()
	g := Git{Dir: t.TempDir(), Env: gitEnv(t)}
	git(t, g, "", "init", "-q")
	hash := func(i int) string { return fmt.Sprintf("%040x", i) }
	var pairs [][2]string
	for i := 1; i <= rewritesMax+rewritesMax/4+10; i++ {
		pairs = append(pairs, [2]string{hash(2 * i), hash(2*i + 1)})
	}
	if err := RecordRewrites(commonDir(t, g), pairs[:10]); err != nil {
		t.Fatal(err)
	}
	if err := RecordRewrites(commonDir(t, g), pairs[10:]); err != nil {
		t.Fatal(err)
	}
	m, err := g.LoadRewrites(ctx)
	if err != nil {
		t.Fatal(err)
	}
	last, first := pairs[len(pairs)-1], pairs[0]
	if len(m) != rewritesMax || !slices.Equal(m[last[1]], []string{last[0]}) || m[first[1]] != nil {
		t.Errorf("map of %d pairs (newest kept %v, oldest kept %v), want the newest %d", len(m), m[last[1]] != nil, m[first[1]] != nil, rewritesMax)
	}
}

// TestPredecessors: the rewrite map as post-rewrite writes it, and the
// commits a new one was rewritten from (nearest first), those its chains
// start at, and whether a bound cut them: an amend, a chain of them, a
// squash, a fixup as rebase -i writes it (each fixup an amend of the
// commit before, then each commit paired with the last), a pair written
// twice, a cycle, a chain past rewriteChainMax, a squash past
// rewritePredsMax.
func TestPredecessors(t *testing.T) {
	h := func(s string) string { return strings.Repeat(s, 40)[:40] }
	n := func(i int) string { return fmt.Sprintf("%040x", i) }
	var long, wide [][2]string
	for i := 0; i <= rewriteChainMax+2; i++ {
		long = append(long, [2]string{n(i), n(i + 1)})
	}
	atBound := long[:rewriteChainMax] // rewriteChainMax rewrites back: none cut
	for i := 0; i <= rewritePredsMax; i++ {
		wide = append(wide, [2]string{n(1000 + i), h("f")})
	}
	// rebase -i: pick 1, fixup 2, 3, 4 makes i1 (1+2), i2 (+3), then f (+4).
	fixup := [][2]string{{h("1"), h("a")}, {h("a"), h("b")}, {h("b"), h("f")},
		{h("1"), h("f")}, {h("2"), h("f")}, {h("3"), h("f")}, {h("4"), h("f")}}
	for _, tc := range []struct {
		name        string
		pairs       [][2]string
		of          string
		preds, firs []string // preds nil: only its length is checked (npreds)
		npreds      int
		cut         bool
	}{
		{name: "amend", pairs: [][2]string{{h("a"), h("b")}}, of: h("b"), preds: []string{h("a")}, firs: []string{h("a")}},
		{name: "not rewritten", pairs: [][2]string{{h("a"), h("b")}}, of: h("a")},
		{name: "amend then rebase", pairs: [][2]string{{h("a"), h("b")}, {h("b"), h("c")}}, of: h("c"),
			preds: []string{h("b"), h("a")}, firs: []string{h("a")}},
		{name: "squash", pairs: [][2]string{{h("a"), h("f")}, {h("b"), h("f")}}, of: h("f"),
			preds: []string{h("a"), h("b")}, firs: []string{h("a"), h("b")}},
		{name: "fixup, as rebase -i writes it", pairs: fixup, of: h("f"),
			preds: []string{h("b"), h("1"), h("2"), h("3"), h("4"), h("a")}, firs: []string{h("1"), h("2"), h("3"), h("4")}},
		{name: "a pair twice", pairs: [][2]string{{h("a"), h("b")}, {h("a"), h("b")}}, of: h("b"), preds: []string{h("a")}, firs: []string{h("a")}},
		{name: "cycle", pairs: [][2]string{{h("a"), h("b")}, {h("b"), h("a")}}, of: h("b"), preds: []string{h("a")}, firs: []string{h("a")}},
		{name: "a chain at the bound", pairs: atBound, of: atBound[len(atBound)-1][1], npreds: rewriteChainMax,
			firs: []string{n(0)}},
		{name: "a chain past the bound", pairs: long, of: long[len(long)-1][1], npreds: rewriteChainMax, cut: true},
		{name: "a squash past the bound", pairs: wide, of: h("f"), npreds: rewritePredsMax, cut: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := Git{Dir: t.TempDir(), Env: gitEnv(t)}
			git(t, g, "", "init", "-q")
			if err := RecordRewrites(commonDir(t, g), tc.pairs); err != nil {
				t.Fatal(err)
			}
			m, err := g.LoadRewrites(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			ps, cut := predecessors(m, tc.of)
			if cut != tc.cut {
				t.Errorf("cut %v, want %v", cut, tc.cut)
			}
			if tc.preds == nil && tc.npreds > 0 {
				if len(ps) != tc.npreds || ps[0] != m[tc.of][0] {
					t.Errorf("%d predecessors, want %d from the nearest", len(ps), tc.npreds)
				}
			} else if !slices.Equal(ps, tc.preds) {
				t.Errorf("predecessors %v, want %v", ps, tc.preds)
			}
			if tc.cut {
				return // the commits the chains start at are not all reached
			}
			if fs := firstCommits(m, ps); !slices.Equal(fs, tc.firs) {
				t.Errorf("first commits %v, want %v", fs, tc.firs)
			}
		})
	}
}

// A writer's own record of the rewritten commit supersedes the copy of its
// record of the old one; its derived reading of the new commit (a squash
// read from other notes, text only perhaps) does not: this clone's pairing
// of the two commits is the better evidence of the lines.
func TestCopiedFromDerivedSupersedesNothing(t *testing.T) {
	const old, now = "1111111111111111111111111111111111111111", "2222222222222222222222222222222222222222"
	of := func(commit, derived string) trace.Record {
		r := trace.Build(trace.Input{Commit: commit, Time: time.Unix(1700000000, 0), Writer: "clone-a",
			Links: []trace.Link{{ID: "conv", Confidence: 1, Derived: derived}}})
		return r
	}
	own := func(c string) []trace.Record {
		if c == old {
			return []trace.Record{of(old, "")}
		}
		return nil
	}
	for _, tc := range []struct {
		name   string
		direct []trace.Record
		copies int
	}{
		{"no word of the writer on the new commit", nil, 1},
		{"the writer's record of the new commit", []trace.Record{of(now, "")}, 0},
		{"the writer's derived reading of the new commit", []trace.Record{of(now, DerivedSquash)}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := copiedFrom(now, []string{old}, nil, own, tc.direct)
			if len(got) != tc.copies {
				t.Errorf("%d copies, want %d", len(got), tc.copies)
			}
		})
	}
}
