package notes

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/git-convo/git-convo/pkg/share/trace"
	"github.com/git-convo/git-convo/pkg/store"
)

// TestWholeCopies: a commit read through copies by rewrite names every
// line it added (Whole: a line no conversation has is a person's) only
// when each commit its rewrites start at has a record and each copy's
// lines were moved to it; otherwise the copies' own lines stay theirs and
// the others are not known.
func TestWholeCopies(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		// noteB: the person's commit B has a record; lose: A's commit
		// object is gone (gc after the rewrite), so its diff cannot be read.
		noteB, squash, lose bool
		whole               bool
		xLines              []int
	}{
		{name: "rebase of a recorded commit", whole: true, xLines: []int{1, 2, 3}},
		{name: "squash, both recorded", noteB: true, squash: true, whole: true, xLines: []int{1, 2, 3}},
		{name: "squash, one without a record", squash: true, whole: false, xLines: []int{1, 2, 3}},
		{name: "the old commit gone", lose: true, whole: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHistory(t)
			base := h.commit("base", map[string]string{"README": "hello\n"})
			a := h.commit("X's code", map[string]string{"a.go": "package a\nfunc A() {}\nvar x = 1\n"})
			h.noteLines(a, "conv-x", "a.go", 1, 2, 3)
			pairs := [][2]string{}
			if tc.squash {
				b := h.commit("by hand", map[string]string{"b.txt": "one\ntwo\n"})
				if tc.noteB {
					h.noteLines(b, "conv-y", "b.txt")
				}
				git(t, h.g, "", "reset", "-q", "--soft", base)
				git(t, h.g, "", "commit", "-q", "-m", "squashed")
				s := git(t, h.g, "", "rev-parse", "HEAD")
				pairs = append(pairs, [2]string{a, s}, [2]string{b, s})
			} else {
				git(t, h.g, "", "commit", "-q", "--amend", "-m", "reworded")
				pairs = append(pairs, [2]string{a, git(t, h.g, "", "rev-parse", "HEAD")})
			}
			if tc.lose {
				if err := os.Remove(filepath.Join(h.g.Dir, ".git", "objects", a[:2], a[2:])); err != nil {
					t.Fatal(err)
				}
			}
			if err := RecordRewrites(commonDir(t, h.g), pairs); err != nil {
				t.Fatal(err)
			}
			c := pairs[0][1]
			rd := NewReader(ctx, h.g.Dir)
			defer rd.Close()
			recs, err := rd.Records(ctx, []string{c})
			if err != nil {
				t.Fatal(err)
			}
			rec, ok := recs[c]
			if !ok || len(Linked(c, rec)) == 0 {
				t.Fatalf("no copied link read for the rewritten commit: %+v", rec)
			}
			if got := rd.Whole(c, rec); got != tc.whole {
				t.Errorf("Whole = %v, want %v", got, tc.whole)
			}
			if got := aiLines(rec, "conv-x")["a.go"]; !reflect.DeepEqual(got, tc.xLines) {
				t.Errorf("X's lines %v, want %v", got, tc.xLines)
			}
			recorded := map[string]bool{}
			if err := rd.MergeLineWriters(ctx, []string{c}, map[string]map[string]map[int]store.LineWriter{}, recorded); err != nil {
				t.Fatal(err)
			}
			if recorded[c] != tc.whole {
				t.Errorf("blame takes the commit's other lines for a person's: %v, want %v", recorded[c], tc.whole)
			}
		})
	}
}

// TestKnownOverUnknown: a line an unknown entry gives to no one is taken
// out of it where another entry names it (ai, human, mixed); the others
// stay unknown, and an unknown entry left no line goes.
func TestKnownOverUnknown(t *testing.T) {
	entry := func(typ, url string, from, to int) trace.Conversation {
		return trace.Conversation{URL: url, Contributor: &trace.Contributor{Type: typ}, Ranges: []trace.Range{{StartLine: from, EndLine: to}}}
	}
	x := trace.ConversationURL("x")
	for _, tc := range []struct {
		name string
		in   []trace.Conversation
		want string // unknown's ranges after
	}{
		{"a copy names some", []trace.Conversation{entry("unknown", "", 1, 7), entry("ai", x, 2, 4), entry("human", "", 1, 1)}, "[{5 7 }]"},
		{"a copy names all", []trace.Conversation{entry("unknown", "", 1, 3), entry("ai", x, 1, 2), entry("mixed", x, 3, 3)}, "gone"},
		{"no other entry", []trace.Conversation{entry("unknown", "", 1, 3)}, "[{1 3 }]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := knownOverUnknown(trace.Record{Files: []trace.File{{Path: "a.go", Conversations: tc.in}}})
			res := "gone"
			for _, c := range got.Files[0].Conversations {
				if c.Contributor.Type == "unknown" {
					res = fmt.Sprint(c.Ranges)
				}
			}
			if res != tc.want {
				t.Errorf("unknown's lines %s, want %s", res, tc.want)
			}
		})
	}
}
