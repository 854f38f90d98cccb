package store

import (
	"context"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// unlinkFixture is a store with commit c (a.go, b.go) recorded in
// repository r, its lines written by conversations x (a.go) and y (b.go),
// both auto-linked; then y is unlinked from c.
func unlinkFixture(t *testing.T, hashes ...string) *Store {
	t.Helper()
	ctx := context.Background()
	s := openTemp(t)
	for _, h := range append([]string{"c"}, hashes...) {
		recordTwoWriters(t, s, h)
	}
	if removed, err := s.Unlink(ctx, "y", "c"); err != nil || !removed {
		t.Fatalf("Unlink: %v %v", removed, err)
	}
	return s
}

// recordTwoWriters records commit h as unlinkFixture's c: x's line in
// a.go, y's in b.go, each auto-linked.
func recordTwoWriters(t *testing.T, s *Store, h string) {
	t.Helper()
	ctx := context.Background()
	if err := s.UpsertCommit(ctx, Commit{Hash: h, RepoPath: "/w", RepoKey: "r", CommittedAt: time.Unix(1700000000, 0), ParentCount: 1,
		Files: []string{"a.go", "b.go"}}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetCommitLines(ctx, h, []FileLines{{Path: "a.go", Added: 1, Agent: 1}, {Path: "b.go", Added: 1, Agent: 1}},
		[]CommitLine{{Path: "a.go", Line: 1, ConversationID: "x"}, {Path: "b.go", Line: 1, ConversationID: "y"}}); err != nil {
		t.Fatal(err)
	}
	if err := s.ReplaceAutoLinks(ctx, h, scored("x", "y")); err != nil {
		t.Fatal(err)
	}
}

// scored is the auto-links the scorer would make of ids.
func scored(ids ...string) []Link {
	var out []Link
	for _, id := range ids {
		out = append(out, Link{ConversationID: id, Confidence: 0.9, Reason: "wrote its lines", WrittenLines: 1, AddedLines: 2})
	}
	return out
}

// linkedTo is the conversations linked to hash, "id:status" each, sorted,
// and the writers of its lines ("path:line=id") with whether they were
// examined.
func linkedTo(t *testing.T, s *Store, hash string) (links, lines string, examined bool) {
	t.Helper()
	ctx := context.Background()
	m, err := s.ConversationsForCommits(ctx, []string{hash})
	if err != nil {
		t.Fatal(err)
	}
	var ls []string
	for _, lc := range m[hash] {
		ls = append(ls, lc.ConversationID+":"+lc.Status)
	}
	sort.Strings(ls)
	writers, recorded, err := s.CommitLineWriters(ctx, []string{hash})
	if err != nil {
		t.Fatal(err)
	}
	var ws []string
	for p, byLine := range writers[hash] {
		for n, w := range byLine {
			ws = append(ws, p+":"+string(rune('0'+n))+"="+w.ConversationID)
		}
	}
	sort.Strings(ws)
	return strings.Join(ls, " "), strings.Join(ws, " "), recorded[hash]
}

// TestUnlinkHolds: once y is unlinked from c, no write of auto-linking
// (a re-score, an import, an import's bulk write, an agent's own commit)
// links it again, and examining c's lines again gives y none of them (c
// is no longer examined: y's line is no one's, not a person's); another
// conversation is linked as before; a link by hand takes the unlink back.
func TestUnlinkHolds(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		write func(s *Store) error
		links string
	}{
		{"nothing", func(*Store) error { return nil }, "x:auto"},
		{"re-scored", func(s *Store) error { return s.ReplaceAutoLinks(ctx, "c", scored("x", "y", "z")) }, "x:auto z:auto"},
		{"imported", func(s *Store) error { return s.AddAutoLinks(ctx, "c", scored("y", "z")) }, "x:auto z:auto"},
		{"imported in bulk", func(s *Store) error {
			b := s.Bulk()
			if err := b.AddAutoLinks(ctx, "c", scored("y", "z")); err != nil {
				return err
			}
			return b.Flush(ctx)
		}, "x:auto z:auto"},
		{"the agent's own commit", func(s *Store) error { return s.SetAgentCommitLink(ctx, "y", "c") }, "x:auto"},
		{"lines examined again", func(s *Store) error {
			return s.SetCommitLines(ctx, "c", []FileLines{{Path: "a.go", Added: 1, Agent: 1}, {Path: "b.go", Added: 1, Agent: 1}},
				[]CommitLine{{Path: "a.go", Line: 1, ConversationID: "x"}, {Path: "b.go", Line: 1, ConversationID: "y"}})
		}, "x:auto"},
		{"linked by hand, then re-scored", func(s *Store) error {
			if err := s.SetManualLink(ctx, "y", "c", ""); err != nil {
				return err
			}
			return s.ReplaceAutoLinks(ctx, "c", scored("x"))
		}, "x:auto y:manual"},
		{"linked by hand, unlinked again, then re-scored", func(s *Store) error {
			if err := s.SetManualLink(ctx, "y", "c", ""); err != nil {
				return err
			}
			if _, err := s.Unlink(ctx, "y", "c"); err != nil {
				return err
			}
			return s.ReplaceAutoLinks(ctx, "c", scored("x", "y"))
		}, "x:auto"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := unlinkFixture(t)
			if err := tc.write(s); err != nil {
				t.Fatal(err)
			}
			links, lines, examined := linkedTo(t, s, "c")
			if links != tc.links || lines != "a.go:1=x" || examined {
				t.Errorf("links %q, lines %q (examined %v); want %q, a.go:1=x, not examined", links, lines, examined, tc.links)
			}
		})
	}
	// The withdrawal is of c only: another commit y wrote is linked to it.
	s := unlinkFixture(t, "d")
	if links, lines, examined := linkedTo(t, s, "d"); links != "x:auto y:auto" || lines != "a.go:1=x b.go:1=y" || !examined {
		t.Errorf("d: links %q, lines %q (examined %v)", links, lines, examined)
	}
	// Linking by hand takes the withdrawal back: re-scored, y stays.
	if err := s.SetManualLink(ctx, "y", "c", ""); err != nil {
		t.Fatal(err)
	}
	if w, err := s.Withdrawn(ctx, "c"); err != nil || len(w) != 0 {
		t.Errorf("withdrawn after a manual link: %v %v", w, err)
	}
}

