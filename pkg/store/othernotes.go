package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"
)

// Other tools' notes, indexed (migration 5, docs/interop.md): per
// repository and notes ref, the tip the index reflects, and per commit
// what its note says (as pkg/share/interop encodes it) and the notes a
// read skips.

// IndexedNote is what one commit's note on Ref says: its writers, as
// pkg/share/interop encodes them, and why its notes or records are
// skipped.
type IndexedNote struct {
	Ref, Commit, Writers string
	Skips                []string
}

// NotesUpdate is what changed on one ref since OldTip ("" when the ref was
// not indexed): the commits whose rows go (Cleared; Full: every commit of
// the ref), then the rows of their notes as they are at Tip.
type NotesUpdate struct {
	OldTip, Tip string
	Version     int
	Full        bool
	Cleared     []string
	Notes       []IndexedNote
}

// ErrIndexMoved: another process brought the ref's index to another tip
// while this update was read; nothing was written.
var ErrIndexMoved = errors.New("the notes index moved meanwhile")

// InMemory reports OpenEmpty's store: nothing written to it outlives the
// process.
func (s *Store) InMemory() bool { return s.empty != nil }

// NotesTip is the notes commit an index reflects, and the version of the
// reader that wrote it.
type NotesTip struct {
	Tip     string
	Version int
}

// NotesTips is, per ref of repoKey's index, the tip it reflects.
func (s *Store) NotesTips(ctx context.Context, repoKey string) (map[string]NotesTip, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT ref, tip, version FROM other_notes_tips WHERE repoKey = ?`, repoKey)
	if err != nil {
		return nil, classify(s.path, err)
	}
	defer rows.Close()
	out := map[string]NotesTip{}
	for rows.Next() {
		var ref string
		var t NotesTip
		if err := rows.Scan(&ref, &t.Tip, &t.Version); err != nil {
			return nil, classify(s.path, err)
		}
		out[ref] = t
	}
	return out, classify(s.path, rows.Err())
}

// UpdateNotes applies u to repoKey's index of ref in one transaction,
// waiting at most wait for another writer: a read that finds the database
// locked or read-only reads the notes itself instead. When the index no
// longer reflects u.OldTip (another process updated it), it writes nothing
// and returns ErrIndexMoved.
func (s *Store) UpdateNotes(ctx context.Context, repoKey, ref string, u NotesUpdate, wait time.Duration) error {
	return s.inShortTx(ctx, wait, func(tx *sql.Tx) error { return updateNotes(ctx, tx, repoKey, ref, u) })
}

// inShortTx runs fn in one transaction, waiting at most wait for another
// writer (a read's write: it goes on without it rather than wait), and
// commits it when fn returns nil.
func (s *Store) inShortTx(ctx context.Context, wait time.Duration, fn func(*sql.Tx) error) error {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return classify(s.path, err)
	}
	defer conn.Close()
	// The busy timeout is the connection's: shortened for this write only.
	if _, err := conn.ExecContext(ctx, "PRAGMA busy_timeout = "+strconv.FormatInt(wait.Milliseconds(), 10)); err != nil {
		return classify(s.path, err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), "PRAGMA busy_timeout = "+strconv.FormatInt(s.busy.Milliseconds(), 10))
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return classify(s.path, err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return classify(s.path, err)
	}
	return classify(s.path, tx.Commit())
}

func updateNotes(ctx context.Context, tx *sql.Tx, repoKey, ref string, u NotesUpdate) error {
	var cur string
	err := tx.QueryRowContext(ctx, `SELECT tip FROM other_notes_tips WHERE repoKey = ? AND ref = ?`, repoKey, ref).Scan(&cur)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	if cur != u.OldTip {
		return ErrIndexMoved
	}
	if u.Full {
		if _, err := tx.ExecContext(ctx, `DELETE FROM other_notes WHERE repoKey = ? AND ref = ?`, repoKey, ref); err != nil {
			return err
		}
	} else {
		del, err := tx.PrepareContext(ctx, `DELETE FROM other_notes WHERE repoKey = ? AND commitHash = ? AND ref = ?`)
		if err != nil {
			return err
		}
		defer del.Close()
		for _, c := range u.Cleared {
			if _, err := del.ExecContext(ctx, repoKey, c, ref); err != nil {
				return err
			}
		}
	}
	ins, err := tx.PrepareContext(ctx, `INSERT OR REPLACE INTO other_notes (repoKey, commitHash, ref, writers, skips) VALUES (?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer ins.Close()
	for _, n := range u.Notes {
		skips := ""
		if len(n.Skips) > 0 {
			b, err := json.Marshal(n.Skips)
			if err != nil {
				return err
			}
			skips = string(b)
		}
		if _, err := ins.ExecContext(ctx, repoKey, n.Commit, ref, n.Writers, skips); err != nil {
			return err
		}
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO other_notes_tips (repoKey, ref, tip, version) VALUES (?, ?, ?, ?)
		ON CONFLICT (repoKey, ref) DO UPDATE SET tip = excluded.tip, version = excluded.version`, repoKey, ref, u.Tip, u.Version)
	return err
}

// IndexedNotes is what repoKey's index holds of commits' notes on refs, in
// one query.
func (s *Store) IndexedNotes(ctx context.Context, repoKey string, refs, commits []string) ([]IndexedNote, error) {
	if len(refs) == 0 || len(commits) == 0 {
		return nil, nil
	}
	var q strings.Builder
	args := make([]any, 0, 1+len(refs)+len(commits))
	in := func(vals []string) {
		q.WriteString("(")
		for i, v := range vals {
			if i > 0 {
				q.WriteString(",")
			}
			q.WriteString("?")
			args = append(args, v)
		}
		q.WriteString(")")
	}
	q.WriteString(`SELECT commitHash, ref, writers, skips FROM other_notes WHERE repoKey = ? AND commitHash IN `)
	args = append(args, repoKey)
	in(commits)
	q.WriteString(" AND ref IN ")
	in(refs)
	rows, err := s.db.QueryContext(ctx, q.String(), args...)
	if err != nil {
		return nil, classify(s.path, err)
	}
	defer rows.Close()
	out := make([]IndexedNote, 0, len(commits))
	for rows.Next() {
		var n IndexedNote
		var skips string
		if err := rows.Scan(&n.Commit, &n.Ref, &n.Writers, &skips); err != nil {
			return nil, classify(s.path, err)
		}
		if skips != "" {
			if err := json.Unmarshal([]byte(skips), &n.Skips); err != nil {
				return nil, err
			}
		}
		out = append(out, n)
	}
	return out, classify(s.path, rows.Err())
}
