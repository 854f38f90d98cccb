package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// Forgotten counts what Forget* removed.
type Forgotten struct {
	Conversations int64
	Commits       int64
	Links         int64
	// IDs are the conversations removed whole (their other files, spool
	// entries and log lines are the caller's to wipe).
	IDs []string
}

// ForgetConversation removes a conversation and everything recorded about it:
// its files, prompts, responses, edit lines, line attributions, links
// (manual ones too: forgetting is the user's explicit wish) and unlinks.
func (s *Store) ForgetConversation(ctx context.Context, convID string) (Forgotten, error) {
	var f Forgotten
	err := s.write(ctx, func(tx *sql.Tx) error {
		n, err := execCount(ctx, tx, `DELETE FROM links WHERE conversationId = ?`, convID)
		if err != nil {
			return err
		}
		f.Links = n
		// The commits whose lines it wrote lose their examination, for good
		// (linesForgotten: examining them again cannot tell its lines from a
		// person's): without its lines, their record would say a person
		// wrote them. Read commands then take a shared note's lines, or say
		// nothing is known.
		// So do those it was unlinked from whose lines the unlink took away
		// (linesWithdrawn): with the unlink gone too, examining them again
		// would give its lines to a person.
		if _, err := tx.ExecContext(ctx, `UPDATE commits SET linesRecorded = ?1 WHERE linesRecorded IN (?2, ?3)
AND (commitHash IN (SELECT commitHash FROM commit_lines WHERE conversationId = ?4)
  OR linesRecorded = ?3 AND commitHash IN (SELECT commitHash FROM unlinks WHERE conversationId = ?4))`,
			linesForgotten, linesExamined, linesWithdrawn, convID); err != nil {
			return err
		}
		if err := keepForgottenLines(ctx, tx, convID); err != nil {
			return err
		}
		for _, q := range []string{
			`DELETE FROM conversation_files WHERE conversationId = ?`,
			`DELETE FROM conversation_roots WHERE conversationId = ?`,
			`DELETE FROM prompts WHERE conversationId = ?`,
			`DELETE FROM responses WHERE conversationId = ?`,
			`DELETE FROM edit_lines WHERE conversationId = ?`,
			`DELETE FROM edit_spans WHERE conversationId = ?`,
			`DELETE FROM commit_lines WHERE conversationId = ?`,
			`DELETE FROM unlinks WHERE conversationId = ?`,
		} {
			if _, err := tx.ExecContext(ctx, q, convID); err != nil {
				return err
			}
		}
		f.Conversations, err = execCount(ctx, tx, `DELETE FROM conversations WHERE conversationId = ?`, convID)
		f.IDs = []string{convID}
		return err
	})
	if err == nil {
		err = s.checkpoint(ctx)
	}
	return f, err
}

// ErrWALBusy: another process was reading links.sqlite, so the write-ahead
// log could not be emptied; what was deleted stays in links.sqlite-wal until
// the next checkpoint.
var ErrWALBusy = errors.New("another process is reading links.sqlite: the deleted text stays in links.sqlite-wal until it is done (run the command again then)")

// checkpoint copies the write-ahead log into the database and truncates it
// to nothing, so deleted text (zeroed in the database by secure_delete) does
// not linger in the log's older frames.
// A reader that is finishing (an MCP server answering, a read command) gets
// a few moments before the checkpoint gives up.
func (s *Store) checkpoint(ctx context.Context) error {
	for attempt := 0; ; attempt++ {
		var busy, logFrames, done int
		if err := s.db.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logFrames, &done); err != nil {
			return classify(s.path, err)
		}
		if busy == 0 {
			return nil
		}
		if attempt == 10 {
			return ErrWALBusy
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// ForgetRepository removes a repository's commits (with their files, line
// attributions, links and unlinks), the files and edit lines conversations
// recorded in it, and the conversations that are left with nothing but this
// repository.
func (s *Store) ForgetRepository(ctx context.Context, repoKey, root string) (Forgotten, error) {
	var f Forgotten
	err := s.write(ctx, func(tx *sql.Tx) error {
		// Conversations that belong to this repository only.
		rows, err := tx.QueryContext(ctx, `
SELECT c.conversationId FROM conversations c
WHERE (EXISTS (SELECT 1 FROM conversation_files f WHERE f.conversationId = c.conversationId AND f.repoKey = ?1)
       OR EXISTS (SELECT 1 FROM conversation_roots r WHERE r.conversationId = c.conversationId AND r.root = ?2))
  AND NOT EXISTS (SELECT 1 FROM conversation_files f WHERE f.conversationId = c.conversationId AND f.repoKey NOT IN (?1, ''))
  AND NOT EXISTS (SELECT 1 FROM conversation_roots r WHERE r.conversationId = c.conversationId AND r.root != ?2)`, repoKey, root)
		if err != nil {
			return err
		}
		var only []string
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return err
			}
			only = append(only, id)
		}
		rows.Close()
		commitSub := `(SELECT commitHash FROM commits WHERE repoKey = ?)`
		if f.Links, err = execCount(ctx, tx, `DELETE FROM links WHERE commitHash IN `+commitSub, repoKey); err != nil {
			return err
		}
		for _, q := range []string{
			`DELETE FROM commit_files WHERE commitHash IN ` + commitSub,
			`DELETE FROM commit_lines WHERE commitHash IN ` + commitSub,
			`DELETE FROM unlinks WHERE commitHash IN ` + commitSub,
			`DELETE FROM conversation_files WHERE repoKey = ?`,
			`DELETE FROM edit_lines WHERE repoKey = ?`,
			`DELETE FROM edit_spans WHERE repoKey = ?`,
			`DELETE FROM forgotten_lines WHERE repoKey = ?`,
			`DELETE FROM other_notes WHERE repoKey = ?`, // the index of other tools' notes: rebuilt when read again
			`DELETE FROM other_notes_tips WHERE repoKey = ?`,
		} {
			if _, err := tx.ExecContext(ctx, q, repoKey); err != nil {
				return err
			}
		}
		if f.Commits, err = execCount(ctx, tx, `DELETE FROM commits WHERE repoKey = ?`, repoKey); err != nil {
			return err
		}
		for _, id := range only {
			for _, q := range []string{`DELETE FROM links WHERE conversationId = ?`, `DELETE FROM conversation_files WHERE conversationId = ?`,
				`DELETE FROM conversation_roots WHERE conversationId = ?`, `DELETE FROM prompts WHERE conversationId = ?`,
				`DELETE FROM responses WHERE conversationId = ?`, `DELETE FROM edit_lines WHERE conversationId = ?`,
				`DELETE FROM edit_spans WHERE conversationId = ?`, `DELETE FROM unlinks WHERE conversationId = ?`} {
				if _, err := tx.ExecContext(ctx, q, id); err != nil {
					return err
				}
			}
			n, err := execCount(ctx, tx, `DELETE FROM conversations WHERE conversationId = ?`, id)
			if err != nil {
				return err
			}
			f.Conversations += n
		}
		f.IDs = only
		return nil
	})
	if err == nil {
		// Deleted rows must not linger in free pages or the WAL.
		err = s.checkpoint(ctx)
	}
	return f, err
}

func execCount(ctx context.Context, tx *sql.Tx, q string, args ...any) (int64, error) {
	res, err := tx.ExecContext(ctx, q, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
