package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"sort"
)

// Link statuses and sources.
const (
	StatusAuto   = "auto"
	StatusManual = "manual"

	LinkSourceHook    = "hook"
	LinkSourceRelink  = "relink"
	LinkSourceImport  = "import"
	LinkSourceManual  = "manual"
	LinkSourceRewrite = "rewrite"
	// LinkSourceAgentCommit: the agent ran git commit itself (seen in its
	// shell tool's hook). Certain, so the scorer never changes it.
	LinkSourceAgentCommit = "agent-commit"

	// ReasonAgentCommit is the reason of an agent-commit link.
	ReasonAgentCommit = "committed by the agent in this conversation"
)

// Candidate is a conversation that edited at least one of a commit's files.
type Candidate struct {
	ConversationID string
	FirstSeenMs    int64
	ActivityMs     int64
	// Files maps each matched commit path key to the earliest time the
	// conversation touched it.
	Files map[string]int64
}

// Candidates returns the conversations of repository repoKey that edited any of
// pathKeys and were active at or after sinceMs. It reads the indexed
// conversation_files table only: no JSON is scanned.
func (s *Store) Candidates(ctx context.Context, repoKey string, pathKeys []string, sinceMs int64) ([]Candidate, error) {
	byID := map[string]*Candidate{}
	err := inChunks(pathKeys, func(chunk []string) error {
		args := append([]any{repoKey, sinceMs}, anys(chunk)...)
		// No GROUP BY: SQLite would sort every row in a temp b-tree; the
		// earliest touch per file is kept below instead.
		rows, err := s.db.QueryContext(ctx, `
SELECT f.conversationId, f.pathKey, f.firstMs, c.firstSeenMs, c.activityMs
FROM conversation_files f JOIN conversations c ON c.conversationId = f.conversationId
WHERE f.repoKey = ? AND c.activityMs >= ? AND f.source IN `+editSourcesSQL+`
  AND f.pathKey IN (`+placeholders(len(chunk))+`)`, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id, key string
			var first, seen, act int64
			if err := rows.Scan(&id, &key, &first, &seen, &act); err != nil {
				return err
			}
			c := byID[id]
			if c == nil {
				c = &Candidate{ConversationID: id, FirstSeenMs: seen, ActivityMs: act, Files: map[string]int64{}}
				byID[id] = c
			}
			if prev, ok := c.Files[key]; !ok || first < prev {
				c.Files[key] = first
			}
		}
		return rows.Err()
	})
	if err != nil {
		return nil, classify(s.path, err)
	}
	out := make([]Candidate, 0, len(byID))
	for _, c := range byID {
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ConversationID < out[j].ConversationID })
	return out, nil
}

// CommitsTouchedBy returns the recorded commits of any repository that changed
// a file conversation convID edited, committed in [fromMs, toMs]: the commits
// to re-score when late information about the conversation arrives.
func (s *Store) CommitsTouchedBy(ctx context.Context, convID string, fromMs, toMs int64) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `
SELECT DISTINCT c.commitHash
FROM conversation_files f
JOIN commit_files cf ON cf.pathKey = f.pathKey
JOIN commits c ON c.commitHash = cf.commitHash AND c.repoKey = f.repoKey
WHERE f.conversationId = ? AND f.repoKey != '' AND f.source IN `+editSourcesSQL+`
  AND c.committedMs BETWEEN ? AND ?
ORDER BY c.committedMs`, convID, fromMs, toMs)
	if err != nil {
		return nil, classify(s.path, err)
	}
	return scanStrings(rows)
}

// Link is one conversation ↔ commit link.
type Link struct {
	ConversationID string
	CommitHash     string
	MatchedFiles   []string
	Confidence     float64
	Status         string
	Reason         string
	Source         string
	CreatedAt      string
	WrittenLines   int // the commit's added lines this conversation wrote
	AddedLines     int // the commit's countable added lines
	PositionLines  int // of WrittenLines, those known by position (the rest by text match)

	// SharedBy is, for a link read from a shared note, the clone whose
	// note it is (the note's writer).
	SharedBy string
	// DerivedBy is, for a link derived from a teammate's note (a squash
	// merge), the clone that derived it, when it is not SharedBy.
	DerivedBy string
	// RewrittenFrom is, for a link read from a shared note's record about
	// another commit, the commit this clone amended or rebased into this
	// one: the link was copied by the rewrite.
	RewrittenFrom string
}

