package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"
)

// Commit is one recorded commit.
type Commit struct {
	Hash        string
	RepoPath    string // the work tree's top level it was recorded from
	RepoKey     string // git common dir: worktrees of one repository share it
	Branch      string
	Author      string    // "Name <email>"
	Message     string    // subject line
	CommittedAt time.Time // the committer's time
	// ObjectTime: CommittedAt was read from the commit object as stored
	// (git shows no replacement of it), so log may find the commit's links
	// by it (commits.gitMs, migration 10). Unset, the time keys nothing.
	ObjectTime  bool
	ParentCount int
	Files       []string // relative to the repo root
	FileKeys    []string // Files as compared; defaults to Files
	RewrittenTo string
	// MadeMs is when the commit was made, to the millisecond, when known
	// (0: only CommittedAt's second is).
	MadeMs int64
}

// gitMs is links' key of a commit (migration 10): its committer time in
// ms where it is the object's own (ObjectTime), or NULL: a time git showed
// from a replacement, one with a fraction of a second (never read from a
// commit), or one CommitMs takes for no key.
func gitMs(c Commit) any {
	t := c.CommittedAt
	if !c.ObjectTime || t.Nanosecond() != 0 {
		return nil
	}
	if ms, ok := CommitMs(t.Unix()); ok {
		return ms
	}
	return nil
}

// IsMerge reports whether the commit has more than one parent.
func (c Commit) IsMerge() bool { return c.ParentCount > 1 }

// UpsertCommit records (or re-records) a commit and its changed files.
func (s *Store) UpsertCommit(ctx context.Context, c Commit) error {
	if c.Hash == "" {
		return errors.New("commit has no hash")
	}
	now := isoTime(s.now())
	return s.write(ctx, func(tx *sql.Tx) error {
		if err := upsertCommit(ctx, tx, c, now); err != nil {
			return err
		}
		return setMeta(ctx, tx, "lastRecord", now)
	})
}

// upsertCommit is UpsertCommit's work in tx but for the meta row.
func upsertCommit(ctx context.Context, tx *sql.Tx, c Commit, now string) error {
	_, err := tx.ExecContext(ctx, `
INSERT INTO commits (commitHash, repoPath, branch, author, message, committedAt, changedFiles, createdAt,
    repoKey, committedMs, parentCount, madeMs, gitMs)
VALUES (?, ?, NULLIF(?, ''), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (commitHash) DO UPDATE SET
    repoPath = excluded.repoPath, branch = COALESCE(excluded.branch, branch), author = excluded.author,
    message = excluded.message, committedAt = excluded.committedAt, changedFiles = excluded.changedFiles,
    repoKey = excluded.repoKey, committedMs = excluded.committedMs, parentCount = excluded.parentCount,
    madeMs = CASE WHEN madeMs = 0 THEN excluded.madeMs ELSE madeMs END, gitMs = excluded.gitMs`,
		c.Hash, c.RepoPath, c.Branch, c.Author, c.Message, isoTime(c.CommittedAt), jsonList(c.Files), now,
		c.RepoKey, c.CommittedAt.UnixMilli(), c.ParentCount, c.MadeMs, gitMs(c))
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM commit_files WHERE commitHash = ?`, c.Hash); err != nil {
		return err
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT OR IGNORE INTO commit_files (commitHash, path, pathKey) VALUES (?, ?, ?)`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for i, f := range c.Files {
		key := f
		if i < len(c.FileKeys) && c.FileKeys[i] != "" {
			key = c.FileKeys[i]
		}
		if _, err := stmt.ExecContext(ctx, c.Hash, f, key); err != nil {
			return err
		}
	}
	return nil
}

// GetCommit returns a recorded commit, or (nil, nil) when it is not recorded.
func (s *Store) GetCommit(ctx context.Context, hash string) (*Commit, error) {
	var c Commit
	var files string
	var branch, rewritten sql.NullString
	var ms int64
	err := s.db.QueryRowContext(ctx, `
SELECT commitHash, COALESCE(repoPath, ''), branch, COALESCE(author, ''), COALESCE(message, ''), committedMs,
    parentCount, changedFiles, repoKey, rewrittenTo, madeMs
FROM commits WHERE commitHash = ?`, hash).Scan(&c.Hash, &c.RepoPath, &branch, &c.Author, &c.Message, &ms,
		&c.ParentCount, &files, &c.RepoKey, &rewritten, &c.MadeMs)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, classify(s.path, err)
	}
	c.Branch, c.RewrittenTo = branch.String, rewritten.String
	c.CommittedAt = time.UnixMilli(ms)
	_ = json.Unmarshal([]byte(files), &c.Files)
	rows, err := s.db.QueryContext(ctx, `SELECT path, pathKey FROM commit_files WHERE commitHash = ? ORDER BY path`, hash)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	c.Files, c.FileKeys = nil, nil
	for rows.Next() {
		var p, k string
		if err := rows.Scan(&p, &k); err != nil {
			return nil, err
		}
		c.Files = append(c.Files, p)
		c.FileKeys = append(c.FileKeys, k)
	}
	return &c, rows.Err()
}

