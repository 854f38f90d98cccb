package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestLogLinksAsFull: the log's lean query returns, for every commit, the
// links ConversationsForCommits returns, in its order, with the fields a
// log line prints; a titled conversation's prompt is not read.
func TestLogLinksAsFull(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	at := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC).UnixMilli()
	for i := range 6 {
		id := fmt.Sprint("c", i)
		agent := []string{"", "claude"}[i%2]
		if err := s.RecordActivity(ctx, Activity{ConversationID: id, Agent: agent, AtMs: at + int64(i), Prompt: fmt.Sprint("prompt ", i)}); err != nil {
			t.Fatal(err)
		}
		if i%3 != 0 {
			if _, err := s.db.ExecContext(ctx, `UPDATE conversations SET title = ? WHERE conversationId = ?`, fmt.Sprint("title ", i), id); err != nil {
				t.Fatal(err)
			}
		}
	}
	links := map[string][]Link{
		"aaa": {{ConversationID: "c0", Confidence: 0.5}, {ConversationID: "c1", Confidence: 0.9}, {ConversationID: "c2", Confidence: 0.5}},
		"bbb": {{ConversationID: "c3", Confidence: 0.4}, {ConversationID: "unknown", Confidence: 0.7}},
	}
	for h, ls := range links {
		if err := s.ReplaceAutoLinks(ctx, h, ls); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SetManualLink(ctx, "c4", "bbb", ""); err != nil {
		t.Fatal(err)
	}
	hashes := []string{"aaa", "bbb", "ccc"}
	lean, full := logAndShow(t, s, hashes)
	type line struct {
		id, status, title, agent, prompt string
		conf                             float64
	}
	lines := func(lcs []LinkedConversation, lean bool) []line {
		var out []line
		for _, lc := range lcs {
			l := line{lc.ConversationID, lc.Status, lc.Conv.Title, lc.Conv.Agent, lc.Conv.FirstPrompt, lc.Confidence}
			if !lean && l.title != "" {
				l.prompt = ""
			}
			out = append(out, l)
		}
		return out
	}
	if len(full) != 2 || len(lean) != len(full) {
		t.Fatalf("commits: full %d, lean %d; want 2", len(full), len(lean))
	}
	for _, h := range hashes {
		if got, want := lines(lean[h], true), lines(full[h], false); !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n lean %+v\n full %+v", h, got, want)
		}
		for _, lc := range lean[h] {
			if lc.Conv.Title != "" && lc.Conv.FirstPrompt != "" {
				t.Errorf("%s: titled conversation %s read its prompt", h, lc.ConversationID)
			}
		}
	}
}

// TestLogLinksSharedPrefix: log finds links whose commit has no recorded
// time by the first 8 digits of a hash (links_commit_untimed); a commit whose hash shares them gets none of
// the other's links, whichever of them is asked, as ConversationsForCommits
// (whole hashes) answers.
func TestLogLinksSharedPrefix(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	a := "deadbeef" + strings.Repeat("a", 32)
	b := "deadbeef" + strings.Repeat("b", 32)
	c := "deadbeef" + strings.Repeat("c", 56) // SHA-256's length
	short, eight, other := "deadbee", "deadbeef", "0123456789"+strings.Repeat("0", 30)
	for i, h := range []string{a, b, c, short, eight, other} {
		id := fmt.Sprint("c", i)
		if err := s.RecordActivity(ctx, Activity{ConversationID: id, AtMs: 1}); err != nil {
			t.Fatal(err)
		}
		if err := s.ReplaceAutoLinks(ctx, h, []Link{{ConversationID: id, Confidence: 0.5}}); err != nil {
			t.Fatal(err)
		}
	}
	for _, asked := range [][]string{{a}, {b}, {a, b}, {c}, {short}, {eight}, {a, other}, {"deadbeef" + strings.Repeat("d", 32)}, {a, a}} {
		lean := logLinks(t, s, asked)
		full, err := s.ConversationsForCommits(ctx, asked)
		if err != nil {
			t.Fatal(err)
		}
		if len(lean) != len(full) {
			t.Errorf("%.12q: %d commits, want %d", asked, len(lean), len(full))
		}
		for h, lcs := range full {
			if len(lean[h]) != len(lcs) || lean[h][0].ConversationID != lcs[0].ConversationID {
				t.Errorf("%.12s: %+v, want %+v", h, lean[h], lcs)
			}
		}
	}
}