// Evidence kinds of a link (docs/linking.md), weakest last.
const (
	LinkEvidenceManual      = "manual"       // linked by hand
	LinkEvidenceAgentCommit = "agent commit" // the agent ran git commit itself
	LinkEvidencePosition    = "position"     // wrote lines, located where it wrote them
	LinkEvidenceText        = "text match"   // wrote lines, known by their text only
	LinkEvidenceOverlap     = "overlap only" // edited the same files; wrote none of these lines
	// LinkEvidenceRewrite: a teammate's record about the commit this one
	// was amended or rebased from, carried over (its lines only where the
	// rewrite left them unchanged).
	LinkEvidenceRewrite = "copied by rewrite"
)

// Evidence is the kind of evidence the link rests on.
func (l Link) Evidence() string {
	switch {
	case l.RewrittenFrom != "":
		return LinkEvidenceRewrite
	case l.Status == "manual":
		return LinkEvidenceManual
	case l.Source == LinkSourceAgentCommit:
		return LinkEvidenceAgentCommit
	case l.WrittenLines > 0 && l.PositionLines > 0:
		return LinkEvidencePosition
	case l.WrittenLines > 0:
		return LinkEvidenceText
	}
	return LinkEvidenceOverlap
}

// ReplaceAutoLinks makes links the auto-links of commitHash: it inserts or
// re-scores them and drops auto-links that the scorer made and that no longer
// qualify. Manual links are never touched; links made by an import or carried
// over by a rewrite are never removed.
func (s *Store) ReplaceAutoLinks(ctx context.Context, commitHash string, links []Link) error {
	now := isoTime(s.now())
	return s.write(ctx, func(tx *sql.Tx) error {
		keep := make([]any, 0, len(links)+1)
		keep = append(keep, commitHash)
		for _, l := range links {
			keep = append(keep, l.ConversationID)
		}
		q := `DELETE FROM links WHERE commitHash = ? AND status = 'auto' AND source IN ('hook', 'relink')`
		if len(links) > 0 {
			q += ` AND conversationId NOT IN (` + placeholders(len(links)) + `)`
		}
		if _, err := tx.ExecContext(ctx, q, keep...); err != nil {
			return err
		}
		return upsertAutoLinks(ctx, tx, commitHash, links, now, false)
	})
}

// AddAutoLinks inserts auto-links without removing or lowering any existing
// link (an import's promise: never duplicate, downgrade or remove).
func (s *Store) AddAutoLinks(ctx context.Context, commitHash string, links []Link) error {
	now := isoTime(s.now())
	return s.write(ctx, func(tx *sql.Tx) error {
		return upsertAutoLinks(ctx, tx, commitHash, links, now, true)
	})
}

func upsertAutoLinks(ctx context.Context, tx *sql.Tx, commitHash string, links []Link, now string, onlyRaise bool) error {
	withdrawn, err := withdrawnOn(ctx, tx, commitHash)
	if err != nil {
		return err
	}
	cond := `links.status = 'auto'`
	if onlyRaise {
		cond += ` AND excluded.confidence > links.confidence`
	}
	stmt, err := tx.PrepareContext(ctx, `
INSERT INTO links (conversationId, commitHash, matchedFiles, confidence, status, createdAt, reason, source, updatedAt, writtenLines, addedLines, positionLines)
VALUES (?, ?, ?, ?, 'auto', ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (conversationId, commitHash) DO UPDATE SET
    matchedFiles = excluded.matchedFiles, writtenLines = excluded.writtenLines, addedLines = excluded.addedLines,
    positionLines = excluded.positionLines,
    confidence = CASE WHEN links.source = 'agent-commit' THEN links.confidence ELSE excluded.confidence END,
    reason = CASE WHEN links.source = 'agent-commit' THEN links.reason ELSE excluded.reason END,
    source = CASE WHEN links.source IN ('import', 'agent-commit') THEN links.source ELSE excluded.source END,
    updatedAt = excluded.updatedAt
WHERE `+cond)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, l := range links {
		if withdrawn[l.ConversationID] {
			continue // unlinked by hand: the user's word outlasts any score
		}
		src := l.Source
		if src == "" {
			src = LinkSourceHook
		}
		if _, err := stmt.ExecContext(ctx, l.ConversationID, commitHash, jsonList(l.MatchedFiles), clamp01(l.Confidence),
			now, l.Reason, src, now, l.WrittenLines, l.AddedLines, l.PositionLines); err != nil {
			return err
		}
	}
	return nil
}

