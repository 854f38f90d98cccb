package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/store/prototypetest"
	"github.com/git-convo/git-convo/pkg/util/sqliteuri"
)

const protoHash = "4c1d8e2a9f0b4c1d8e2a9f0b4c1d8e2a9f0b4c1d"

// testResolver places every path under repo in one repository, keyed
// "<repo>/.git", compared case-folded.
func testResolver(repo string) *Resolver {
	return &Resolver{
		Locate: func(abs string) (string, string, bool) {
			rel, err := filepath.Rel(repo, abs)
			if err != nil || strings.HasPrefix(rel, "..") {
				return "", "", false
			}
			return repo + "/.git", filepath.ToSlash(rel), true
		},
		RepoKey: func(dir string) string {
			if dir == repo {
				return repo + "/.git"
			}
			return ""
		},
		PathKey: strings.ToLower,
	}
}

func newPrototypeDB(t *testing.T, path, repo string, at time.Time) {
	t.Helper()
	if err := prototypetest.Write(path, prototypetest.Sample(repo, protoHash, at)); err != nil {
		t.Fatal(err)
	}
}

func countRows(t *testing.T, db *sql.DB, table string) int {
	t.Helper()
	var n int
	if err := db.QueryRow(`SELECT COUNT(*) FROM ` + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestAdoptPrototype: a links.sqlite the prototype wrote opens, in place,
// after a backup beside it, with every row, its links' confidence and
// status, and the side tables filled from its JSON columns.
func TestAdoptPrototype(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "links.sqlite")
	repo := "/home/ada/api"
	at := time.Date(2026, 11, 22, 14, 3, 11, 0, time.UTC)
	newPrototypeDB(t, path, repo, at)

	// Without a resolver it is refused and left as it was.
	if _, err := Open(ctx, path, Options{MustExist: true}); !errors.Is(err, ErrPrototypeNeedsResolver) {
		t.Fatalf("open without a resolver: %v", err)
	}
	s, err := Open(ctx, path, Options{MustExist: true, Resolver: testResolver(repo)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v, _ := s.Version(ctx); v != SchemaVersion() {
		t.Fatalf("version %d, want %d", v, SchemaVersion())
	}
	// The backup is the prototype's database, untouched.
	b, err := sql.Open("sqlite3", sqliteuri.ReadOnly(path+".prototype-backup", 0))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var bv int
	b.QueryRow("PRAGMA user_version").Scan(&bv)
	if bv != 0 || countRows(t, b, "conversations") != 2 || countRows(t, b, "links") != 2 {
		t.Errorf("backup: version %d", bv)
	}
	if fi, err := os.Stat(path + ".prototype-backup"); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("backup mode: %v %v", fi, err)
	}
	for table, want := range map[string]int{"conversations": 2, "commits": 1, "links": 2, "commit_files": 2, "conversation_roots": 2} {
		if n := countRows(t, s.db, table); n != want {
			t.Errorf("%s: %d rows, want %d", table, n, want)
		}
	}
	// Links keep id, confidence, status and matched files.
	rows, err := s.db.Query(`SELECT id, conversationId, confidence, status, matchedFiles FROM links ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for rows.Next() {
		var id int
		var conv, status, files string
		var conf float64
		rows.Scan(&id, &conv, &conf, &status, &files)
		got = append(got, fmt.Sprintf("%s %s %s %.2f", conv, status, files, conf))
		if id != len(got) {
			t.Errorf("link id %d at position %d", id, len(got))
		}
	}
	rows.Close()
	want := []string{`3f1c9a52-7d0e-4b8e-9a61-2c5d8e4f7a10 auto ["src/auth.ts","src/middleware.ts"] 0.92`, `conv-123 manual [] 1.00`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("links:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Side tables from the JSON columns, under the repository's key.
	files, err := s.ConversationFiles(ctx, "3f1c9a52-7d0e-4b8e-9a61-2c5d8e4f7a10")
	if err != nil || len(files) < 2 {
		t.Fatalf("conversation files: %+v %v", files, err)
	}
	var fks string
	s.db.QueryRow(`SELECT group_concat(repoKey || ':' || pathKey || ':' || source, ' ') FROM (SELECT * FROM conversation_files ORDER BY pathKey, source)`).Scan(&fks)
	if fks != "/home/ada/api/.git:src/auth.ts:cursor-context /home/ada/api/.git:src/auth.ts:hook /home/ada/api/.git:src/middleware.ts:hook" {
		t.Errorf("conversation_files: %s", fks)
	}
	c, err := s.GetCommit(ctx, protoHash)
	if err != nil || c == nil || c.RepoKey != "/home/ada/api/.git" || !c.CommittedAt.Equal(at) || len(c.Files) != 2 {
		t.Errorf("commit: %+v %v", c, err)
	}
	linked, err := s.ConversationsForCommits(ctx, []string{protoHash})
	if err != nil || len(linked[protoHash]) != 2 || linked[protoHash][0].Conv.Title == "" {
		t.Errorf("linked: %+v %v", linked, err)
	}
	// The prototype's JSON columns are kept as they were.
	var captured, created string
	s.db.QueryRow(`SELECT capturedFiles, createdAt FROM conversations WHERE conversationId = '3f1c9a52-7d0e-4b8e-9a61-2c5d8e4f7a10'`).Scan(&captured, &created)
	if captured != `["src/auth.ts","src/middleware.ts"]` || created != "2026-11-22T12:03:11.000Z" {
		t.Errorf("JSON columns: %s %s", captured, created)
	}
	s.Close()
	// Opening again changes nothing and makes no second backup.
	s2, err := Open(ctx, path, Options{MustExist: true})
	if err != nil {
		t.Fatal(err)
	}
	s2.Close()
	if _, err := os.Stat(path + ".prototype-backup.1"); err == nil {
		t.Error("a second backup was written")
	}
}

// TestImportPrototype copies the prototype's rows into an existing store:
// ours stand, the prototype's manual link wins over our auto one, and a
// second import adds nothing.
func TestImportPrototype(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	src := filepath.Join(dir, "CursorChatHistory", "links.sqlite")
	repo := "/home/ada/api"
	newPrototypeDB(t, src, repo, time.Date(2026, 11, 22, 14, 3, 11, 0, time.UTC))
	s := openTemp(t)
	if err := s.UpsertCommit(ctx, Commit{Hash: protoHash, RepoPath: repo, RepoKey: repo + "/.git", Message: "auth: add JWT (ours)",
		CommittedAt: time.Now(), Files: []string{"src/auth.ts"}}); err != nil {
		t.Fatal(err)
	}
	if err := s.AddAutoLinks(ctx, protoHash, []Link{{ConversationID: "conv-123", Confidence: 0.3, Reason: "ours"}}); err != nil {
		t.Fatal(err)
	}
	n, err := s.ImportPrototype(ctx, src, *testResolver(repo))
	if err != nil {
		t.Fatal(err)
	}
	if n != (PrototypeCounts{Conversations: 2, Commits: 1, Links: 2, NewConversations: 2, NewCommits: 0, NewLinks: 2}) {
		t.Errorf("counts = %+v", n)
	}
	c, _ := s.GetCommit(ctx, protoHash)
	if c.Message != "auth: add JWT (ours)" {
		t.Errorf("our commit was overwritten: %+v", c)
	}
	linked, _ := s.ConversationsForCommits(ctx, []string{protoHash})
	st := map[string]string{}
	for _, lc := range linked[protoHash] {
		st[lc.ConversationID] = lc.Status
	}
	if st["conv-123"] != "manual" || st["3f1c9a52-7d0e-4b8e-9a61-2c5d8e4f7a10"] != "auto" {
		t.Errorf("links after import: %v", st)
	}
	n, err = s.ImportPrototype(ctx, src, *testResolver(repo))
	if err != nil || n.NewConversations+n.NewCommits+n.NewLinks != 0 {
		t.Errorf("second import: %+v %v", n, err)
	}
	// The source is opened read-only and left as it was.
	b, _ := sql.Open("sqlite3", sqliteuri.ReadOnly(src, 0))
	defer b.Close()
	var v int
	b.QueryRow("PRAGMA user_version").Scan(&v)
	if v != 0 || countRows(t, b, "links") != 2 {
		t.Errorf("source changed: version %d", v)
	}
	if _, err := s.ImportPrototype(ctx, filepath.Join(dir, "nope.sqlite"), *testResolver(repo)); err == nil {
		t.Error("a missing file imported")
	}
}

func TestDefaultPrototypePath(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	tests := []struct {
		goos string
		env  map[string]string
		want string
	}{
		{"linux", map[string]string{"HOME": "/h", "XDG_DATA_HOME": "/x", "CURSOR_LINKS_DB_PATH": "/o"}, "/h/.local/share/CursorChatHistory/links.sqlite"},
		{"darwin", map[string]string{"HOME": "/Users/a"}, "/Users/a/Library/Application Support/CursorChatHistory/links.sqlite"},
		{"windows", map[string]string{"APPDATA": `C:\Users\a\AppData\Roaming`}, `C:\Users\a\AppData\Roaming\CursorChatHistory\links.sqlite`},
	}
	for _, tt := range tests {
		if got, err := DefaultPrototypePath(env(tt.env), tt.goos); err != nil || got != tt.want {
			t.Errorf("%s: %q %v, want %q", tt.goos, got, err, tt.want)
		}
	}
	if _, err := DefaultPrototypePath(env(nil), "linux"); err == nil {
		t.Error("no HOME: no error")
	}
}
