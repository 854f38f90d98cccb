package store

import (
	"context"
	"database/sql"
	"encoding/json"

	"github.com/git-convo/git-convo/pkg/attribution/link"
)

// keepForgottenLines keeps, before conversation convID's edit lines are
// deleted, the hash of each distinctive line it wrote in a repository,
// with the day it was written: no text, no conversation id. Without them, a
// commit recorded later that adds those lines (a cherry-pick of its
// commit, a split, a copy) would find no writer for them and give them to
// a person. A line too short to tell writers apart (link.Distinctive) is
// no evidence of anyone's, so it is not kept.
func keepForgottenLines(ctx context.Context, tx *sql.Tx, convID string) error {
	rows, err := tx.QueryContext(ctx, `SELECT repoKey, lineHash, text, atMs FROM edit_lines WHERE conversationId = ? AND repoKey != ''`, convID)
	if err != nil {
		return err
	}
	type kept struct {
		repoKey  string
		hash, at int64
	}
	var keep []kept
	for rows.Next() {
		var k kept
		var text string
		if err := rows.Scan(&k.repoKey, &k.hash, &text, &k.at); err != nil {
			rows.Close()
			return err
		}
		if link.Distinctive(text) { // text is cut at 200 bytes: a line that long is distinctive
			keep = append(keep, k)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(keep) == 0 {
		return err
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT OR IGNORE INTO forgotten_lines (repoKey, lineHash, atMs) VALUES (?, ?, ?)`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, k := range keep {
		// To the day only: when the forgotten conversation worked is itself
		// a trace; the look-up widens its window by the day it loses.
		if _, err := stmt.ExecContext(ctx, k.repoKey, k.hash, k.at-k.at%forgottenDayMs); err != nil {
			return err
		}
	}
	return nil
}

// forgottenDayMs is the precision forgotten_lines keeps a line's time to.
const forgottenDayMs = 24 * 60 * 60 * 1000

// Unclaimed is what a commit's examination found no writer for: the
// hashes (link.LineHash) of its countable added lines that no
// conversation's evidence claims, in repository RepoKey, and the window
// its evidence was looked for in.
type Unclaimed struct {
	RepoKey      string
	Hashes       []int64
	FromMs, ToMs int64
}

// SetExaminedLines is SetCommitLines for a commit just examined. Where a
// forgotten conversation wrote one of its unclaimed lines in the window,
// its examination cannot tell that line from a person's: the commit is
// recorded as one a forgotten conversation wrote lines of (linesForgotten,
// as a rewrite of such a commit is: MarkRewritten), its unclaimed lines
// unknown, the lines other conversations claim theirs.
func (s *Store) SetExaminedLines(ctx context.Context, hash string, files []FileLines, lines []CommitLine, unclaimed Unclaimed) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		if len(unclaimed.Hashes) > 0 {
			// One look-up for the commit, however many lines it adds.
			in, err := json.Marshal(unclaimed.Hashes)
			if err != nil {
				return err
			}
			// The first EXISTS spares the common case, no line forgotten in
			// the repository, reading the list.
			if _, err := tx.ExecContext(ctx, `UPDATE commits SET linesRecorded = ?1 WHERE commitHash = ?2 AND linesRecorded != ?1
AND EXISTS (SELECT 1 FROM forgotten_lines WHERE repoKey = ?4)
AND EXISTS (SELECT 1 FROM json_each(?3) h CROSS JOIN forgotten_lines f
    ON f.repoKey = ?4 AND f.lineHash = h.value AND f.atMs BETWEEN ?5 AND ?6)`,
				linesForgotten, hash, string(in), unclaimed.RepoKey, unclaimed.FromMs-forgottenDayMs, unclaimed.ToMs); err != nil {
				return err
			}
		}
		return setCommitLines(ctx, tx, hash, files, lines)
	})
}