// SetManualLink links a conversation to a commit by hand (confidence 1.0),
// undoing an Unlink of the pair. It works when only one side is known yet:
// neither row has to exist.
func (s *Store) SetManualLink(ctx context.Context, convID, commitHash, reason string) error {
	now := isoTime(s.now())
	if reason == "" {
		reason = "linked by hand"
	}
	return s.write(ctx, func(tx *sql.Tx) error {
		// Linking by hand takes back an unlink of the pair.
		if _, err := tx.ExecContext(ctx, `DELETE FROM unlinks WHERE conversationId = ? AND commitHash = ?`, convID, commitHash); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `
INSERT INTO links (conversationId, commitHash, matchedFiles, confidence, status, createdAt, reason, source, updatedAt)
VALUES (?, ?, '[]', 1.0, 'manual', ?, ?, 'manual', ?)
ON CONFLICT (conversationId, commitHash) DO UPDATE SET
    confidence = 1.0, status = 'manual', source = 'manual', reason = excluded.reason, updatedAt = excluded.updatedAt`,
			convID, commitHash, now, reason, now)
		return err
	})
}

// SetAgentCommitLink links a commit to the conversation whose agent made it
// (confidence 1.0, status auto, source agent-commit). Like a manual link it
// works before either row exists, and auto-linking never lowers it; a
// manual link already there stays as it is, and a pair unlinked by hand
// stays unlinked.
func (s *Store) SetAgentCommitLink(ctx context.Context, convID, commitHash string) error {
	now := isoTime(s.now())
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `
INSERT INTO links (conversationId, commitHash, matchedFiles, confidence, status, createdAt, reason, source, updatedAt)
SELECT ?1, ?2, '[]', 1.0, 'auto', ?3, ?4, 'agent-commit', ?3
WHERE NOT EXISTS (SELECT 1 FROM unlinks WHERE conversationId = ?1 AND commitHash = ?2)
ON CONFLICT (conversationId, commitHash) DO UPDATE SET
    confidence = 1.0, reason = excluded.reason, source = 'agent-commit', updatedAt = excluded.updatedAt
WHERE links.status = 'auto'`,
			convID, commitHash, now, ReasonAgentCommit)
		return err
	})
}

// Unlink removes the link between a conversation and a commit, whatever its
// status, and reports whether a link was removed. A removed link is a
// withdrawal that holds (the unlinks table): auto-linking never links the
// pair again, an amend or a rebase carries it to the new commit
// (MarkRewritten), and the lines the conversation wrote in the commit are
// no longer its (dropWithdrawn). SetManualLink undoes it.
func (s *Store) Unlink(ctx context.Context, convID, commitHash string) (bool, error) {
	var n int64
	err := s.write(ctx, func(tx *sql.Tx) error {
		var err error
		n, err = execCount(ctx, tx, `DELETE FROM links WHERE conversationId = ? AND commitHash = ?`, convID, commitHash)
		if err != nil || n == 0 {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO unlinks (conversationId, commitHash, createdAt) VALUES (?, ?, ?)
ON CONFLICT (conversationId, commitHash) DO UPDATE SET createdAt = excluded.createdAt, carriedFrom = NULL`,
			convID, commitHash, isoTime(s.now())); err != nil {
			return err
		}
		return dropWithdrawn(ctx, tx, commitHash)
	})
	return n > 0, err
}

// Withdrawn is the set of conversations unlinked by hand from commitHash
// (or from the commit it was amended or rebased from).
func (s *Store) Withdrawn(ctx context.Context, commitHash string) (map[string]bool, error) {
	out, err := withdrawnOn(ctx, s.db, commitHash)
	return out, classify(s.path, err)
}

// HaveUnlinks reports which of hashes had a conversation unlinked by hand.
func (s *Store) HaveUnlinks(ctx context.Context, hashes []string) (map[string]bool, error) {
	out := map[string]bool{}
	err := inChunks(hashes, func(chunk []string) error {
		rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT commitHash FROM unlinks WHERE commitHash IN (`+placeholders(len(chunk))+`)`, anys(chunk)...)
		if err != nil {
			return err
		}
		hs, err := scanStrings(rows)
		for _, h := range hs {
			out[h] = true
		}
		return err
	})
	return out, classify(s.path, err)
}

