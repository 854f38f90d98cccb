package store

import "context"

// LogLinksForCommits is ConversationsForCommits for a listing of one line
// per conversation (git convo log): in the same order, each link's
// conversation id, confidence and status, and its conversation's title,
// agent and (for a conversation with no title) first prompt; nothing else,
// so no JSON column is decoded and no transcript text is read. On log
// -n 1000 this is a third of the full query's time.
func (s *Store) LogLinksForCommits(ctx context.Context, hashes []string) (map[string][]LinkedConversation, error) {
	out := map[string][]LinkedConversation{}
	err := inChunks(hashes, func(chunk []string) error {
		args := padded(chunk)
		rows, err := s.db.QueryContext(ctx, `
SELECT l.commitHash, l.conversationId, l.confidence, l.status, COALESCE(c.title, ''), COALESCE(c.agent, ''),
    CASE WHEN COALESCE(c.title, '') = '' THEN COALESCE(c.firstPrompt, '') ELSE '' END
FROM links l LEFT JOIN conversations c ON c.conversationId = l.conversationId
WHERE l.commitHash IN (`+placeholders(len(args))+`)
ORDER BY l.commitHash, (l.status = 'manual') DESC, l.confidence DESC, c.activityMs DESC`, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var lc LinkedConversation
			if err := rows.Scan(&lc.CommitHash, &lc.ConversationID, &lc.Confidence, &lc.Status,
				&lc.Conv.Title, &lc.Conv.Agent, &lc.Conv.FirstPrompt); err != nil {
				return err
			}
			lc.Conv.ID = lc.ConversationID
			out[lc.CommitHash] = append(out[lc.CommitHash], lc)
		}
		return rows.Err()
	})
	return out, classify(s.path, err)
}

// LinkedCommitSet returns the commits that have a link (in any
// repository), when there are at most limit links (ok false otherwise: the
// caller then asks per commit). The bound is checked on the largest link id, which is at least the
// count, so a large database costs one index look-up. log loads the set
// while git runs and then queries only the commits in it: none at all
// when nothing is linked.
func (s *Store) LinkedCommitSet(ctx context.Context, limit int) (set map[string]bool, ok bool, err error) {
	var top int64
	if err := s.db.QueryRowContext(ctx, `SELECT COALESCE(max(id), 0) FROM links`).Scan(&top); err != nil {
		return nil, false, classify(s.path, err)
	}
	if top > int64(limit) {
		return nil, false, nil
	}
	rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT commitHash FROM links`)
	if err != nil {
		return nil, false, classify(s.path, err)
	}
	defer rows.Close()
	set = map[string]bool{}
	for rows.Next() {
		var h string
		if err := rows.Scan(&h); err != nil {
			return nil, false, classify(s.path, err)
		}
		set[h] = true
	}
	if err := rows.Err(); err != nil {
		return nil, false, classify(s.path, err)
	}
	return set, true, nil
}