// TestLogLinksChunks: more commits than one query takes (chunkSize), two
// of them sharing a prefix in different chunks, repeats and commits of
// several links: log gives each commit its own links once, in show's
// order.
func TestLogLinksChunks(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	a := "deadbeef" + strings.Repeat("a", 32)
	b := "deadbeef" + strings.Repeat("b", 32)
	hashes := []string{a}
	for i := range 2*chunkSize + 10 {
		hashes = append(hashes, fmt.Sprintf("%040x", i+1))
	}
	hashes[chunkSize+3] = b
	unique := hashes
	hashes = append(hashes[:len(hashes):len(hashes)], a, hashes[7]) // repeats, for log alone
	for i, h := range []string{a, b, hashes[5], hashes[chunkSize], hashes[2*chunkSize]} {
		var ls []Link
		for k := range 1 + i%3 {
			id := fmt.Sprint("c", i, "-", k)
			if err := s.RecordActivity(ctx, Activity{ConversationID: id, AtMs: int64(k + 1)}); err != nil {
				t.Fatal(err)
			}
			ls = append(ls, Link{ConversationID: id, Confidence: 0.5 + 0.1*float64(k)})
		}
		if err := s.ReplaceAutoLinks(ctx, h, ls); err != nil {
			t.Fatal(err)
		}
	}
	lean := logLinks(t, s, hashes)
	full, err := s.ConversationsForCommits(ctx, unique)
	if err != nil {
		t.Fatal(err)
	}
	if len(full) != 5 || len(lean) != len(full) {
		t.Fatalf("commits: lean %d, full %d; want 5", len(lean), len(full))
	}
	for h, lcs := range full {
		var got, want []string
		for _, lc := range lean[h] {
			got = append(got, lc.ConversationID)
		}
		for _, lc := range lcs {
			want = append(want, lc.ConversationID)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%.12s: %q, want %q", h, got, want)
		}
	}
}

// TestLogLinksTies: links tied on status, confidence and activity come in
// the order they were made, in log's query (by prefix) and show's (by
// whole hash) alike, whatever plan each takes.
func TestLogLinksTies(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	order := []string{"c3", "c1", "c4", "c0", "c2"}
	for _, id := range order {
		if err := s.RecordActivity(ctx, Activity{ConversationID: id, AtMs: 7}); err != nil {
			t.Fatal(err)
		}
	}
	h := "feedface" + strings.Repeat("1", 32)
	var ls []Link
	for _, id := range order {
		ls = append(ls, Link{ConversationID: id, Confidence: 0.5})
	}
	if err := s.ReplaceAutoLinks(ctx, h, ls); err != nil {
		t.Fatal(err)
	}
	lean, full := logAndShow(t, s, []string{h})
	ids := func(lcs []LinkedConversation) string {
		var out []string
		for _, lc := range lcs {
			out = append(out, lc.ConversationID)
		}
		return strings.Join(out, " ")
	}
	if want := strings.Join(order, " "); ids(lean[h]) != want || ids(full[h]) != want {
		t.Errorf("tied links: log %q, show %q; want %q", ids(lean[h]), ids(full[h]), want)
	}
}

// TestHasLinks: none in a new store; one once a commit is linked.
func TestHasLinks(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	if has, err := s.HasLinks(ctx); err != nil || has {
		t.Fatalf("empty store: %v, %v", has, err)
	}
	if err := s.ReplaceAutoLinks(ctx, "aaa", []Link{{ConversationID: "c1", Confidence: 0.5}}); err != nil {
		t.Fatal(err)
	}
	if has, err := s.HasLinks(ctx); err != nil || !has {
		t.Fatalf("one link: %v, %v", has, err)
	}
}

