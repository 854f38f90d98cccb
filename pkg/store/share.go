package store

import "context"

// LinkedCommits returns every recorded commit of repository repoKey that has
// at least one link: what `share on` writes notes for.
func (s *Store) LinkedCommits(ctx context.Context, repoKey string) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT c.commitHash FROM commits c
JOIN links l ON l.commitHash = c.commitHash WHERE c.repoKey = ? ORDER BY c.committedMs, c.commitHash`, repoKey)
	if err != nil {
		return nil, classify(s.path, err)
	}
	defer rows.Close()
	return scanStrings(rows)
}
