package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	_ "embed"
	"fmt"
	"io"
	"sync/atomic"
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
// creating the user's database file. SQLite is opened on the store's first
// query, not here: a read that asks nothing of it (Blank) costs none.
func OpenEmpty(ctx context.Context, now func() time.Time) (*Store, error) {
	c := &emptyConnector{img: emptyImage}
	db := sql.OpenDB(c)
	// The database lives as long as its one connection.
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	s := &Store{db: db, path: ":memory:", now: time.Now, attempts: 1, empty: c}
	if now != nil {
		s.now = now
	}
	return s, nil
}

// Blank reports a store OpenEmpty made that no query has reached yet: it
// holds no row (nothing can be written without a connection), so a caller
// may take every answer as empty without asking SQLite.
func (s *Store) Blank() bool {
	return s.empty != nil && !s.empty.opened.Load()
}

// emptyConnector makes OpenEmpty's one in-memory connection on first use,
// with the schema copied from img.
type emptyConnector struct {
	img    []byte
	opened atomic.Bool
}

func (c *emptyConnector) Connect(context.Context) (driver.Conn, error) {
	c.opened.Store(true)
	dc, err := c.Driver().Open("file::memory:")
	if err != nil {
		return nil, err
	}
	conn := dc.(*sqlite3.SQLiteConn)
	// The image is a shortcut only: whatever it lacks, the migrations add.
	_ = loadImage(conn, c.img)
	if err := migrateConn(conn); err != nil {
		conn.Close()
		return nil, err
	}
	return conn, nil
}

// Driver is links.sqlite's, with its functions (convo_fold).
func (c *emptyConnector) Driver() driver.Driver { return connector{}.Driver() }

// loadImage copies a serialized database into dst. The image is
// deserialized into a connection of its own and copied with SQLite's
// backup, so that dst stays an ordinary in-memory database that can grow
// (a deserialized one has a fixed size).
func loadImage(dst *sqlite3.SQLiteConn, img []byte) error {
	dc, err := (&sqlite3.SQLiteDriver{}).Open(":memory:")
	if err != nil {
		return err
	}
	src := dc.(*sqlite3.SQLiteConn)
	defer src.Close()
	if err := src.Deserialize(img, "main"); err != nil {
		return err
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
}

// migrateConn applies to a fresh in-memory connection the migrations its
// schema lacks (all of them where no image was loaded): migrate's work,
// on the connection database/sql is still making.
func migrateConn(conn *sqlite3.SQLiteConn) error {
	ms, err := migrations()
	if err != nil {
		return err
	}
	cur, err := userVersion(conn)
	if err != nil {
		return err
	}
	if cur == len(ms) {
		return nil
	}
	if cur > len(ms) {
		return fmt.Errorf("%w: the empty schema has version %d, this git-convo knows up to %d", ErrTooNew, cur, len(ms))
	}
	for _, m := range ms[cur:] {
		if _, err := conn.Exec(m.sql, nil); err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
	}
	_, err = conn.Exec(fmt.Sprintf("PRAGMA user_version = %d", len(ms)), nil)
	return err
}

func userVersion(conn *sqlite3.SQLiteConn) (int, error) {
	rows, err := conn.Query("PRAGMA user_version", nil)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	v := make([]driver.Value, 1)
	if err := rows.Next(v); err != nil && err != io.EOF {
		return 0, err
	}
	n, _ := v[0].(int64)
	return int(n), nil
}
