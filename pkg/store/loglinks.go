package store

import (
	"context"
	"database/sql"
)

// LogLinksForCommits is ConversationsForCommits for a listing of one line
// per conversation (git convo log): in the same order, each link's
// conversation id, confidence, status and evidence (source and line
// counts), and its conversation's title, agent and (for a conversation
// with no title) first prompt; nothing else,
// so no JSON column is decoded and no transcript text is read. On log
// -n 1000 this is a third of the full query's time.
func (s *Store) LogLinksForCommits(ctx context.Context, hashes []string) (map[string][]LinkedConversation, error) {
	return s.linksForCommits(ctx, hashes, `l.confidence, l.status, COALESCE(c.title, ''), COALESCE(c.agent, ''),
    CASE WHEN COALESCE(c.title, '') = '' THEN COALESCE(c.firstPrompt, '') ELSE '' END,
    l.source, l.writtenLines, l.addedLines, l.positionLines`,
		func(rows *sql.Rows, lc *LinkedConversation) error {
			return rows.Scan(&lc.CommitHash, &lc.ConversationID, &lc.Confidence, &lc.Status,
				&lc.Conv.Title, &lc.Conv.Agent, &lc.Conv.FirstPrompt,
				&lc.Source, &lc.WrittenLines, &lc.AddedLines, &lc.PositionLines)
		})
}

// linksForCommits runs, per 500 hashes, the query of each hash's links
// with their conversations, strongest first: the commit hash and
// conversation id, then cols, which scan reads into a link.
func (s *Store) linksForCommits(ctx context.Context, hashes []string, cols string,
	scan func(*sql.Rows, *LinkedConversation) error) (map[string][]LinkedConversation, error) {
	out := map[string][]LinkedConversation{}
	err := inChunks(hashes, func(chunk []string) error {
		args := padded(chunk)
		rows, err := s.db.QueryContext(ctx, `
SELECT l.commitHash, l.conversationId, `+cols+`
FROM links l LEFT JOIN conversations c ON c.conversationId = l.conversationId
WHERE l.commitHash IN (`+placeholders(len(args))+`)
ORDER BY l.commitHash, (l.status = 'manual') DESC, l.confidence DESC, c.activityMs DESC`, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var lc LinkedConversation
			if err := scan(rows, &lc); err != nil {
				return err
			}
			lc.Conv.ID = lc.ConversationID
			out[lc.CommitHash] = append(out[lc.CommitHash], lc)
		}
		return rows.Err()
	})
	return out, classify(s.path, err)
}

// HasLinks says whether any commit has a link: log asks it once, while
// git runs, and skips every links query when none has (a teammate who
// only reads shared notes).
func (s *Store) HasLinks(ctx context.Context) (bool, error) {
	var has bool
	err := s.db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM links)`).Scan(&has)
	return has, classify(s.path, err)
}
