package store

import (
	"context"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/attribution/link"
)

// TestForgottenLinesKeepCopiesUnknown: after forget, a commit examined
// afresh whose unclaimed lines include a distinctive line the forgotten
// conversation wrote in that repository, in the window, is not examined
// (its unclaimed lines unknown, not a person's); one whose unclaimed lines
// are common (`}`), a person's own, written in another repository or out
// of the window, or claimed by a conversation still here, is examined as
// before. What is kept is a hash and a day per distinctive line, pruned
// with edit lines and removed by forget --repo.
func TestForgottenLinesKeepCopiesUnknown(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	const repo, other = "/r/.git", "/o/.git"
	t0 := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC).UnixMilli()
	wrote, brace, elsewhere := "\treturn bucket(client).take()", "}", "\treturn other(client).take()"
	for _, a := range []Activity{
		{ConversationID: "gone", Event: "afterFileEdit", AtMs: t0, Lines: []EditLine{
			{RepoKey: repo, PathKey: "a.go", Hash: link.LineHash(wrote), Text: wrote},
			{RepoKey: repo, PathKey: "a.go", Hash: link.LineHash(brace), Text: brace},
			{RepoKey: other, PathKey: "b.go", Hash: link.LineHash(elsewhere), Text: elsewhere}}},
		{ConversationID: "kept", Event: "afterFileEdit", AtMs: t0, Lines: []EditLine{
			{RepoKey: repo, PathKey: "a.go", Hash: link.LineHash(wrote), Text: wrote}}},
	} {
		if err := s.RecordActivity(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.ForgetConversation(ctx, "gone"); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM forgotten_lines`).Scan(&n); err != nil || n != 2 {
		t.Fatalf("forgotten lines kept: %d (%v), want 2 (the brace is no evidence)", n, err)
	}
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM forgotten_lines WHERE atMs % ? != 0`, forgottenDayMs).Scan(&n); err != nil || n != 0 {
		t.Errorf("forgotten lines kept with their time of day: %d (%v), want the day only", n, err)
	}

	person := link.LineHash("\tlog.Printf(\"allowed %s\", client)")
	inWindow := Unclaimed{RepoKey: repo, FromMs: t0 - 1000, ToMs: t0 + 1000}
	examine := func(hash string, u Unclaimed, lines []CommitLine) bool {
		t.Helper()
		if err := s.UpsertCommit(ctx, Commit{Hash: hash, RepoPath: "/r", RepoKey: u.RepoKey, CommittedAt: time.UnixMilli(t0), ParentCount: 1, Files: []string{"a.go"}}); err != nil {
			t.Fatal(err)
		}
		if err := s.SetExaminedLines(ctx, hash, []FileLines{{Path: "a.go", Added: 2, Agent: len(lines)}}, lines, u); err != nil {
			t.Fatal(err)
		}
		_, _, ok, err := s.CommitLineCounts(ctx, hash)
		if err != nil {
			t.Fatal(err)
		}
		writers, _, err := s.CommitLineWriters(ctx, []string{hash})
		if err != nil {
			t.Fatal(err)
		}
		if len(writers[hash]["a.go"]) != len(lines) {
			t.Errorf("%s: lines %v, want %v", hash, writers[hash], lines)
		}
		return ok
	}
	with := func(u Unclaimed, hashes ...int64) Unclaimed {
		u.Hashes = hashes
		return u
	}
	keptLine := []CommitLine{{Path: "a.go", Line: 1, ConversationID: "kept"}}
	for _, tc := range []struct {
		name     string
		u        Unclaimed
		lines    []CommitLine
		examined bool
	}{
		{"a forgotten distinctive line", with(inWindow, person, link.LineHash(wrote)), nil, false},
		{"a forgotten line beside one a conversation here claims", with(inWindow, link.LineHash(wrote)), keptLine, false},
		{"the forgotten line claimed by a conversation here", with(inWindow, person), keptLine, true},
		{"common lines only", with(inWindow, link.LineHash(brace), person), nil, true},
		{"nothing unclaimed", with(inWindow), keptLine, true},
		{"written in another repository", with(inWindow, link.LineHash(elsewhere)), nil, true},
		// Kept to the day: a window whose edge is within a day of the line
		// takes it in (unknown rather than a person's), one a day further not.
		{"written the day after the commit", with(Unclaimed{RepoKey: repo, FromMs: t0 - 3*forgottenDayMs, ToMs: t0 - forgottenDayMs}, link.LineHash(wrote)), nil, true},
		{"written the day before the window", with(Unclaimed{RepoKey: repo, FromMs: t0 + forgottenDayMs, ToMs: t0 + 3*forgottenDayMs}, link.LineHash(wrote)), nil, true},
		{"written the same day, an hour after the commit", with(Unclaimed{RepoKey: repo, FromMs: t0 - 5*3600_000, ToMs: t0 - 3600_000}, link.LineHash(wrote)), nil, false},
	} {
		if got := examine(tc.name, tc.u, tc.lines); got != tc.examined {
			t.Errorf("%s: examined %v, want %v", tc.name, got, tc.examined)
		}
	}

	// Pruned with edit lines, to the day it keeps: a bound inside the
	// line's day keeps it (an edit line written later that day would still
	// be evidence); one past its day prunes it, and it is no evidence.
	if _, err := s.PruneEditLines(ctx, t0+1); err != nil {
		t.Fatal(err)
	}
	if examine("pruned within its day", with(inWindow, link.LineHash(wrote)), nil) {
		t.Error("a forgotten line was pruned before its day was past the bound")
	}
	if _, err := s.PruneEditLines(ctx, t0+forgottenDayMs); err != nil {
		t.Fatal(err)
	}
	if !examine("after prune", with(inWindow, link.LineHash(wrote)), nil) {
		t.Error("a forgotten line pruned still unexamines a commit")
	}

	// forget --repo removes the repository's forgotten lines, not others'.
	later := t0 + 10_000
	if err := s.RecordActivity(ctx, Activity{ConversationID: "gone2", Event: "afterFileEdit", AtMs: later, Lines: []EditLine{
		{RepoKey: repo, PathKey: "a.go", Hash: link.LineHash(wrote), Text: wrote},
		{RepoKey: other, PathKey: "b.go", Hash: link.LineHash(elsewhere), Text: elsewhere}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ForgetConversation(ctx, "gone2"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ForgetRepository(ctx, repo, "/r"); err != nil {
		t.Fatal(err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT repoKey FROM forgotten_lines`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var left []string
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			t.Fatal(err)
		}
		left = append(left, k)
	}
	if len(left) != 1 || left[0] != other {
		t.Errorf("forgotten lines after forget --repo: %v, want only %s's", left, other)
	}
}