// TestLogLinksOddValues: a value of another type than its column holds
// (a title written as a blob, line counts as a real) is read as
// database/sql reads it, where LogLinksForCommits reads the driver's rows
// itself: the blob as text, the real as the error it was.
func TestLogLinksOddValues(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	for _, id := range []string{"c0", "c1"} {
		if err := s.RecordActivity(ctx, Activity{ConversationID: id, AtMs: 1}); err != nil {
			t.Fatal(err)
		}
		if err := s.ReplaceAutoLinks(ctx, "h-"+id, []Link{{ConversationID: id, Confidence: 0.5}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE conversations SET title = x'7469746c6520e282ac' WHERE conversationId = 'c0'`); err != nil {
		t.Fatal(err)
	}
	got := logLinks(t, s, []string{"h-c0", "h-c1"})
	if lcs := got["h-c0"]; len(lcs) != 1 || lcs[0].Conv.Title != "title €" || lcs[0].ConversationID != "c0" {
		t.Errorf("a blob title: %+v", lcs)
	}
	if lcs := got["h-c1"]; len(lcs) != 1 || lcs[0].ConversationID != "c1" || lcs[0].Confidence != 0.5 || lcs[0].Status != "auto" {
		t.Errorf("the other commit: %+v", lcs)
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE links SET writtenLines = 1.5 WHERE commitHash = 'h-c1'`); err != nil {
		t.Fatal(err)
	}
	for _, secs := range [][]int64{nil, {1700000000}} {
		q, args := logLinksQuery([]string{"h-c1"}, secs)
		errSQL := s.logLinksSQL(ctx, q, args, func(h string) bool { return h == "h-c1" }, map[string][]LinkedConversation{})
		if _, err := s.LogLinksForCommits(ctx, []string{"h-c1"}, secs); err == nil || errSQL == nil || !strings.Contains(err.Error(), errSQL.Error()) {
			t.Errorf("times %v: a real line count: %v, database/sql's: %v", secs, err, errSQL)
		}
	}
}

// TestLogLinksPlan: log's query finds the links by links_commit_time
// (the commit's time, then its hash) and links_commit_untimed (a link whose
// commit has no recorded time), or by links_commit where a time is not
// known; and each conversation by conversations_seen_log with both its
// columns, not by its primary key's index, which read the row (its
// prompts in overflow pages) for the columns after them.
func TestLogLinksPlan(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	for _, tc := range []struct {
		at   []int64 // the commit's time
		want []string
	}{
		{[]int64{1700000000}, []string{"SEARCH l USING INDEX links_commit_time (commitMs=? AND commitHash=?)",
			"SEARCH l USING INDEX links_commit_untimed (<expr>=?)"}},
		{nil, []string{"SEARCH l USING INDEX links_commit (commitHash=?)"}},
		{[]int64{0}, []string{"SEARCH l USING INDEX links_commit (commitHash=?)"}},
	} {
		q, args := logLinksQuery([]string{"aaa"}, tc.at)
		rows, err := s.db.QueryContext(ctx, "EXPLAIN QUERY PLAN "+q, args...)
		if err != nil {
			t.Fatal(err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
		}
		rows.Close()
		got := strings.Join(plan, "\n")
		for _, w := range append(tc.want, "SEARCH c USING INDEX conversations_seen_log (firstSeenMs=? AND conversationId=?)") {
			if !strings.Contains(got, w) {
				t.Errorf("times %v: no %q in the plan:\n%s", tc.at, w, got)
			}
		}
	}
}

// TestLogLinksSeenCopy: log finds a link's conversation by the link's copy
// of when the conversation was first seen (migration 9). Whatever order
// links and conversations are written in, the triggers keep the copy; and
// a copy out of date, even one naming another conversation's time, still
// gives the link's own conversation, as show (by id) gives it.
func TestLogLinksSeenCopy(t *testing.T) {
	const h = "aaaaaaaa11"
	record := func(t *testing.T, s *Store, id string, at int64) {
		t.Helper()
		if err := s.RecordActivity(context.Background(), Activity{ConversationID: id, AtMs: at, Prompt: "prompt of " + id}); err != nil {
			t.Fatal(err)
		}
	}
	link := func(t *testing.T, s *Store, ids ...string) {
		t.Helper()
		var ls []Link
		for _, id := range ids {
			ls = append(ls, Link{ConversationID: id, Confidence: 0.5})
		}
		if err := s.ReplaceAutoLinks(context.Background(), h, ls); err != nil {
			t.Fatal(err)
		}
	}
	exec := func(t *testing.T, s *Store, q string) {
		t.Helper()
		if _, err := s.db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, s *Store)
		stale bool // the copy is made wrong on purpose
	}{
		{"recorded, then linked", func(t *testing.T, s *Store) {
			record(t, s, "c1", 100)
			record(t, s, "c2", 200)
			link(t, s, "c1", "c2")
		}, false},
		{"linked, then recorded", func(t *testing.T, s *Store) {
			link(t, s, "c1", "c2")
			record(t, s, "c2", 200)
			record(t, s, "c1", 100)
		}, false},
		{"first seen earlier after linking", func(t *testing.T, s *Store) {
			record(t, s, "c1", 300)
			record(t, s, "c2", 200)
			link(t, s, "c1", "c2")
			record(t, s, "c1", 50)
		}, false},
		{"forgotten and captured again", func(t *testing.T, s *Store) {
			record(t, s, "c1", 100)
			record(t, s, "c2", 200)
			link(t, s, "c1", "c2")
			if _, err := s.ForgetConversation(context.Background(), "c1"); err != nil {
				t.Fatal(err)
			}
			record(t, s, "c1", 900)
			if err := s.SetManualLink(context.Background(), "c1", h, ""); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"a conversation never captured", func(t *testing.T, s *Store) {
			record(t, s, "c1", 100)
			link(t, s, "c1", "unknown")
		}, false},
		{"a copy out of date", func(t *testing.T, s *Store) {
			record(t, s, "c1", 100)
			record(t, s, "c2", 200)
			link(t, s, "c1", "c2")
			exec(t, s, `UPDATE links SET convSeenMs = convSeenMs + 1 WHERE conversationId = 'c1'`)
		}, true},
		{"a copy naming another conversation's time", func(t *testing.T, s *Store) {
			record(t, s, "c1", 100)
			record(t, s, "c2", 200)
			link(t, s, "c1", "c2")
			exec(t, s, `UPDATE conversations SET title = 'title of c2' WHERE conversationId = 'c2'`)
			exec(t, s, `UPDATE links SET convSeenMs = 200 WHERE conversationId = 'c1'`)
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := openTemp(t)
			tc.setup(t, s)
			var wrong int
			if err := s.db.QueryRow(`SELECT count(*) FROM links l LEFT JOIN conversations c USING (conversationId)
WHERE l.convSeenMs IS NOT c.firstSeenMs`).Scan(&wrong); err != nil {
				t.Fatal(err)
			}
			if stale := wrong > 0; stale != tc.stale {
				t.Errorf("%d links whose copy differs from their conversation's firstSeenMs", wrong)
			}
			lean, full := logAndShow(t, s, []string{h})
			if len(full[h]) == 0 || len(lean[h]) != len(full[h]) {
				t.Fatalf("links: log %d, show %d", len(lean[h]), len(full[h]))
			}
			for i, f := range full[h] {
				l := lean[h][i]
				prompt := f.Conv.FirstPrompt
				if f.Conv.Title != "" {
					prompt = ""
				}
				if l.ConversationID != f.ConversationID || l.Conv.Title != f.Conv.Title || l.Conv.Agent != f.Conv.Agent || l.Conv.FirstPrompt != prompt {
					t.Errorf("link %d: log %s %q %q %q, show %s %q %q %q", i, l.ConversationID, l.Conv.Title, l.Conv.Agent, l.Conv.FirstPrompt,
						f.ConversationID, f.Conv.Title, f.Conv.Agent, prompt)
				}
			}
		})
	}
}

// TestLogLinksSeenMigrated: a schema-8 store's links get their
// conversations' firstSeenMs at migration 9, and log then finds them by it.
func TestLogLinksSeenMigrated(t *testing.T) {
	ctx := context.Background()
	path := atVersion(t, 8,
		`INSERT INTO conversations (conversationId, title, firstSeenMs, activityMs) VALUES ('conv', 'a title', 42, 50)`,
		`INSERT INTO links (conversationId, commitHash, confidence, status, createdAt) VALUES ('conv', 'c1', 0.8, 'auto', '')`,
		`INSERT INTO links (conversationId, commitHash, confidence, status, createdAt) VALUES ('gone', 'c1', 0.7, 'auto', '')`,
	)
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var copies string
	if err := s.db.QueryRow(`SELECT group_concat(conversationId || '=' || COALESCE(convSeenMs, 'null'), ' ') FROM (SELECT * FROM links ORDER BY id)`).Scan(&copies); err != nil {
		t.Fatal(err)
	}
	if copies != "conv=42 gone=null" {
		t.Errorf("copies after migration: %s", copies)
	}
	got, err := s.LogLinksForCommits(ctx, []string{"c1"}, nil)
	if err != nil || len(got["c1"]) != 2 || got["c1"][0].Conv.Title != "a title" || got["c1"][1].ConversationID != "gone" {
		t.Fatalf("log's links %+v: %v", got, err)
	}
}

// logAndShow is log's links (LogLinksForCommits) and show's
// (ConversationsForCommits) for hashes, to hold the one to the other.
func logAndShow(t *testing.T, s *Store, hashes []string) (lean, full map[string][]LinkedConversation) {
	t.Helper()
	ctx := context.Background()
	lean = logLinks(t, s, hashes)
	full, err := s.ConversationsForCommits(ctx, hashes)
	if err != nil {
		t.Fatal(err)
	}
	return lean, full
}

// logLinks is log's links of hashes, asked as log asks them: with each
// commit's time as the walk reads it (its recorded time, or any for a
// commit not recorded from git), and without (where git walked). The two
// must agree.
func logLinks(t *testing.T, s *Store, hashes []string) map[string][]LinkedConversation {
	t.Helper()
	ctx := context.Background()
	secs := make([]int64, len(hashes))
	for i, h := range hashes {
		var ms sql.NullInt64
		if err := s.db.QueryRow(`SELECT gitMs FROM commits WHERE commitHash = ?`, h).Scan(&ms); err != nil && !errors.Is(err, sql.ErrNoRows) {
			t.Fatal(err)
		}
		secs[i] = 1700000000 + int64(i)
		if ms.Valid {
			secs[i] = ms.Int64 / 1000
		}
	}
	timed, err := s.LogLinksForCommits(ctx, hashes, secs)
	if err != nil {
		t.Fatal(err)
	}
	untimed, err := s.LogLinksForCommits(ctx, hashes, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(timed, untimed) {
		t.Errorf("log's links of %.12q by time:\n%+v\nby hash:\n%+v", hashes, timed, untimed)
	}
	return timed
}

// TestLogLinksCommitTime: log finds a link by its commit's time (migration
// 10), whatever order the commit and its links are written in; a link whose
// commit is not recorded from git (not yet, a prototype's row, a time no
// commit object has) by its hash's prefix. Asked with each commit's time
// as the walk reads it, log gives every link show gives, and no other.
func TestLogLinksCommitTime(t *testing.T) {
	ctx := context.Background()
	const a, b = "abcdef01" + "11111111111111111111111111111111", "abcdef01" + "22222222222222222222222222222222"
	when := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	commit := func(t *testing.T, s *Store, h string, at time.Time) {
		t.Helper()
		if err := s.UpsertCommit(ctx, Commit{Hash: h, RepoKey: "r", CommittedAt: at, ObjectTime: true, ParentCount: 1}); err != nil {
			t.Fatal(err)
		}
	}
	link := func(t *testing.T, s *Store, h, id string) {
		t.Helper()
		if err := s.ReplaceAutoLinks(ctx, h, []Link{{ConversationID: id, Confidence: 0.5}}); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name   string
		setup  func(t *testing.T, s *Store)
		timed  int // links with a copy of their commit's time
		byTime bool
	}{
		{"recorded, then linked", func(t *testing.T, s *Store) {
			commit(t, s, a, when)
			link(t, s, a, "x")
		}, 1, true},
		{"linked, then recorded", func(t *testing.T, s *Store) {
			link(t, s, a, "x")
			if err := s.SetManualLink(ctx, "y", a, ""); err != nil {
				t.Fatal(err)
			}
			commit(t, s, a, when)
		}, 2, true},
		{"recorded again", func(t *testing.T, s *Store) {
			commit(t, s, a, when)
			link(t, s, a, "x")
			commit(t, s, a, when)
		}, 1, true},
		{"never recorded", func(t *testing.T, s *Store) {
			link(t, s, a, "x")
		}, 0, false},
		{"a time git showed from a replacement", func(t *testing.T, s *Store) {
			if err := s.UpsertCommit(ctx, Commit{Hash: a, RepoKey: "r", CommittedAt: when.Add(time.Hour), ParentCount: 1}); err != nil {
				t.Fatal(err)
			}
			link(t, s, a, "x")
		}, 0, false},
		{"a time not from a commit object", func(t *testing.T, s *Store) {
			commit(t, s, a, when.Add(time.Millisecond))
			link(t, s, a, "x")
		}, 0, false},
		{"a time no key holds", func(t *testing.T, s *Store) {
			commit(t, s, a, time.Unix(1<<34, 0))
			link(t, s, a, "x")
		}, 0, false},
		{"the prototype's commit", func(t *testing.T, s *Store) {
			if _, err := s.db.Exec(`INSERT INTO commits (commitHash, committedMs) VALUES (?, ?)`, a, when.UnixMilli()); err != nil {
				t.Fatal(err)
			}
			link(t, s, a, "x")
		}, 0, false},
		{"carried by a rewrite to a commit recorded after", func(t *testing.T, s *Store) {
			commit(t, s, b, when.Add(-time.Hour))
			link(t, s, b, "x")
			if err := s.MarkRewritten(ctx, b, a); err != nil {
				t.Fatal(err)
			}
			commit(t, s, a, when)
		}, 2, true},
		{"one prefix, a commit timed and one not", func(t *testing.T, s *Store) {
			commit(t, s, a, when)
			link(t, s, a, "x")
			link(t, s, b, "y")
		}, 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := openTemp(t)
			tc.setup(t, s)
			var timed int
			if err := s.db.QueryRow(`SELECT count(*) FROM links l JOIN commits c USING (commitHash) WHERE l.commitMs = c.gitMs`).Scan(&timed); err != nil {
				t.Fatal(err)
			}
			var stale int
			if err := s.db.QueryRow(`SELECT count(*) FROM links l LEFT JOIN commits c USING (commitHash) WHERE l.commitMs IS NOT c.gitMs`).Scan(&stale); err != nil {
				t.Fatal(err)
			}
			if timed != tc.timed || stale != 0 {
				t.Errorf("links with their commit's time: %d, want %d; out of step with the commit: %d", timed, tc.timed, stale)
			}
			// As log asks: each commit with the time the walk reads.
			secs := []int64{when.Unix(), when.Add(-time.Hour).Unix()}
			lean, err := s.LogLinksForCommits(ctx, []string{a, b}, secs)
			if err != nil {
				t.Fatal(err)
			}
			full, err := s.ConversationsForCommits(ctx, []string{a, b})
			if err != nil {
				t.Fatal(err)
			}
			ids := func(m map[string][]LinkedConversation) string {
				var out []string
				for _, h := range []string{a, b} {
					for _, lc := range m[h] {
						out = append(out, h[len(h)-1:]+":"+lc.ConversationID)
					}
				}
				return strings.Join(out, " ")
			}
			if ids(lean) != ids(full) || ids(full) == "" {
				t.Errorf("log %q, show %q", ids(lean), ids(full))
			}
			// Asked with another time, a timed link is not found: the
			// time is what finds it.
			other, err := s.LogLinksForCommits(ctx, []string{a}, []int64{when.Unix() + 1})
			if err != nil {
				t.Fatal(err)
			}
			if found := len(other[a]) > 0; found == tc.byTime {
				t.Errorf("asked with another time: found %v", found)
			}
		})
	}
}

// TestLogLinksCommitTimeMigrated: a schema-9 store's links get their
// commits' times at migration 10, but not where a prototype's database
// was adopted or imported (its commits' times may not be git's).
func TestLogLinksCommitTimeMigrated(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		extra []string
		want  string
	}{
		{"recorded here", nil, "c1=1700000000000 c2=null c3=null"},
		{"a prototype adopted", []string{`INSERT INTO meta (key, value) VALUES ('prototypeAdopted', 'x')`}, "c1=null c2=null c3=null"},
		{"a prototype imported", []string{`INSERT INTO meta (key, value) VALUES ('prototypeImported:/p/links.sqlite', 'x')`}, "c1=null c2=null c3=null"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := atVersion(t, 9, append([]string{
				`INSERT INTO commits (commitHash, committedMs) VALUES ('c1', 1700000000000), ('c2', 1700000000123), ('c3', 0)`,
				`INSERT INTO links (conversationId, commitHash, confidence, status, createdAt) VALUES ('x', 'c1', 0.8, 'auto', ''), ('x', 'c2', 0.8, 'auto', ''), ('x', 'c3', 0.8, 'auto', '')`,
			}, tc.extra...)...)
			s, err := Open(ctx, path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			var copies string
			if err := s.db.QueryRow(`SELECT group_concat(commitHash || '=' || COALESCE(commitMs, 'null'), ' ') FROM (SELECT * FROM links ORDER BY commitHash)`).Scan(&copies); err != nil {
				t.Fatal(err)
			}
			if copies != tc.want {
				t.Errorf("copies after migration: %s, want %s", copies, tc.want)
			}
			got, err := s.LogLinksForCommits(ctx, []string{"c1", "c2", "c3"}, []int64{1700000000, 1700000000, 1700000000})
			if err != nil || len(got) != 3 {
				t.Errorf("log's links: %+v, %v", got, err)
			}
		})
	}
}
