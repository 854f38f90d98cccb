package store

import (
	"context"
	"database/sql"
	"strings"
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
	for len(keys) > 0 {
		n := min(len(keys), 500) // below SQLite's bound on bound values
		q := `SELECT blobs, lines FROM added_lines WHERE settings = ? AND blobs IN (?` + strings.Repeat(",?", n-1) + `)`
		args := make([]any, 0, n+1)
		args = append(args, settings)
		for _, k := range keys[:n] {
			args = append(args, k)
		}
		keys = keys[n:]
		rows, err := s.db.QueryContext(ctx, q, args...)
		if err != nil {
			return nil, classify(s.path, err)
		}
		for rows.Next() {
			var k, lines string
			if err := rows.Scan(&k, &lines); err != nil {
				rows.Close()
				return nil, classify(s.path, err)
			}
			out[k] = lines
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, classify(s.path, err)
		}
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
		if _, err := tx.ExecContext(ctx, `DELETE FROM added_lines WHERE settings <> ?`, settings); err != nil {
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
