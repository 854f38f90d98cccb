package ingest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/agents/cursor"
	"github.com/git-convo/git-convo/pkg/agents/cursor/cursortest"
	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/attribution/link"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/util/mstime"
	"github.com/git-convo/git-convo/pkg/util/sqliteuri"
)

// enrichCursorReference is Cursor's enrichment as it was before it went
// through cursor.Source.ReadConversation and Writer.Enrich: it read the
// composer from state.vscdb itself. It is kept here as the reference that
// TestCursorEnrichMatchesReference holds the seam to.
func enrichCursorReference(ctx context.Context, w Writer, dbPath, convID string, roots []string) error {
	db, err := cursor.OpenDB(ctx, dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	comp, err := db.Composer(ctx, convID)
	if errors.Is(err, cursor.ErrNotFound) {
		return fmt.Errorf("conversation %s is not in Cursor's database %s (yet)", convID, dbPath)
	}
	if err != nil {
		return err
	}
	e := store.Enrichment{
		ConversationID: convID,
		Title:          comp.Title,
		Summary:        comp.Summary,
		Status:         comp.Status,
		Mode:           comp.Mode,
		Model:          comp.Model,
		CreatedMs:      mstime.Ms(comp.CreatedAt),
		UpdatedMs:      mstime.Ms(comp.UpdatedAt),
		FirstMessage:   comp.FirstUserMessage,
		UserMessages:   comp.UserMessages,
		EnrichedMs:     w.Now().UnixMilli(),
		Roots:          roots,
	}
	loc := &Locator{}
	for _, f := range comp.EditedFiles {
		t := loc.Touch(f.Path, "", store.SourceCursorEdit)
		t.AtMs = mstime.Ms(f.At)
		e.Files = append(e.Files, t)
	}
	for _, f := range comp.ContextFiles {
		e.Files = append(e.Files, loc.Touch(f, "", store.SourceContext))
	}
	for path, lines := range comp.WrittenLines {
		t := loc.Touch(path, "", store.SourceCursorEdit) // in no repository: kept, waiting (ClaimUnplaced)
		for _, l := range lines {
			if !link.Countable(l.Text) {
				continue
			}
			e.Lines = append(e.Lines, store.EditLine{RepoKey: t.RepoKey, PathKey: t.PathKey,
				Hash: link.LineHash(l.Text), Text: link.NormLine(l.Text), AtMs: mstime.Ms(l.At)})
		}
	}
	return w.Store.ApplyEnrichment(ctx, e)
}

// richCursorDB writes a conversation into a state.vscdb in Cursor's schema
// with everything enrichment reads: edited files (one with a codeBlockDiff),
// a newly created file, a file only a checkpoint's diff names, context files
// (fileSelections, and a bubble's relevantFiles, one outside every
// repository), a summary and several prompts.
func richCursorDB(t *testing.T, repo string) (dbPath string, conv cursortest.Conversation) {
	t.Helper()
	dbPath = filepath.Join(t.TempDir(), "state.vscdb")
	conv = cursortest.Sample()
	conv.Summary = "Listed the queries and commented them."
	a, b := filepath.Join(repo, "src", "a.go"), filepath.Join(repo, "src", "b.go")
	conv.Edited = []string{a, b}
	rows := conv.Rows()
	cd := rows["composerData:"+conv.ID].(map[string]any)
	code := cd["codeBlockData"].(map[string]any)
	for uri, blocks := range code {
		if strings.HasSuffix(uri, "a.go") {
			for _, blk := range blocks.(map[string]any) {
				blk.(map[string]any)["diffId"] = "diff-a"
			}
		}
	}
	cd["newlyCreatedFiles"] = []any{map[string]any{"uri": map[string]any{"fsPath": filepath.Join(repo, "src", "new.go")}}}
	cd["context"] = map[string]any{"fileSelections": []any{
		map[string]any{"uri": map[string]any{"fsPath": filepath.Join(repo, "README.md")}},
		map[string]any{"uri": map[string]any{"path": "/elsewhere/notes.txt"}},
	}}
	rows["codeBlockDiff:"+conv.ID+":diff-a"] = map[string]any{"newModelDiffWrtV0": []any{
		map[string]any{"modified": []string{"func A() int {", "\treturn 1   ", "", "}"}},
	}}
	rows["checkpointId:"+conv.ID+":cp-1"] = map[string]any{"files": []any{
		map[string]any{"uri": map[string]any{"fsPath": filepath.Join(repo, "src", "only_in_checkpoint.go")},
			"newModelDiffWrtV0": []any{map[string]any{"modified": []string{"var checkpointed = true", "  "}}}},
		map[string]any{"uri": map[string]any{"fsPath": "/elsewhere/out.go"},
			"newModelDiffWrtV0": []any{map[string]any{"modified": []string{"package out"}}}},
	}}
	for k, v := range rows {
		if !strings.HasPrefix(k, "bubbleId:") {
			continue
		}
		if bub := v.(map[string]any); bub["type"] == 1 {
			bub["relevantFiles"] = []string{filepath.Join(repo, "src", "a.go"), filepath.Join(repo, "docs", "guide.md")}
			break
		}
	}
	if err := cursortest.Put(dbPath, "cursorDiskKV", rows); err != nil {
		t.Fatal(err)
	}
	return dbPath, conv
}

// storeRows dumps what links.sqlite holds of one conversation, every row of
// every table that names it, sorted.
func storeRows(t *testing.T, path, convID string) string {
	t.Helper()
	db, err := sql.Open("sqlite3", sqliteuri.ReadOnly(path, 0))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var out []string
	for _, table := range []string{"conversations", "conversation_files", "edit_lines", "conversation_roots", "prompts"} {
		rows, err := db.Query(`SELECT * FROM `+table+` WHERE conversationId = ?`, convID)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		var lines []string
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			for i, v := range vals {
				if bs, ok := v.([]byte); ok {
					v = string(bs)
				}
				fmt.Fprintf(&b, "%s=%v ", cols[i], v)
			}
			lines = append(lines, table+": "+b.String())
		}
		rows.Close()
		sort.Strings(lines)
		out = append(out, lines...)
	}
	return strings.Join(out, "\n")
}