func withdrawnOn(ctx context.Context, q querier, commitHash string) (map[string]bool, error) {
	rows, err := q.QueryContext(ctx, `SELECT conversationId FROM unlinks WHERE commitHash = ?`, commitHash)
	if err != nil {
		return nil, err
	}
	ids, err := scanStrings(rows)
	out := make(map[string]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out, err
}

// dropWithdrawn takes from commitHash what its withdrawn conversations
// still have there: a link not made by hand (scored, imported or carried
// before the withdrawal reached the commit) and the lines they wrote. A
// commit that loses lines so is no longer examined (linesWithdrawn): they
// are no one's now, not a person's. Examined again once nothing withdrawn
// has lines there (setCommitLines, after link takes an unlink back).
func dropWithdrawn(ctx context.Context, tx *sql.Tx, commitHash string) error {
	var some bool // most commits have none: one look-up each
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM unlinks WHERE commitHash = ?)`, commitHash).Scan(&some); err != nil || !some {
		return err
	}
	const withdrawn = `(SELECT conversationId FROM unlinks WHERE commitHash = ?1)`
	if _, err := tx.ExecContext(ctx, `DELETE FROM links WHERE commitHash = ?1 AND status != 'manual' AND conversationId IN `+withdrawn, commitHash); err != nil {
		return err
	}
	n, err := execCount(ctx, tx, `DELETE FROM commit_lines WHERE commitHash = ?1 AND conversationId IN `+withdrawn, commitHash)
	if err != nil || n == 0 {
		return err
	}
	_, err = tx.ExecContext(ctx, `UPDATE commits SET linesRecorded = ? WHERE commitHash = ? AND linesRecorded = ?`, linesWithdrawn, commitHash, linesExamined)
	return err
}

// LinkedConversation is a conversation as seen from one of its commits.
type LinkedConversation struct {
	Link
	Conv Conversation
}

// ConversationsForCommits returns, for each hash, its linked conversations,
// strongest first. One query per 500 hashes: `log` calls it once per page.
func (s *Store) ConversationsForCommits(ctx context.Context, hashes []string) (map[string][]LinkedConversation, error) {
	return s.linksForCommits(ctx, hashes, `l.matchedFiles, l.confidence, l.status, l.reason, l.source, l.createdAt,
    l.writtenLines, l.addedLines, l.positionLines, `+conversationColumns, byID(), func(rows *sql.Rows, lc *LinkedConversation) error {
		var matched string
		dest := []any{&lc.CommitHash, &lc.ConversationID, &matched, &lc.Confidence, &lc.Status, &lc.Reason, &lc.Source, &lc.CreatedAt,
			&lc.WrittenLines, &lc.AddedLines, &lc.PositionLines}
		cs := newConvScan()
		if err := rows.Scan(append(dest, cs.dest()...)...); err != nil {
			return err
		}
		lc.Conv = cs.result()
		_ = json.Unmarshal([]byte(matched), &lc.MatchedFiles)
		return nil
	})
}

func clamp01(f float64) float64 {
	switch {
	case f < 0:
		return 0
	case f > 1:
		return 1
	}
	return f
}
