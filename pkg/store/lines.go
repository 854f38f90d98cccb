package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Bounds on stored edit lines (docs/data-model.md).
const (
	MaxEditLinesPerConversation = 50000
	EditLineRetentionDays       = 60
)

// EditLine is one line an agent wrote into a file.
type EditLine struct {
	RepoKey string
	PathKey string
	Hash    int64
	Text    string
	AtMs    int64 // when it was written; 0: the activity's time
	// Positioned: the edit that wrote it was located (an EditSpan holds
	// it), so its text is no evidence on its own in that file.
	Positioned bool
}

func insertEditLines(ctx context.Context, tx *sql.Tx, convID, genID string, lines []EditLine, atMs int64) error {
	if len(lines) == 0 {
		return nil
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM edit_lines WHERE conversationId = ?`, convID).Scan(&n); err != nil {
		return err
	}
	if n >= MaxEditLinesPerConversation {
		return nil // bounded: the conversation's file-level evidence still counts
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO edit_lines (conversationId, generationId, repoKey, pathKey, lineHash, text, atMs, positioned)
VALUES (?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT DO UPDATE SET positioned = MAX(positioned, excluded.positioned)`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for i, l := range lines {
		if n+i >= MaxEditLinesPerConversation {
			break
		}
		text := l.Text
		if len(text) > 200 {
			text = text[:200]
		}
		at := l.AtMs
		if at == 0 {
			at = atMs
		}
		if _, err := stmt.ExecContext(ctx, convID, genID, l.RepoKey, l.PathKey, l.Hash, text, at, l.Positioned); err != nil {
			return err
		}
	}
	return nil
}

// Evidence is a stored edit line that matches a commit's added line.
type Evidence struct {
	ConversationID string
	GenerationID   string
	PathKey        string
	AtMs           int64
	// Positioned: the conversation's edit of that file that wrote this
	// text was located, so it counts by position, not by text (unless its
	// position could not be carried to the commit).
	Positioned bool
}

// LineEvidence returns, for each hash, the edits of repository repoKey that
// wrote that line between fromMs and toMs, each marked Positioned when the
// conversation's located edit of that file wrote that text.
func (s *Store) LineEvidence(ctx context.Context, repoKey string, hashes []int64, fromMs, toMs int64) (map[int64][]Evidence, error) {
	out := map[int64][]Evidence{}
	for start := 0; start < len(hashes); start += 500 {
		chunk := hashes[start:min(start+500, len(hashes))]
		args := []any{repoKey, fromMs, toMs}
		for _, h := range chunk {
			args = append(args, h)
		}
		rows, err := s.db.QueryContext(ctx, `
SELECT lineHash, conversationId, generationId, pathKey, atMs, positioned OR EXISTS (SELECT 1 FROM edit_lines p
    WHERE p.conversationId = edit_lines.conversationId AND p.repoKey = edit_lines.repoKey
    AND p.pathKey = edit_lines.pathKey AND p.lineHash = edit_lines.lineHash AND p.positioned = 1)
FROM edit_lines
WHERE repoKey = ? AND atMs BETWEEN ? AND ? AND lineHash IN (`+placeholders(len(chunk))+`)`, args...)
		if err != nil {
			return nil, classify(s.path, err)
		}
		for rows.Next() {
			var h int64
			var e Evidence
			if err := rows.Scan(&h, &e.ConversationID, &e.GenerationID, &e.PathKey, &e.AtMs, &e.Positioned); err != nil {
				rows.Close()
				return nil, err
			}
			out[h] = append(out[h], e)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Evidence kinds of a commit line's writer (docs/linking.md).
const (
	EvidencePosition = "position" // a range the edit wrote, carried to the commit, covers it
	EvidenceText     = "text"     // its text matched a line the edit wrote (weaker)
	EvidenceRewrite  = "rewrite"  // a teammate's line at the commit this one was amended or rebased from, unchanged by it
)

// LineEvidence names how a line's writer is known: by position, by text
// match (the weaker evidence, as are lines recorded before positions and
// lines a teammate's note gives), or copied by rewrite.
func LineEvidence(w LineWriter) string {
	switch w.Evidence {
	case EvidencePosition:
		return LinkEvidencePosition
	case EvidenceRewrite:
		return LinkEvidenceRewrite
	}
	return LinkEvidenceText
}

// CommitLine is an added line of a commit that a conversation wrote.
type CommitLine struct {
	Path           string
	Line           int
	ConversationID string
	GenerationID   string
	Evidence       string // EvidencePosition or EvidenceText ("": text)
	Blank          bool   // a blank line: kept for blame, never counted
}

// FileLines counts a commit's added lines in one file.
type FileLines struct {
	Path    string
	PathKey string // defaults to Path
	Added   int
	Agent   int
}

// What commits.linesRecorded says of a commit's added lines.
const (
	linesNotExamined = 0 // never examined (recorded before line evidence)
	linesExamined    = 1 // examined: a line no conversation wrote is a person's
	// linesForgotten: examined, then a conversation that wrote some of them
	// was forgotten (ForgetConversation). Its lines can no longer be told
	// from a person's, so the commit is not examined, and stays so when its
	// lines are examined again (record, a rewrite): the conversations still
	// here keep the lines their evidence claims, the others stay unknown.
	linesForgotten = 2
	// linesWithdrawn: examined, then a conversation unlinked from the
	// commit by hand had lines taken from it (dropWithdrawn): those lines
	// are no one's, so no unclaimed line is a person's either, until the
	// unlink is taken back (link) and the commit examined again.
	linesWithdrawn = 3
)

// SetCommitLines stores which of a commit's added lines conversations wrote,
// and the per-file counts, replacing what was there. A commit whose lines a
// forgotten conversation wrote stays unexamined (linesForgotten); one
// whose lines a conversation unlinked from it wrote is unexamined while the
// unlink holds (linesWithdrawn, dropWithdrawn).
func (s *Store) SetCommitLines(ctx context.Context, hash string, files []FileLines, lines []CommitLine) error {
	return s.write(ctx, func(tx *sql.Tx) error { return setCommitLines(ctx, tx, hash, files, lines) })
}

// setCommitLines is SetCommitLines's work in tx.
func setCommitLines(ctx context.Context, tx *sql.Tx, hash string, files []FileLines, lines []CommitLine) error {
	// Lines left of a commit not examined: only forget leaves those (it set
	// linesNotExamined before linesForgotten existed).
	if _, err := tx.ExecContext(ctx, `UPDATE commits SET linesRecorded = ?1 WHERE commitHash = ?2 AND linesRecorded = ?3
AND EXISTS (SELECT 1 FROM commit_lines WHERE commitHash = ?2)`, linesForgotten, hash, linesNotExamined); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM commit_lines WHERE commitHash = ?`, hash); err != nil {
		return err
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT OR REPLACE INTO commit_lines (commitHash, path, line, conversationId, generationId, evidence, counted) VALUES (?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, l := range lines {
		ev := l.Evidence
		if ev == "" {
			ev = EvidenceText
		}
		if _, err := stmt.ExecContext(ctx, hash, l.Path, l.Line, l.ConversationID, l.GenerationID, ev, !l.Blank); err != nil {
			return err
		}
	}
	upd, err := tx.PrepareContext(ctx, `UPDATE commit_files SET addedLines = ?, agentLines = ? WHERE commitHash = ? AND pathKey = ?`)
	if err != nil {
		return err
	}
	defer upd.Close()
	for _, f := range files {
		key := f.PathKey
		if key == "" {
			key = f.Path
		}
		if _, err := upd.ExecContext(ctx, f.Added, f.Agent, hash, key); err != nil {
			return err
		}
	}
	if _, err = tx.ExecContext(ctx, `UPDATE commits SET linesRecorded = ? WHERE commitHash = ? AND linesRecorded != ?`,
		linesExamined, hash, linesForgotten); err != nil {
		return err
	}
	return dropWithdrawn(ctx, tx, hash)
}

// LineWriter is who wrote one line of a commit, and how that is known
// (Evidence: EvidencePosition or EvidenceText).
type LineWriter struct {
	ConversationID string
	GenerationID   string
	Evidence       string
}

// CommitLineWriters returns, for each commit, path and line, the conversation
// that wrote it; and which commits have line evidence recorded at all.
func (s *Store) CommitLineWriters(ctx context.Context, hashes []string) (map[string]map[string]map[int]LineWriter, map[string]bool, error) {
	out := map[string]map[string]map[int]LineWriter{}
	recorded := map[string]bool{}
	err := inChunks(hashes, func(chunk []string) error {
		rows, err := s.db.QueryContext(ctx, `SELECT commitHash, path, line, conversationId, generationId, evidence FROM commit_lines
WHERE commitHash IN (`+placeholders(len(chunk))+`)`, anys(chunk)...)
		if err != nil {
			return err
		}
		if err := scanLineWriters(rows, out); err != nil {
			return err
		}
		rows2, err := s.db.QueryContext(ctx, `SELECT commitHash FROM commits WHERE linesRecorded = 1 AND commitHash IN (`+placeholders(len(chunk))+`)`, anys(chunk)...)
		if err != nil {
			return err
		}
		defer rows2.Close()
		for rows2.Next() {
			var h string
			if err := rows2.Scan(&h); err != nil {
				return err
			}
			recorded[h] = true
		}
		return rows2.Err()
	})
	return out, recorded, classify(s.path, err)
}

// scanLineWriters reads rows of (commitHash, path, line, conversationId,
// generationId, evidence) into out, and closes them.
func scanLineWriters(rows *sql.Rows, out map[string]map[string]map[int]LineWriter) error {
	defer rows.Close()
	for rows.Next() {
		var h, p string
		var n int
		var w LineWriter
		if err := rows.Scan(&h, &p, &n, &w.ConversationID, &w.GenerationID, &w.Evidence); err != nil {
			return err
		}
		if out[h] == nil {
			out[h] = map[string]map[int]LineWriter{}
		}
		if out[h][p] == nil {
			out[h][p] = map[int]LineWriter{}
		}
		out[h][p][n] = w
	}
	return rows.Err()
}

// CommitLineWritersIn is CommitLineWriters for the given paths only (as
// recorded: link.NormPath), for blame, which reads one file's lines: a
// commit's evidence for its other files is not read. recorded is
// CommitLineWriters': the commits whose lines were examined, whatever
// lines are left of them (a commit a forgotten conversation wrote lines of
// keeps the others' lines, unexamined).
func (s *Store) CommitLineWritersIn(ctx context.Context, hashes, paths []string) (writers map[string]map[string]map[int]LineWriter, recorded map[string]bool, err error) {
	writers = map[string]map[string]map[int]LineWriter{}
	recorded = map[string]bool{}
	inPaths := jsonList(paths)
	err = inChunks(hashes, func(chunk []string) error {
		inHashes := jsonList(chunk)
		rows, err := s.db.QueryContext(ctx, `SELECT l.commitHash, l.path, l.line, l.conversationId, l.generationId, l.evidence
FROM json_each(?) h CROSS JOIN json_each(?) p CROSS JOIN commit_lines l ON l.commitHash = h.value AND l.path = p.value`, inHashes, inPaths)
		if err != nil {
			return err
		}
		if err := scanLineWriters(rows, writers); err != nil {
			return err
		}
		return s.hashesWhere(ctx, `SELECT value FROM json_each(?) h
WHERE EXISTS (SELECT 1 FROM commits c WHERE c.commitHash = h.value AND c.linesRecorded = 1)`, inHashes, recorded)
	})
	return writers, recorded, classify(s.path, err)
}

// hashesWhere runs query, of one JSON array of hashes, and marks in set
// the hashes it returns.
func (s *Store) hashesWhere(ctx context.Context, query, inHashes string, set map[string]bool) error {
	rows, err := s.db.QueryContext(ctx, query, inHashes)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var h string
		if err := rows.Scan(&h); err != nil {
			return err
		}
		set[h] = true
	}
	return rows.Err()
}

// PromptText returns the text of a conversation's prompt by generation id ("" if unknown).
func (s *Store) PromptText(ctx context.Context, convID, genID string) (string, error) {
	var t string
	err := s.db.QueryRowContext(ctx, `SELECT text FROM prompts WHERE conversationId = ? AND generationId = ? ORDER BY atMs LIMIT 1`, convID, genID).Scan(&t)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return t, classify(s.path, err)
}

// PruneEditLines deletes edit lines recorded before beforeMs, and the
// forgotten lines (keepForgottenLines) written before then: those keep
// their day only, so one is kept while its day may hold a time after
// beforeMs (a line an edit line of the same time would still claim).
func (s *Store) PruneEditLines(ctx context.Context, beforeMs int64) (int64, error) {
	var n int64
	err := s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM edit_spans WHERE atMs < ?`, beforeMs); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM forgotten_lines WHERE atMs < ?`, beforeMs-forgottenDayMs+1); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM edit_lines WHERE atMs < ?`, beforeMs)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return n, err
}

// FileStat is one recorded commit's line counts in one file.
type FileStat struct {
	CommitHash string
	Path       string
	Added      int
	Agent      int
}

// CommitFileStats returns the line counts of recorded commits.
func (s *Store) CommitFileStats(ctx context.Context, hashes []string) ([]FileStat, error) {
	var out []FileStat
	err := inChunks(hashes, func(chunk []string) error {
		rows, err := s.db.QueryContext(ctx, `SELECT f.commitHash, f.path, f.addedLines, f.agentLines FROM commit_files f
JOIN commits c ON c.commitHash = f.commitHash AND c.linesRecorded = 1
WHERE f.commitHash IN (`+placeholders(len(chunk))+`)`, anys(chunk)...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var f FileStat
			if err := rows.Scan(&f.CommitHash, &f.Path, &f.Added, &f.Agent); err != nil {
				return err
			}
			out = append(out, f)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("line statistics: %w", classify(s.path, err))
	}
	return out, nil
}

// CommitLineCounts returns a recorded commit's countable added lines and how
// many of them each conversation wrote (ok is false when the commit's lines
// were never examined).
func (s *Store) CommitLineCounts(ctx context.Context, hash string) (added int, written map[string]int, ok bool, err error) {
	added, written, _, ok, err = s.CommitLineEvidence(ctx, hash)
	return added, written, ok, err
}

// CommitLineEvidence is CommitLineCounts with, per conversation, how many of
// the lines it wrote are known by position (the others by text match).
func (s *Store) CommitLineEvidence(ctx context.Context, hash string) (added int, written, positioned map[string]int, ok bool, err error) {
	var recorded int
	err = s.db.QueryRowContext(ctx, `SELECT linesRecorded, (SELECT COALESCE(SUM(addedLines), 0) FROM commit_files WHERE commitHash = ?1)
FROM commits WHERE commitHash = ?1`, hash).Scan(&recorded, &added)
	if errors.Is(err, sql.ErrNoRows) || recorded != linesExamined {
		return 0, nil, nil, false, nil
	}
	if err != nil {
		return 0, nil, nil, false, classify(s.path, err)
	}
	written, positioned = map[string]int{}, map[string]int{}
	rows, err := s.db.QueryContext(ctx, `SELECT conversationId, COUNT(*), SUM(evidence = 'position') FROM commit_lines
WHERE commitHash = ? AND counted = 1 GROUP BY conversationId`, hash)
	if err != nil {
		return 0, nil, nil, false, classify(s.path, err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var n, p int
		if err := rows.Scan(&id, &n, &p); err != nil {
			return 0, nil, nil, false, err
		}
		written[id], positioned[id] = n, p
	}
	return added, written, positioned, true, rows.Err()
}

// HasEditLines reports whether any edit line is stored for repository repoKey.
func (s *Store) HasEditLines(ctx context.Context, repoKey string) (bool, error) {
	var one int
	err := s.db.QueryRowContext(ctx, `SELECT 1 FROM edit_lines WHERE repoKey = ? LIMIT 1`, repoKey).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, classify(s.path, err)
}
