package store

import "context"

// HookTurn is one prompt or final answer as the agent's hooks recorded it.
type HookTurn struct {
	Role string // "user" for a prompt, "assistant" for a final answer
	Text string
	AtMs int64
}

// HookRecord returns a conversation's recorded prompts and final answers in
// time order: what can be shown when the agent's own store lacks it.
func (s *Store) HookRecord(ctx context.Context, convID string) ([]HookTurn, error) {
	rows, err := s.db.QueryContext(ctx, `
SELECT 'user', text, atMs, id FROM prompts WHERE conversationId = ?
UNION ALL SELECT 'assistant', text, atMs, id FROM responses WHERE conversationId = ?
ORDER BY 3, 1 DESC, 4`, convID, convID)
	if err != nil {
		return nil, classify(s.path, err)
	}
	defer rows.Close()
	var out []HookTurn
	for rows.Next() {
		var t HookTurn
		var id int64
		if err := rows.Scan(&t.Role, &t.Text, &t.AtMs, &id); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}
