package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func openTemp(t testing.TB) *Store {
	t.Helper()
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "links.sqlite"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestOpenCreatesPrivateFileAndMigrates(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a dir with spaces?#")
	path := filepath.Join(dir, "links.sqlite")
	s, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	v, err := s.Version(context.Background())
	if err != nil || v != SchemaVersion() || v < 1 {
		t.Fatalf("version = %d, %v; want %d", v, err, SchemaVersion())
	}
	var mode string
	if err := s.db.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal_mode = %q, %v", mode, err)
	}
	s.Close()
	for _, p := range []string{path, dir} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		want := os.FileMode(0o600)
		if fi.IsDir() {
			want = 0o700
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s mode = %v, want %v", p, fi.Mode().Perm(), want)
		}
	}
	// Opening again is a no-op migration.
	s2, err := Open(context.Background(), path, Options{MustExist: true})
	if err != nil {
		t.Fatal(err)
	}
	s2.Close()
}

func TestOpenErrors(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()

	_, err := Open(ctx, filepath.Join(dir, "missing.sqlite"), Options{MustExist: true})
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("missing with MustExist: %v, want ErrNotFound", err)
	}
	if _, statErr := os.Stat(filepath.Join(dir, "missing.sqlite")); statErr == nil {
		t.Error("MustExist created the file")
	}

	corrupt := filepath.Join(dir, "corrupt.sqlite")
	garbage := []byte(strings.Repeat("this is not a database ", 200))
	os.WriteFile(corrupt, garbage, 0o600)
	_, err = Open(ctx, corrupt, Options{})
	if !errors.Is(err, ErrCorrupt) {
		t.Errorf("corrupt: %v, want ErrCorrupt", err)
	}
	if got, _ := os.ReadFile(corrupt); string(got) != string(garbage) {
		t.Error("a corrupt database was modified")
	}

	newer := filepath.Join(dir, "newer.sqlite")
	s, err := Open(ctx, newer, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.db.Exec(fmt.Sprintf("PRAGMA user_version = %d", SchemaVersion()+5))
	s.Close()
	_, err = Open(ctx, newer, Options{})
	if !errors.Is(err, ErrTooNew) || !strings.Contains(err.Error(), "upgrade git-convo") {
		t.Errorf("newer: %v, want ErrTooNew naming the fix", err)
	}
}