// TestMarkRewrittenCarriesUnlink: c is amended into n. Whichever of the
// two comes first, the recording of n (scored: y linked, its lines) or the
// rewrite being marked, n ends linked to x only, with no line of y's, and
// a later re-score or examination of n keeps it so. A manual link of y on
// n made before the rewrite is marked is the user's later word: it stays,
// the withdrawal is not carried, and n stays examined (c was unexamined
// only while y was withdrawn from it: linesWithdrawn, not forgotten).
func TestMarkRewrittenCarriesUnlink(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		steps  func(t *testing.T, s *Store)
		links  string
		lines  string
		exam   bool
		carry  bool
		rescor string // links after a re-score of n that scores x and y
	}{
		{"recorded, then marked", func(t *testing.T, s *Store) {
			recordTwoWriters(t, s, "n")
			mustMark(t, s)
		}, "x:auto", "a.go:1=x", false, true, "x:auto"},
		{"marked, then recorded", func(t *testing.T, s *Store) {
			mustMark(t, s)
			recordTwoWriters(t, s, "n")
		}, "x:auto", "a.go:1=x", false, true, "x:auto"},
		{"linked by hand on n, then marked", func(t *testing.T, s *Store) {
			recordTwoWriters(t, s, "n")
			if err := s.SetManualLink(ctx, "y", "n", ""); err != nil {
				t.Fatal(err)
			}
			mustMark(t, s)
		}, "x:auto y:manual", "a.go:1=x b.go:1=y", true, false, "x:auto y:manual"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := unlinkFixture(t)
			tc.steps(t, s)
			links, lines, examined := linkedTo(t, s, "n")
			if links != tc.links || lines != tc.lines || examined != tc.exam {
				t.Errorf("n: links %q, lines %q (examined %v); want %q, %q (%v)", links, lines, examined, tc.links, tc.lines, tc.exam)
			}
			if w, err := s.Withdrawn(ctx, "n"); err != nil || w["y"] != tc.carry {
				t.Errorf("n's withdrawals: %v %v; want y: %v", w, err, tc.carry)
			}
			if err := s.ReplaceAutoLinks(ctx, "n", scored("x", "y")); err != nil {
				t.Fatal(err)
			}
			if links, _, _ := linkedTo(t, s, "n"); links != tc.rescor {
				t.Errorf("n re-scored: %q, want %q", links, tc.rescor)
			}
		})
	}
}

// TestSquashKeepsALinkedConversation: c (y unlinked) and d (y linked)
// are squashed into n, in either order of the two rewrites: y is part of n
// through d, so n stays linked to it and holds no withdrawal. Squashed from
// c and e, both unlinked from y, n is not linked to y.
func TestSquashKeepsALinkedConversation(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		olds  []string
		links string
		carry bool
	}{
		{"c, then d", []string{"c", "d"}, "x:auto y:auto", false},
		{"d, then c", []string{"d", "c"}, "x:auto y:auto", false},
		{"c, then e (unlinked too)", []string{"c", "e"}, "x:auto", true},
		{"e, then c (unlinked too)", []string{"e", "c"}, "x:auto", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := unlinkFixture(t, "d", "e")
			if _, err := s.Unlink(ctx, "y", "e"); err != nil {
				t.Fatal(err)
			}
			for _, old := range tc.olds {
				if err := s.MarkRewritten(ctx, old, "n"); err != nil {
					t.Fatal(err)
				}
			}
			if links, _, _ := linkedTo(t, s, "n"); links != tc.links {
				t.Errorf("n: links %q, want %q", links, tc.links)
			}
			if w, err := s.Withdrawn(ctx, "n"); err != nil || w["y"] != tc.carry {
				t.Errorf("n's withdrawals: %v %v; want y: %v", w, err, tc.carry)
			}
		})
	}
}

