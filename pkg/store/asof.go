package store

import (
	"context"
	"database/sql"
)

// ActivityAsOf is a conversation's last recorded activity at or before
// atMs (its first sighting at the least): what its activity was when a
// commit made at atMs would have been recorded at once, for a commit
// recorded later from the queue.
func (s *Store) ActivityAsOf(ctx context.Context, convID string, atMs int64) (int64, error) {
	var ms sql.NullInt64
	err := s.db.QueryRowContext(ctx, `
SELECT max(t) FROM (
  SELECT firstSeenMs AS t FROM conversations WHERE conversationId = ?1
  UNION ALL SELECT max(atMs) FROM prompts WHERE conversationId = ?1 AND atMs <= ?2
  UNION ALL SELECT max(atMs) FROM responses WHERE conversationId = ?1 AND atMs <= ?2
  UNION ALL SELECT max(atMs) FROM edit_lines WHERE conversationId = ?1 AND atMs <= ?2
  UNION ALL SELECT max(CASE WHEN lastMs <= ?2 THEN lastMs ELSE firstMs END) FROM conversation_files
    WHERE conversationId = ?1 AND firstMs <= ?2
) WHERE t <= ?2`, convID, atMs).Scan(&ms)
	if err != nil {
		return 0, classify(s.path, err)
	}
	return ms.Int64, nil
}
