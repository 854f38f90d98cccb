package store

import (
	"context"
	"database/sql"
	"time"
)

// The lines diffs added, kept (migration 7): blame clips teammates' notes
// to the lines each commit added to the blamed file (pkg/share/notes),
// which costs a git log -p of every noted commit; what git printed for a
// pair of blobs under the same settings is kept, so that the next blame
// of the file diffs none of them. Rows are keyed by what git's answer is a
// function of, so none goes stale; rows of other settings (git upgraded,
// diff configuration changed) are dropped when new ones are written.

// AddedLines is the kept answers for keys (the blobs' key, as
// pkg/share/notes makes it) under settings: each key found, its lines as
// written.
func (s *Store) AddedLines(ctx context.Context, settings string, keys []string) (map[string]string, error) {
	out := map[string]string{}
	err := inChunks(keys, func(chunk []string) error {
		args := append([]any{settings}, padded(chunk)...)
		rows, err := s.db.QueryContext(ctx, `SELECT blobs, lines FROM added_lines WHERE settings = ? AND blobs IN (`+
			placeholders(len(args)-1)+`)`, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var k, lines string
			if err := rows.Scan(&k, &lines); err != nil {
				return err
			}
			out[k] = lines
		}
		return rows.Err()
	})
	if err != nil {
		return nil, classify(s.path, err)
	}
	return out, nil
}

// PutAddedLines keeps lines (key -> lines) under settings in one
// transaction, dropping the rows of any other settings, and waits at most
// wait for another writer: a read that finds the database locked goes on
// without keeping them.
func (s *Store) PutAddedLines(ctx context.Context, settings string, lines map[string]string, wait time.Duration) error {
	if len(lines) == 0 {
		return nil
	}
	return s.inShortTx(ctx, wait, func(tx *sql.Tx) error {
		// Two seeks on the key, where <> read every row.
		if _, err := tx.ExecContext(ctx, `DELETE FROM added_lines WHERE settings < ?1 OR settings > ?1`, settings); err != nil {
			return err
		}
		ins, err := tx.PrepareContext(ctx, `INSERT OR REPLACE INTO added_lines (settings, blobs, lines) VALUES (?, ?, ?)`)
		if err != nil {
			return err
		}
		defer ins.Close()
		for k, l := range lines {
			if _, err := ins.ExecContext(ctx, settings, k, l); err != nil {
				return err
			}
		}
		return nil
	})
}