// RecordedCommits reports which of hashes are already recorded.
func (s *Store) RecordedCommits(ctx context.Context, hashes []string) (map[string]bool, error) {
	out := map[string]bool{}
	err := inChunks(hashes, func(chunk []string) error {
		rows, err := s.db.QueryContext(ctx, `SELECT commitHash FROM commits WHERE commitHash IN (`+placeholders(len(chunk))+`)`, anys(chunk)...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var h string
			if err := rows.Scan(&h); err != nil {
				return err
			}
			out[h] = true
		}
		return rows.Err()
	})
	return out, classify(s.path, err)
}

// MarkRewritten carries every link of old to new (git commit --amend, git
// rebase) and marks old as rewritten. The old commit's row and links stay, so
// nothing is lost; links already on new are kept (a manual link wins). A new
// commit rewritten from one never recorded here is not examined: only its
// local agents' lines are known. The old commit's withdrawals (Unlink) hold
// on new too, but where new has a manual link or is a squash with another
// commit linked to the conversation: what new was given before the rewrite
// was marked (it may be recorded first) is taken back.
func (s *Store) MarkRewritten(ctx context.Context, oldHash, newHash string) error {
	now := isoTime(s.now())
	return s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE commits SET rewrittenTo = ? WHERE commitHash = ?`, newHash, oldHash); err != nil {
			return err
		}
		// The new commit replays the old one's lines: where a forgotten
		// conversation wrote some of those, or the old commit was never
		// recorded here (a teammate's, rebased or squashed here: whose
		// agents wrote it this database cannot know), its examination would
		// give them to a person (SetCommitLines).
		if _, err := tx.ExecContext(ctx, `UPDATE commits SET linesRecorded = ?1 WHERE commitHash = ?2 AND linesRecorded = ?3
AND NOT EXISTS (SELECT 1 FROM commits o WHERE o.commitHash = ?4 AND o.linesRecorded != ?1)`, linesForgotten, newHash, linesExamined, oldHash); err != nil {
			return err
		}
		// A squash: a conversation old is linked to is part of new, whatever
		// another of new's commits withdrew...
		if _, err := tx.ExecContext(ctx, `DELETE FROM unlinks WHERE commitHash = ?1 AND carriedFrom IS NOT NULL
AND conversationId IN (SELECT conversationId FROM links WHERE commitHash = ?2)`, newHash, oldHash); err != nil {
			return err
		}
		// ...and old's withdrawals hold on new unless so, or new was linked
		// to the conversation by hand.
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO unlinks (conversationId, commitHash, createdAt, carriedFrom)
SELECT u.conversationId, ?1, ?2, ?3 FROM unlinks u WHERE u.commitHash = ?3
AND NOT EXISTS (SELECT 1 FROM links l WHERE l.conversationId = u.conversationId AND l.commitHash = ?1 AND l.status = 'manual')
AND NOT EXISTS (SELECT 1 FROM commits p JOIN links l ON l.commitHash = p.commitHash
    WHERE p.rewrittenTo = ?1 AND p.commitHash != ?3 AND l.conversationId = u.conversationId)`,
			newHash, now, oldHash); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `
INSERT INTO links (conversationId, commitHash, matchedFiles, confidence, status, createdAt, reason, source, updatedAt, writtenLines, addedLines, positionLines)
SELECT conversationId, ?, matchedFiles, confidence, status, ?, 
    CASE WHEN reason = '' THEN 'carried from ' || substr(commitHash, 1, 12) ELSE reason || '; carried from ' || substr(commitHash, 1, 12) END,
    CASE WHEN status = 'manual' THEN 'manual' ELSE 'rewrite' END, ?, writtenLines, addedLines, positionLines
FROM links WHERE commitHash = ?
ON CONFLICT (conversationId, commitHash) DO UPDATE SET
    confidence = MAX(confidence, excluded.confidence),
    status = CASE WHEN links.status = 'manual' OR excluded.status = 'manual' THEN 'manual' ELSE 'auto' END,
    updatedAt = excluded.updatedAt`, newHash, now, now, oldHash); err != nil {
			return err
		}
		return dropWithdrawn(ctx, tx, newHash)
	})
}

func inChunks(items []string, fn func([]string) error) error {
	for start := 0; start < len(items); start += chunkSize {
		end := min(start+chunkSize, len(items))
		if err := fn(items[start:end]); err != nil {
			return err
		}
	}
	return nil
}

// chunkSize is how many values a query takes at most (inChunks): well
// under SQLite's bound-parameter limit.
const chunkSize = 500

func anys(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func jsonList(ss []string) string {
	if len(ss) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(ss)
	return string(b)
}

func setMeta(ctx context.Context, tx *sql.Tx, key, value string) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value)
	return err
}

// Meta returns a stored fact ("lastCapture", "lastRecord"), or "".
func (s *Store) Meta(ctx context.Context, key string) (string, error) {
	var v string
	err := s.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return v, classify(s.path, err)
}
