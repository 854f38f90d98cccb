package store

import (
	"context"
	"database/sql"
	"time"
)

// GetCommits returns the recorded ones among hashes, by hash, as GetCommit
// does for one: a log of many commits asks in a few queries.
func (s *Store) GetCommits(ctx context.Context, hashes []string) (map[string]*Commit, error) {
	out := map[string]*Commit{}
	err := inChunks(hashes, func(chunk []string) error {
		rows, err := s.db.QueryContext(ctx, `
SELECT commitHash, COALESCE(repoPath, ''), branch, COALESCE(author, ''), COALESCE(message, ''), committedMs,
    parentCount, repoKey, rewrittenTo
FROM commits WHERE commitHash IN (`+placeholders(len(chunk))+`)`, anys(chunk)...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var c Commit
			var branch, rewritten sql.NullString
			var ms int64
			if err := rows.Scan(&c.Hash, &c.RepoPath, &branch, &c.Author, &c.Message, &ms, &c.ParentCount,
				&c.RepoKey, &rewritten); err != nil {
				return err
			}
			c.Branch, c.RewrittenTo, c.CommittedAt = branch.String, rewritten.String, time.UnixMilli(ms)
			out[c.Hash] = &c
		}
		if err := rows.Err(); err != nil {
			return err
		}
		files, err := s.db.QueryContext(ctx, `SELECT commitHash, path, pathKey FROM commit_files
WHERE commitHash IN (`+placeholders(len(chunk))+`) ORDER BY commitHash, path`, anys(chunk)...)
		if err != nil {
			return err
		}
		defer files.Close()
		for files.Next() {
			var h, p, k string
			if err := files.Scan(&h, &p, &k); err != nil {
				return err
			}
			if c := out[h]; c != nil {
				c.Files, c.FileKeys = append(c.Files, p), append(c.FileKeys, k)
			}
		}
		return files.Err()
	})
	return out, classify(s.path, err)
}
