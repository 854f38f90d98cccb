package store

import (
	"bytes"
	"context"
	"database/sql"
	"database/sql/driver"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	sqlite3 "github.com/mattn/go-sqlite3"
)

var updateImage = flag.Bool("update", false, "rebuild empty.sqlite from the migrations")

// schemaOf lists a database's schema objects and its version.
func schemaOf(t *testing.T, db *sql.DB) []string {
	t.Helper()
	rows, err := db.Query("SELECT type, name, tbl_name, COALESCE(sql, '') FROM sqlite_master ORDER BY type, name")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var typ, name, tbl, text string
		if err := rows.Scan(&typ, &name, &tbl, &text); err != nil {
			t.Fatal(err)
		}
		out = append(out, typ+" "+name+" "+tbl+"\n"+text)
	}
	var v int
	if err := db.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		t.Fatal(err)
	}
	return append(out, fmt.Sprintf("user_version %d", v))
}

// migrated is the schema built by running every migration on a fresh
// in-memory database.
func migrated(t *testing.T) *Store {
	t.Helper()
	db, err := sql.Open("sqlite3", "file::memory:")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	db.SetConnMaxLifetime(0)
	s := &Store{db: db, path: ":memory:", attempts: 1}
	if err := s.migrate(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return s
}

// The embedded image has exactly the schema the migrations build; with
// -update it is rebuilt from them.
func TestEmptyImageIsCurrent(t *testing.T) {
	want := migrated(t)
	if *updateImage {
		conn, err := want.db.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		var img []byte
		err = conn.Raw(func(c any) error {
			var err error
			img, err = c.(*sqlite3.SQLiteConn).Serialize("main")
			return err
		})
		conn.Close()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("empty.sqlite", img, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote empty.sqlite: %d bytes", len(img))
		return
	}
	db := sql.OpenDB(imageOnly{emptyImage}) // no migration to make up for what it lacks
	defer db.Close()
	db.SetMaxOpenConns(1)
	if got, w := schemaOf(t, db), schemaOf(t, want.db); !reflect.DeepEqual(got, w) {
		t.Fatalf("empty.sqlite is not the migrations' schema; rebuild it with\n"+
			"  go test ./pkg/store -run TestEmptyImageIsCurrent -update\nimage: %q\nmigrations: %q", got, w)
	}
}

// imageOnly opens in-memory connections holding img, as loadImage copies it.
type imageOnly struct{ img []byte }

func (c imageOnly) Connect(context.Context) (driver.Conn, error) {
	dc, err := c.Driver().Open("file::memory:")
	if err != nil {
		return nil, err
	}
	if err := loadImage(dc.(*sqlite3.SQLiteConn), c.img); err != nil {
		dc.Close()
		return nil, err
	}
	return dc, nil
}

func (imageOnly) Driver() driver.Driver { return &sqlite3.SQLiteDriver{} }

// OpenEmpty's store answers and takes writes past the image's size (a
// deserialized database could not grow), and a broken image falls back
// to the migrations. It opens no SQLite until its first query (Blank).
func TestOpenEmptyWorks(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		image []byte
	}{{"image", emptyImage}, {"broken image", []byte("not a database")}, {"no image", nil}} {
		t.Run(tc.name, func(t *testing.T) {
			c := &emptyConnector{img: tc.image}
			db := sql.OpenDB(c)
			db.SetMaxOpenConns(1)
			db.SetConnMaxLifetime(0)
			s := &Store{db: db, path: ":memory:", attempts: 1, empty: c, now: time.Now}
			defer s.Close()
			if !s.Blank() {
				t.Fatal("Blank before any query = false")
			}
			if got, want := schemaOf(t, db), schemaOf(t, migrated(t).db); !reflect.DeepEqual(got, want) {
				t.Fatalf("schema differs")
			}
			if s.Blank() {
				t.Fatal("Blank after a query = true")
			}
			big := bytes.Repeat([]byte("x"), 1<<20)
			for i := range 4 {
				if _, err := db.Exec("CREATE TABLE IF NOT EXISTS grow(b BLOB); INSERT INTO grow VALUES (?)", big); err != nil {
					t.Fatalf("write %d: %v", i, err)
				}
			}
		})
	}
	s, err := OpenEmpty(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !s.Blank() {
		t.Fatal("OpenEmpty: Blank = false before any query")
	}
	// What a Blank store's caller takes as the answer is what the store
	// answers once asked.
	linked, err := s.ConversationsForCommits(ctx, []string{"0123456789012345678901234567890123456789"})
	if err != nil || len(linked) != 0 {
		t.Fatalf("ConversationsForCommits on the empty store = %v, %v", linked, err)
	}
	if c, err := s.GetCommit(ctx, "0123456789012345678901234567890123456789"); c != nil || err != nil {
		t.Fatalf("GetCommit on the empty store = %v, %v", c, err)
	}
	if s.Blank() {
		t.Fatal("Blank after a query = true")
	}
	// convo_fold, search's case folding, is there as in links.sqlite.
	var folded string
	if err := s.db.QueryRow("SELECT convo_fold('ÉCOLE')").Scan(&folded); err != nil || folded == "" {
		t.Fatalf("convo_fold on the empty store: %q, %v", folded, err)
	}
}

// A store on a file is never Blank, whatever it holds.
func TestOpenNotBlank(t *testing.T) {
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "links.sqlite"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Blank() {
		t.Fatal("a store on a file is Blank")
	}
}

func BenchmarkOpenEmpty(b *testing.B) {
	for b.Loop() {
		s, err := OpenEmpty(context.Background(), nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Version(context.Background()); err != nil { // its first query opens it
			b.Fatal(err)
		}
		s.Close()
	}
}