// TestCursorEnrichMatchesReference pins Cursor's enrichment through the seam:
// Writer.Enrich(cursor.Source) stores exactly what the reference (reading
// state.vscdb directly) stored, for a generated database with every kind of
// file and diff enrichment reads, over hook data and with import's roots,
// and for the real fixture when it is present.
func TestCursorEnrichMatchesReference(t *testing.T) {
	ctx := context.Background()
	repo := gitInit(t)
	rich, conv := richCursorDB(t, repo)
	cases := []struct {
		name, db, id string
		roots        []string
		hook         bool // a hook event recorded first
	}{
		{name: "generated", db: rich, id: conv.ID},
		{name: "generated over hook data", db: rich, id: conv.ID, hook: true},
		{name: "generated, imported", db: rich, id: conv.ID, roots: []string{repo}},
	}
	if p, ok := cursortest.SharedPath("state-vscdb-git-ai", "cursor_test.vscdb"); ok {
		cases = append(cases, struct {
			name, db, id string
			roots        []string
			hook         bool
		}{name: "real fixture", db: p, id: cursortest.SampleID})
	} else {
		t.Log("the real fixture is absent: pinning against the generated database only")
	}
	now := func() time.Time { return time.UnixMilli(1_800_000_000_000) }
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			getenv := func(k string) string {
				if k == "CURSOR_DB_PATH" {
					return tc.db
				}
				return ""
			}
			enrich := func(ref bool) string {
				path := filepath.Join(t.TempDir(), "links.sqlite")
				s, err := store.Open(ctx, path, store.Options{Now: now})
				if err != nil {
					t.Fatal(err)
				}
				w := Writer{Store: s, Now: now, Getenv: getenv}
				if tc.hook {
					a := source.Activity{ConversationID: tc.id, Event: "afterFileEdit", Roots: []string{repo},
						Files: []string{filepath.Join(repo, "src", "a.go")}, Added: map[string][]string{filepath.Join(repo, "src", "a.go"): {"func A() int {"}}}
					if err := w.Record(ctx, cursor.Source{Getenv: getenv}, a, 1_700_000_000_000); err != nil {
						t.Fatal(err)
					}
				}
				if ref {
					err = enrichCursorReference(ctx, w, tc.db, tc.id, tc.roots)
				} else {
					err = w.Enrich(ctx, cursor.Source{Getenv: getenv}, tc.id, source.Hint{}, tc.roots)
				}
				if err != nil {
					t.Fatal(err)
				}
				if err := s.Close(); err != nil {
					t.Fatal(err)
				}
				return storeRows(t, path, tc.id)
			}
			want, got := enrich(true), enrich(false)
			if want == "" {
				t.Fatal("the reference stored nothing")
			}
			if got != want {
				t.Errorf("through the seam:\n%s\n\nthe reference:\n%s", got, want)
			}
		})
	}
}

// TestCursorEnrichPinCanFail: the dump the pin compares differs when the
// enrichment differs (a file's source), so the pin is not vacuous.
func TestCursorEnrichPinCanFail(t *testing.T) {
	ctx := context.Background()
	repo := gitInit(t)
	now := func() time.Time { return time.UnixMilli(1_800_000_000_000) }
	dump := func(src string) string {
		path := filepath.Join(t.TempDir(), "links.sqlite")
		s, err := store.Open(ctx, path, store.Options{Now: now})
		if err != nil {
			t.Fatal(err)
		}
		loc := &Locator{}
		e := store.Enrichment{ConversationID: "c", Files: []store.FileTouch{loc.Touch(filepath.Join(repo, "a.go"), "", src)}}
		if err := s.ApplyEnrichment(ctx, e); err != nil {
			t.Fatal(err)
		}
		s.Close()
		return storeRows(t, path, "c")
	}
	if dump(store.SourceTool) == dump(store.SourceCursorEdit) {
		t.Error("the store dump does not show a file's source")
	}
}