func TestRecordActivityMerges(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	base := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC).UnixMilli()
	acts := []Activity{
		{ConversationID: "c1", Event: "beforeSubmitPrompt", AtMs: base, WorkspaceRoots: []string{"/w/app", "/w/lib"}, Prompt: "add login", Model: "gpt-5"},
		{ConversationID: "c1", Event: "afterFileEdit", AtMs: base + 1000, Files: []FileTouch{{RepoKey: "/w/app/.git", Path: "src/login.go", Source: SourceHook}}},
		{ConversationID: "c1", Event: "afterFileEdit", AtMs: base - 5000, Files: []FileTouch{{RepoKey: "/w/app/.git", Path: "src/login.go", Source: SourceHook}}},
		{ConversationID: "c1", Event: "afterAgentResponse", AtMs: base + 2000, Response: "done"},
		{ConversationID: "c1", Event: "beforeSubmitPrompt", AtMs: base + 3000, Prompt: "add login"}, // duplicate prompt
	}
	for _, a := range acts {
		if err := s.RecordActivity(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	c, err := s.GetConversation(ctx, "c1")
	if err != nil || c == nil {
		t.Fatal(c, err)
	}
	if c.FirstSeenMs != base-5000 || c.ActivityMs != base+3000 {
		t.Errorf("times: first %d activity %d", c.FirstSeenMs, c.ActivityMs)
	}
	if c.FirstPrompt != "add login" || c.LastResponse != "done" || c.Model != "gpt-5" || c.WorkspaceRoot != "/w/app" || c.ProjectName != "app" {
		t.Errorf("conversation = %+v", c)
	}
	if strings.Join(c.CapturedFiles, ",") != "src/login.go" {
		t.Errorf("capturedFiles = %v", c.CapturedFiles)
	}
	ps, _ := s.Prompts(ctx, "c1")
	if len(ps) != 1 {
		t.Errorf("prompts = %+v, want the duplicate merged", ps)
	}
	files, _ := s.ConversationFiles(ctx, "c1")
	if len(files) != 1 || files[0].FirstMs != base-5000 || files[0].LastMs != base+1000 {
		t.Errorf("files = %+v", files)
	}
	// Enrichment raises the activity time and sets the title without dropping hook data.
	err = s.ApplyEnrichment(ctx, Enrichment{ConversationID: "c1", Title: "Login page", Summary: "adds login", UpdatedMs: base + 9000,
		CreatedMs: base - 60000, FirstMessage: "add login please",
		Files: []FileTouch{{RepoKey: "/w/app/.git", Path: "src/auth.go", Source: SourceCursorEdit, AtMs: base + 500}}})
	if err != nil {
		t.Fatal(err)
	}
	c, _ = s.GetConversation(ctx, "c1")
	if c.Title != "Login page" || c.ActivityMs != base+9000 || c.FirstPrompt != "add login" {
		t.Errorf("after enrichment: %+v", c)
	}
	if strings.Join(c.CapturedFiles, ",") != "src/auth.go,src/login.go" {
		t.Errorf("capturedFiles after enrichment = %v", c.CapturedFiles)
	}
	docs, err := s.SearchCandidates(ctx, []string{"LOGIN", "please"}, ConversationFilter{})
	if err != nil || len(docs) != 1 {
		t.Errorf("search = %v, %v", docs, err)
	}
	// A title an earlier version made of the first prompt goes at the next
	// enrichment that says so; a real title stays.
	for _, tt := range []struct{ stored, promptTitle, want string }{
		{"add login please", "add login please", ""},
		{"Login page", "add login please", "Login page"},
	} {
		if err := s.ApplyEnrichment(ctx, Enrichment{ConversationID: "c-title", Title: tt.stored, UpdatedMs: base}); err != nil {
			t.Fatal(err)
		}
		if err := s.ApplyEnrichment(ctx, Enrichment{ConversationID: "c-title", PromptTitle: tt.promptTitle, UpdatedMs: base + 1}); err != nil {
			t.Fatal(err)
		}
		if c, _ := s.GetConversation(ctx, "c-title"); c == nil || c.Title != tt.want {
			t.Errorf("stored %q, prompt title %q: title %+v, want %q", tt.stored, tt.promptTitle, c, tt.want)
		}
	}
	// Case folds as Unicode folds it, beyond SQLite's ASCII LIKE.
	err = s.ApplyEnrichment(ctx, Enrichment{ConversationID: "c1", Title: "Login page ΟΔΟΣ ǅemal İstanbul", UpdatedMs: base + 9500})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		words []string
		want  int
	}{
		{[]string{"οδος"}, 1}, {[]string{"ΟΔΟς"}, 1}, {[]string{"ǆemal", "login"}, 1}, {[]string{"ǄEMAL"}, 1},
		{[]string{"i̇stanbul"}, 1}, {[]string{"ıstanbul"}, 0}, {[]string{"οδοσ", "absent"}, 0},
	} {
		docs, err := s.SearchCandidates(ctx, tt.words, ConversationFilter{})
		if err != nil || len(docs) != tt.want {
			t.Errorf("search %q = %d docs, %v; want %d", tt.words, len(docs), err, tt.want)
		}
	}
}