func mustMark(t *testing.T, s *Store) {
	t.Helper()
	if err := s.MarkRewritten(context.Background(), "c", "n"); err != nil {
		t.Fatal(err)
	}
}

// TestForgetRemovesUnlinks: forgetting the conversation, or the
// repository of the commit, leaves no row of the unlink.
func TestForgetRemovesUnlinks(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		forget func(s *Store) error
	}{
		{"the conversation", func(s *Store) error { _, err := s.ForgetConversation(ctx, "y"); return err }},
		{"the repository", func(s *Store) error { _, err := s.ForgetRepository(ctx, "r", "/w"); return err }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := unlinkFixture(t, "n")
			mustMark(t, s)
			var n int
			if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM unlinks`).Scan(&n); err != nil || n != 2 {
				t.Fatalf("before forget: %d unlinks %v; want 2 (c and n)", n, err)
			}
			if err := tc.forget(s); err != nil {
				t.Fatal(err)
			}
			if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM unlinks`).Scan(&n); err != nil || n != 0 {
				t.Errorf("after forget: %d unlinks %v", n, err)
			}
		})
	}
}

// TestImportPrototypeKeepsUnlinks: the prototype's links of a pair
// unlinked here (auto, and manual) are not imported: the unlink is the
// later word.
func TestImportPrototypeKeepsUnlinks(t *testing.T) {
	ctx := context.Background()
	src := filepath.Join(t.TempDir(), "links.sqlite")
	repo := "/home/ada/api"
	newPrototypeDB(t, src, repo, time.Date(2026, 11, 22, 14, 3, 11, 0, time.UTC))
	s := openTemp(t)
	if err := s.UpsertCommit(ctx, Commit{Hash: protoHash, RepoPath: repo, RepoKey: repo + "/.git", CommittedAt: time.Now(), Files: []string{"src/auth.ts"}}); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"3f1c9a52-7d0e-4b8e-9a61-2c5d8e4f7a10", "conv-123"} {
		if err := s.SetManualLink(ctx, id, protoHash, ""); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Unlink(ctx, id, protoHash); err != nil {
			t.Fatal(err)
		}
	}
	n, err := s.ImportPrototype(ctx, src, *testResolver(repo))
	if err != nil || n.NewLinks != 0 {
		t.Fatalf("import: %+v %v", n, err)
	}
	if links, _, _ := linkedTo(t, s, protoHash); links != "" {
		t.Errorf("links after import: %q", links)
	}
}

// TestUnlinkTakenBackExaminesAgain: an unlink leaves c unexamined while it
// holds (y's lines no one's, so no unclaimed line a person's); linking y
// back by hand and examining c again gives every line its writer again.
// Forgetting y while the unlink holds makes c forgotten for good: the
// unlink goes with y, and an examination then could not tell y's lines
// from a person's.
func TestUnlinkTakenBackExaminesAgain(t *testing.T) {
	ctx := context.Background()
	examine := func(t *testing.T, s *Store) {
		t.Helper()
		if err := s.SetCommitLines(ctx, "c", []FileLines{{Path: "a.go", Added: 1, Agent: 1}, {Path: "b.go", Added: 1, Agent: 1}},
			[]CommitLine{{Path: "a.go", Line: 1, ConversationID: "x"}, {Path: "b.go", Line: 1, ConversationID: "y"}}); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name     string
		then     func(t *testing.T, s *Store)
		lines    string
		examined bool
	}{
		{"the unlink holds", func(t *testing.T, s *Store) { examine(t, s) }, "a.go:1=x", false},
		{"linked back, examined again", func(t *testing.T, s *Store) {
			if err := s.SetManualLink(ctx, "y", "c", ""); err != nil {
				t.Fatal(err)
			}
			examine(t, s)
		}, "a.go:1=x b.go:1=y", true},
		{"y forgotten while unlinked, examined again", func(t *testing.T, s *Store) {
			if _, err := s.ForgetConversation(ctx, "y"); err != nil {
				t.Fatal(err)
			}
			if err := s.SetCommitLines(ctx, "c", []FileLines{{Path: "a.go", Added: 1, Agent: 1}, {Path: "b.go", Added: 1}},
				[]CommitLine{{Path: "a.go", Line: 1, ConversationID: "x"}}); err != nil {
				t.Fatal(err)
			}
		}, "a.go:1=x", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := unlinkFixture(t)
			if _, lines, examined := linkedTo(t, s, "c"); lines != "a.go:1=x" || examined {
				t.Fatalf("after the unlink: lines %q (examined %v)", lines, examined)
			}
			tc.then(t, s)
			if _, lines, examined := linkedTo(t, s, "c"); lines != tc.lines || examined != tc.examined {
				t.Errorf("lines %q (examined %v); want %q (%v)", lines, examined, tc.lines, tc.examined)
			}
		})
	}
}
