package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
)

// ClaimUnplaced gives the repository repoKey, whose work tree is workTree,
// what agents touched and wrote in files that lay in no repository that
// could be found when they did (a "dotfiles" repository used through
// GIT_DIR and GIT_WORK_TREE, which an agent's hook does not see): the files
// and edit lines under workTree, kept with no repository until a commit of
// the repository that holds them is recorded. pathKey makes a
// repo-relative path's key. It returns how many rows it moved.
func (s *Store) ClaimUnplaced(ctx context.Context, repoKey, workTree string, pathKey func(rel string) string) (int, error) {
	if repoKey == "" || workTree == "" {
		return 0, nil
	}
	sep := string(filepath.Separator)
	tree := strings.TrimSuffix(workTree, sep)
	prefix := tree + sep
	// Under prefix: from "<tree>/" up to "<tree>0" (the byte after the
	// separator), which the (repoKey, pathKey) index answers.
	lo, hi := prefix, tree+string(rune(filepath.Separator+1))
	rel := func(abs string) string { return filepath.ToSlash(strings.TrimPrefix(abs, prefix)) }
	moved := 0
	err := s.write(ctx, func(tx *sql.Tx) error {
		moved = 0
		rows, err := tx.QueryContext(ctx, `SELECT conversationId, path, pathKey, source, firstMs, lastMs FROM conversation_files
WHERE repoKey = '' AND pathKey >= ? AND pathKey < ?`, lo, hi)
		if err != nil {
			return err
		}
		type file struct {
			conv, path, key, source string
			first, last             int64
		}
		var files []file
		for rows.Next() {
			var f file
			if err := rows.Scan(&f.conv, &f.path, &f.key, &f.source, &f.first, &f.last); err != nil {
				rows.Close()
				return err
			}
			files = append(files, f)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, f := range files {
			rel := rel(f.path)
			if _, err := tx.ExecContext(ctx, `INSERT INTO conversation_files (conversationId, repoKey, path, pathKey, source, firstMs, lastMs)
VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (conversationId, repoKey, pathKey, source) DO UPDATE SET
firstMs = min(firstMs, excluded.firstMs), lastMs = max(lastMs, excluded.lastMs)`,
				f.conv, repoKey, rel, pathKey(rel), f.source, f.first, f.last); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM conversation_files WHERE conversationId = ? AND repoKey = '' AND pathKey = ? AND source = ?`,
				f.conv, f.key, f.source); err != nil {
				return err
			}
			moved++
		}
		lrows, err := tx.QueryContext(ctx, `SELECT DISTINCT pathKey FROM edit_lines WHERE repoKey = '' AND pathKey >= ? AND pathKey < ?`, lo, hi)
		if err != nil {
			return err
		}
		var keys []string
		for lrows.Next() {
			var k string
			if err := lrows.Scan(&k); err != nil {
				lrows.Close()
				return err
			}
			keys = append(keys, k)
		}
		lrows.Close()
		if err := lrows.Err(); err != nil {
			return err
		}
		for _, k := range keys {
			res, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO edit_lines (conversationId, generationId, repoKey, pathKey, lineHash, text, atMs, positioned)
SELECT conversationId, generationId, ?, ?, lineHash, text, atMs, positioned FROM edit_lines WHERE repoKey = '' AND pathKey = ?`,
				repoKey, pathKey(rel(k)), k)
			if err != nil {
				return err
			}
			n, _ := res.RowsAffected()
			moved += int(n)
			if _, err := tx.ExecContext(ctx, `DELETE FROM edit_lines WHERE repoKey = '' AND pathKey = ?`, k); err != nil {
				return err
			}
			// The spans that place those lines (evidence by position) move with them.
			if _, err := tx.ExecContext(ctx, `UPDATE edit_spans SET repoKey = ?, pathKey = ? WHERE repoKey = '' AND pathKey = ?`,
				repoKey, pathKey(rel(k)), k); err != nil {
				return err
			}
		}
		return nil
	})
	return moved, err
}
