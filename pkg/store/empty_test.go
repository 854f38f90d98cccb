package store

import (
	"bytes"
	"context"
	"database/sql"
	"flag"
	"fmt"
	"os"
	"reflect"
	"testing"

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
	db, err := sql.Open("sqlite3", "file::memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	db.SetConnMaxLifetime(0)
	if err := loadImage(context.Background(), db, emptyImage); err != nil {
		t.Fatal(err)
	}
	if got, w := schemaOf(t, db), schemaOf(t, want.db); !reflect.DeepEqual(got, w) {
		t.Fatalf("empty.sqlite is not the migrations' schema; rebuild it with\n"+
			"  go test ./pkg/store -run TestEmptyImageIsCurrent -update\nimage: %q\nmigrations: %q", got, w)
	}
}

// OpenEmpty's store answers and takes writes past the image's size (a
// deserialized database could not grow), and a broken image falls back
// to the migrations.
func TestOpenEmptyWorks(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		image []byte
	}{{"image", emptyImage}, {"broken image", []byte("not a database")}} {
		t.Run(tc.name, func(t *testing.T) {
			db, err := sql.Open("sqlite3", "file::memory:")
			if err != nil {
				t.Fatal(err)
			}
			db.SetMaxOpenConns(1)
			db.SetConnMaxLifetime(0)
			_ = loadImage(ctx, db, tc.image)
			s := &Store{db: db, path: ":memory:", attempts: 1}
			if err := s.migrate(ctx, nil); err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if got, want := schemaOf(t, db), schemaOf(t, migrated(t).db); !reflect.DeepEqual(got, want) {
				t.Fatalf("schema differs")
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
	var n int
	if err := s.db.QueryRow("SELECT COUNT(*) FROM sqlite_master").Scan(&n); err != nil || n == 0 {
		t.Fatalf("OpenEmpty: %d objects, %v", n, err)
	}
}

func BenchmarkOpenEmpty(b *testing.B) {
	for b.Loop() {
		s, err := OpenEmpty(context.Background(), nil)
		if err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}
