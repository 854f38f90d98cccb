package store

import (
	"context"
	"database/sql"
	"time"
)

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
	if err := s.migrate(ctx, nil); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}