func TestLinksLifecycle(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	at := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.UpsertCommit(ctx, Commit{Hash: "aaa", RepoKey: "/r/.git", CommittedAt: at, Files: []string{"a.go", "b.go"}, ParentCount: 1}))
	must(s.RecordActivity(ctx, Activity{ConversationID: "c1", AtMs: at.UnixMilli() - 1000, Files: []FileTouch{{RepoKey: "/r/.git", Path: "a.go", Source: SourceHook}}}))
	must(s.RecordActivity(ctx, Activity{ConversationID: "c2", AtMs: at.UnixMilli() - 1000, Files: []FileTouch{{RepoKey: "/other/.git", Path: "a.go", Source: SourceHook}}}))
	must(s.RecordActivity(ctx, Activity{ConversationID: "c3", AtMs: at.UnixMilli() - 1000, Files: []FileTouch{{RepoKey: "/r/.git", Path: "a.go", Source: SourceContext}}}))

	cands, err := s.Candidates(ctx, "/r/.git", []string{"a.go", "b.go"}, 0)
	must(err)
	if len(cands) != 1 || cands[0].ConversationID != "c1" || len(cands[0].Files) != 1 {
		t.Fatalf("candidates = %+v; want only c1 (c2 is another repo, c3 only looked at the file)", cands)
	}
	hashes, err := s.CommitsTouchedBy(ctx, "c1", 0, at.UnixMilli()+1)
	must(err)
	if strings.Join(hashes, ",") != "aaa" {
		t.Errorf("CommitsTouchedBy = %v", hashes)
	}

	must(s.ReplaceAutoLinks(ctx, "aaa", []Link{{ConversationID: "c1", Confidence: 0.8, MatchedFiles: []string{"a.go"}, Reason: "r"}}))
	must(s.SetManualLink(ctx, "c9", "aaa", ""))
	// Re-scoring with nothing drops the auto-link but never the manual one.
	must(s.ReplaceAutoLinks(ctx, "aaa", nil))
	got, err := s.ConversationsForCommits(ctx, []string{"aaa"})
	must(err)
	if len(got["aaa"]) != 1 || got["aaa"][0].ConversationID != "c9" || got["aaa"][0].Status != StatusManual || got["aaa"][0].Confidence != 1 {
		t.Fatalf("links = %+v", got["aaa"])
	}
	// Auto-linking never overwrites a manual link.
	must(s.ReplaceAutoLinks(ctx, "aaa", []Link{{ConversationID: "c9", Confidence: 0.3}}))
	got, _ = s.ConversationsForCommits(ctx, []string{"aaa"})
	if got["aaa"][0].Status != StatusManual || got["aaa"][0].Confidence != 1 {
		t.Fatalf("manual link was changed: %+v", got["aaa"][0])
	}
	// Imports never lower a link.
	must(s.ReplaceAutoLinks(ctx, "aaa", []Link{{ConversationID: "c1", Confidence: 0.9}}))
	must(s.AddAutoLinks(ctx, "aaa", []Link{{ConversationID: "c1", Confidence: 0.4, Source: LinkSourceImport}}))
	got, _ = s.ConversationsForCommits(ctx, []string{"aaa"})
	for _, l := range got["aaa"] {
		if l.ConversationID == "c1" && l.Confidence != 0.9 {
			t.Errorf("import lowered a link to %v", l.Confidence)
		}
	}

	// Amend: links carried, old row kept and marked.
	must(s.MarkRewritten(ctx, "aaa", "bbb"))
	got, _ = s.ConversationsForCommits(ctx, []string{"aaa", "bbb"})
	if len(got["aaa"]) != 2 || len(got["bbb"]) != 2 {
		t.Fatalf("after rewrite: old %d links, new %d links; want 2 and 2", len(got["aaa"]), len(got["bbb"]))
	}
	old, _ := s.GetCommit(ctx, "aaa")
	if old == nil || old.RewrittenTo != "bbb" {
		t.Errorf("old commit = %+v", old)
	}
	removed, err := s.Unlink(ctx, "c9", "bbb")
	if err != nil || !removed {
		t.Errorf("Unlink = %v, %v", removed, err)
	}
}

// TestConcurrentWriters runs 50 writers, each with its own connection as a
// separate process would have, all at once on one database: nothing may be lost.
func TestConcurrentWriters(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "links.sqlite")
	const writers, each = 50, 20
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := Open(ctx, path, Options{}) // all racing on a new file, migrations included
			if err != nil {
				errs <- err
				return
			}
			defer s.Close()
			for i := range each {
				err := s.RecordActivity(ctx, Activity{ConversationID: fmt.Sprintf("c%d", w%5), AtMs: int64(1000 + i),
					Files: []FileTouch{{RepoKey: "/r/.git", Path: fmt.Sprintf("w%d/f%d.go", w, i), Source: SourceHook}}})
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	total := 0
	for c := range 5 {
		files, err := s.ConversationFiles(ctx, fmt.Sprintf("c%d", c))
		if err != nil {
			t.Fatal(err)
		}
		total += len(files)
	}
	if total != writers*each {
		t.Fatalf("%d files stored, want %d", total, writers*each)
	}
}
