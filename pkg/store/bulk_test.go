package store

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// dumpTables is every row of tables, in a fixed order.
func dumpTables(t *testing.T, s *Store, tables ...string) string {
	t.Helper()
	var out strings.Builder
	for _, table := range tables {
		rows, err := s.db.Query(`SELECT * FROM ` + table + ` ORDER BY ` + order(table))
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&out, "%s %v\n", table, vals)
		}
		rows.Close()
	}
	return out.String()
}

// TestBulkAsOneByOne: a bulk write, across batches and with the same
// conversation in several, leaves the database as the Store's own methods
// called one by one do.
func TestBulkAsOneByOne(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	open := func() *Store {
		s, err := Open(ctx, filepath.Join(t.TempDir(), "links.sqlite"), Options{Now: func() time.Time { return at }})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	type writer interface {
		RecordActivity(context.Context, Activity) error
		ApplyEnrichment(context.Context, Enrichment) error
		UpsertCommit(context.Context, Commit) error
		AddAutoLinks(context.Context, string, []Link) error
		SetCommitLines(context.Context, string, []FileLines, []CommitLine) error
	}
	write := func(w writer) {
		// 700 conversations of 3 events: more than one batch, and a
		// conversation's events and enrichment fall in different batches.
		for c := range 700 {
			as, e := benchEvents(c%300, 3, at.UnixMilli()-int64(c)*60_000)
			as[1].Lines = []EditLine{{RepoKey: "/bench/.git", PathKey: as[1].Files[0].Path, Hash: int64(c), Text: fmt.Sprint("line ", c)}}
			as[2].Response = fmt.Sprint("response ", c)
			for _, a := range as {
				if err := w.RecordActivity(ctx, a); err != nil {
					t.Fatal(err)
				}
			}
			if c%300%7 == 0 {
				continue // events only: their file lists are the bulk's to bring up to date
			}
			e.UserMessages = []string{fmt.Sprint("bench prompt ", c%300), "more"}
			e.Files = []FileTouch{{RepoKey: "/bench/.git", Path: "ctx.go", Source: SourceContext}}
			if err := w.ApplyEnrichment(ctx, e); err != nil {
				t.Fatal(err)
			}
			h := fmt.Sprintf("%040x", c%500+1)
			if err := w.UpsertCommit(ctx, Commit{Hash: h, RepoPath: "/bench", RepoKey: "/bench/.git", CommittedAt: at, ParentCount: 1,
				Files: []string{as[1].Files[0].Path}}); err != nil {
				t.Fatal(err)
			}
			if err := w.AddAutoLinks(ctx, h, []Link{{ConversationID: e.ConversationID, Confidence: float64(c%10) / 10,
				MatchedFiles: []string{as[1].Files[0].Path}, Reason: "test", Source: LinkSourceImport}}); err != nil {
				t.Fatal(err)
			}
			if err := w.SetCommitLines(ctx, h, []FileLines{{Path: as[1].Files[0].Path, Added: 2, Agent: 1}},
				[]CommitLine{{Path: as[1].Files[0].Path, Line: c % 7, ConversationID: e.ConversationID}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	one, bulk := open(), open()
	write(one)
	b := bulk.Bulk()
	write(b)
	if err := b.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	tables := []string{"conversations", "conversation_roots", "conversation_files", "edit_lines", "prompts", "responses",
		"commits", "commit_files", "links", "commit_lines", "meta"}
	want, got := dumpTables(t, one, tables...), dumpTables(t, bulk, tables...)
	if got != want {
		t.Fatalf("bulk write differs from one by one:\n%s", firstDiff(want, got))
	}
	if !strings.Contains(got, "bulk-conv-000299") || !strings.Contains(got, "commit_lines") {
		t.Fatal("nothing written")
	}
	if err := bulk.Bulk().RecordActivity(ctx, Activity{}); err == nil {
		t.Fatal("an activity with no conversation id was taken")
	}
}

// order sorts a table's rows whole (a table of two columns has no third).
func order(table string) string {
	if table == "meta" || table == "conversation_roots" {
		return "1, 2"
	}
	return "1, 2, 3"
}

// firstDiff is the first line where want and got differ.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range min(len(w), len(g)) {
		if w[i] != g[i] {
			return fmt.Sprintf("line %d:\nwant %s\ngot  %s", i, w[i], g[i])
		}
	}
	return fmt.Sprintf("lengths %d and %d", len(w), len(g))
}

// benchEvents is what benchmarks and benchgen write for a conversation:
// events edit events of one file each, the first with its prompt, and the
// enrichment an import makes.
func benchEvents(conv, events int, at int64) ([]Activity, Enrichment) {
	id := fmt.Sprintf("bulk-conv-%06d", conv)
	as := make([]Activity, events)
	for k := range as {
		as[k] = Activity{ConversationID: id, Event: "afterFileEdit", AtMs: at + int64(k)*1000, WorkspaceRoots: []string{"/bench"},
			Files: []FileTouch{{RepoKey: "/bench/.git", Path: fmt.Sprintf("src/pkg%d/file%d.go", (conv+k)%50, (conv*3+k)%400), Source: SourceHook}}}
	}
	as[0].Prompt = fmt.Sprint("bench prompt ", conv)
	return as, Enrichment{ConversationID: id, Title: fmt.Sprint("Bench conversation ", conv), Summary: "generated", UpdatedMs: at + int64(events)*1000}
}
