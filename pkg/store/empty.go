package store

import (
	"context"
	"database/sql"
	_ "embed"
	"fmt"
	"time"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// emptyImage is a database with the current schema and no rows, as SQLite
// serializes it (124 KB). Building the schema by running the migrations
// costs a read command 3–4 ms (the FTS tables above all); copying this
// image in costs a tenth of that. It is stored as it is: inflating it from
// gzip took most of OpenEmpty (BenchmarkOpenEmpty: 0.7–1.4 ms, now
// 0.17–0.30) for 120 KB less binary. TestEmptyImageIsCurrent fails when a
// migration changes the schema and the image was not rebuilt
// (`go test ./pkg/store -run TestEmptyImageIsCurrent -update`).
//
//go:embed empty.sqlite
var emptyImage []byte

// OpenEmpty returns a store with the current schema and no rows, held in
// memory: what read commands answer from before the first commit is
// recorded, so they behave as git does with no conversations, without
// creating the user's database file.
func OpenEmpty(ctx context.Context, now func() time.Time) (*Store, error) {
	db, err := sql.Open("sqlite3", "file::memory:")
	if err != nil {
		return nil, err
	}
	// The database lives as long as its one connection.
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	s := &Store{db: db, path: ":memory:", now: time.Now, attempts: 1}
	if now != nil {
		s.now = now
	}
	// The image is a shortcut only: whatever it lacks, the migrations add.
	_ = loadImage(ctx, db, emptyImage)
	if err := s.migrate(ctx, nil); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// loadImage copies a serialized database into db's one connection. The
// image is deserialized into a connection of its own and copied with
// SQLite's backup, so that db stays an ordinary in-memory database that
// can grow (a deserialized one has a fixed size).
func loadImage(ctx context.Context, db *sql.DB, img []byte) error {
	dc, err := (&sqlite3.SQLiteDriver{}).Open(":memory:")
	if err != nil {
		return err
	}
	src := dc.(*sqlite3.SQLiteConn)
	defer src.Close()
	if err := src.Deserialize(img, "main"); err != nil {
		return err
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(c any) error {
		dst, ok := c.(*sqlite3.SQLiteConn)
		if !ok {
			return fmt.Errorf("not a SQLite connection: %T", c)
		}
		b, err := dst.Backup("main", src, "main")
		if err != nil {
			return err
		}
		if _, err := b.Step(-1); err != nil {
			b.Finish()
			return err
		}
		return b.Finish()
	})
}
