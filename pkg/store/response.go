package store

import (
	"context"
	"database/sql"
	"errors"
)

// ResponseText returns the agent's first recorded answer to a prompt, by
// the prompt's generation id ("" if none was recorded).
func (s *Store) ResponseText(ctx context.Context, convID, genID string) (string, error) {
	var t string
	err := s.db.QueryRowContext(ctx, `SELECT text FROM responses WHERE conversationId = ? AND generationId = ? ORDER BY atMs LIMIT 1`, convID, genID).Scan(&t)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return t, classify(s.path, err)
}
