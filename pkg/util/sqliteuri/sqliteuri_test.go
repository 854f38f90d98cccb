package sqliteuri

import (
	"database/sql"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"
)

func TestForOS(t *testing.T) {
	ro := url.Values{"mode": {"ro"}}
	for _, c := range []struct {
		goos, path string
		q          url.Values
		want       string
	}{
		{"linux", "/tmp/a.db", nil, "file:///tmp/a.db"},
		{"linux", "/tmp/a.db", ro, "file:///tmp/a.db?mode=ro"},
		{"linux", "/tmp/my repo/a.db", ro, "file:///tmp/my%20repo/a.db?mode=ro"},
		{"linux", "/tmp/what?/a#1/100%.db", ro, "file:///tmp/what%3F/a%231/100%25.db?mode=ro"},
		{"linux", "/tmp/é/日本.db", nil, "file:///tmp/%C3%A9/%E6%97%A5%E6%9C%AC.db"},
		{"linux", "/tmp/a&mode=rw.db", ro, "file:///tmp/a&mode=rw.db?mode=ro"},
		{"linux", `/tmp/back\slash.db`, nil, "file:///tmp/back%5Cslash.db"},
		{"linux", `C:\x.db`, nil, "file:C:%5Cx.db"}, // on Unix a file named so, relative
		{"linux", "rel/a b.db", ro, "file:rel/a%20b.db?mode=ro"},
		{"windows", `C:\Users\a b\AppData\state.vscdb`, ro, "file:///C:/Users/a%20b/AppData/state.vscdb?mode=ro"},
		{"windows", "c:/x/y#.db", nil, "file:///c:/x/y%23.db"},
		{"windows", `rel\a.db`, nil, "file:rel/a.db"},
	} {
		if got := forOS(c.goos, c.path, c.q); got != c.want {
			t.Errorf("forOS(%s, %q) = %q, want %q", c.goos, c.path, got, c.want)
		}
	}
}

func TestReadOnly(t *testing.T) {
	if got, want := ReadOnly("/x/a.db", 250*time.Millisecond), "file:///x/a.db?_busy_timeout=250&mode=ro"; got != want {
		t.Errorf("ReadOnly = %q, want %q", got, want)
	}
	if got, want := ReadOnly("/x/a.db", 0), "file:///x/a.db?mode=ro"; got != want {
		t.Errorf("ReadOnly without a wait = %q, want %q", got, want)
	}
}

// TestRealFiles opens real databases at odd paths: SQLite must find the very
// file (not a truncated name), read it, and refuse to write it.
func TestRealFiles(t *testing.T) {
	for _, name := range []string{"plain.db", "a b.db", "what?.db", "a#b.db", "100%.db", "%41.db", "é日本.db", "a&mode=rw.db"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "dir ?#%")
			if err := os.Mkdir(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, name)
			w, err := sql.Open("sqlite3", File(path, nil))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w.Exec(`CREATE TABLE t (v TEXT); INSERT INTO t VALUES ('x')`); err != nil {
				t.Fatal(err)
			}
			w.Close()
			if _, err := os.Stat(path); err != nil {
				t.Fatalf("the database is not at %q: %v", path, err)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 {
				t.Fatalf("files beside the database: %v", entries)
			}
			r, err := sql.Open("sqlite3", ReadOnly(path, time.Second))
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			var v string
			if err := r.QueryRow(`SELECT v FROM t`).Scan(&v); err != nil || v != "x" {
				t.Fatalf("read: %q, %v", v, err)
			}
			if _, err := r.Exec(`INSERT INTO t VALUES ('y')`); err == nil || !strings.Contains(err.Error(), "readonly") {
				t.Errorf("a write through the read-only URI: %v", err)
			}
		})
	}
}
