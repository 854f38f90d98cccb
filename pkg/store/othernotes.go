package store

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"time"
)

// Other tools' notes, indexed (migration 5, docs/interop.md): per
// repository and notes ref, the tip the index reflects, and per commit
// the writers its note names and the notes a read skips.

// NoteWriter is one writer a commit's note names on Ref: the claim's
// fields as pkg/share/interop has them, its lines and files.
type NoteWriter struct {
	Ref, Commit                                               string
	Source, From, Evidence, Attribution, Tool, Model, Session string
	Person                                                    string
	Rank, Lines                                               int
	Files                                                     []string
}

// NoteSkip is a note (or record) on Ref that every read skips, and why.
type NoteSkip struct {
	Ref, Commit, Reason string
}

// NotesUpdate is what changed on one ref since OldTip ("" when the ref was
// not indexed): the commits whose rows go (Cleared; Full: every commit of
// the ref), then the rows of their notes as they are at Tip.
type NotesUpdate struct {
	OldTip, Tip string
	Version     int
	Full        bool
	Cleared     []string
	Writers     []NoteWriter
	Skips       []NoteSkip
}

// ErrIndexMoved: another process brought the ref's index to another tip
// while this update was read; nothing was written.
var ErrIndexMoved = errors.New("the notes index moved meanwhile")

// InMemory reports OpenEmpty's store: nothing written to it outlives the
// process.
func (s *Store) InMemory() bool { return s.empty != nil }

// NotesTips is, per ref of repoKey's index, the tip it reflects and the
// reader's version that wrote it.
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

// NotesTip is the notes commit an index reflects.
type NotesTip struct {
	Tip     string
	Version int
}

// UpdateNotes applies u to repoKey's index of ref in one transaction,
// waiting at most wait for another writer: a read that finds the database
// locked or read-only reads the notes itself instead. When the index no
// longer reflects u.OldTip (another process updated it), it writes nothing
// and returns ErrIndexMoved.
func (s *Store) UpdateNotes(ctx context.Context, repoKey, ref string, u NotesUpdate, wait time.Duration) error {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return classify(s.path, err)
	}
	defer conn.Close()
	// The busy timeout is the connection's: shortened for this write only.
	if _, err := conn.ExecContext(ctx, "PRAGMA busy_timeout = "+strconv.FormatInt(wait.Milliseconds(), 10)); err != nil {
		return classify(s.path, err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), "PRAGMA busy_timeout = "+strconv.FormatInt(BusyTimeout.Milliseconds(), 10))
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return classify(s.path, err)
	}
	if err := updateNotes(ctx, tx, repoKey, ref, u); err != nil {
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
		for _, table := range []string{"other_note_writers", "other_note_skips"} {
			if _, err := tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE repoKey = ? AND ref = ?`, repoKey, ref); err != nil {
				return err
			}
		}
	} else {
		delW, err := tx.PrepareContext(ctx, `DELETE FROM other_note_writers WHERE repoKey = ? AND commitHash = ? AND ref = ?`)
		if err != nil {
			return err
		}
		defer delW.Close()
		delS, err := tx.PrepareContext(ctx, `DELETE FROM other_note_skips WHERE repoKey = ? AND commitHash = ? AND ref = ?`)
		if err != nil {
			return err
		}
		defer delS.Close()
		for _, c := range u.Cleared {
			if _, err := delW.ExecContext(ctx, repoKey, c, ref); err != nil {
				return err
			}
			if _, err := delS.ExecContext(ctx, repoKey, c, ref); err != nil {
				return err
			}
		}
	}
	insW, err := tx.PrepareContext(ctx, `INSERT INTO other_note_writers (repoKey, ref, commitHash, seq, source, fromText, evidence,
		rank, attribution, tool, model, session, person, lines, files) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer insW.Close()
	seq := map[string]int{}
	for _, w := range u.Writers {
		seq[w.Commit]++
		if _, err := insW.ExecContext(ctx, repoKey, ref, w.Commit, seq[w.Commit], w.Source, w.From, w.Evidence, w.Rank,
			w.Attribution, w.Tool, w.Model, w.Session, w.Person, w.Lines, strings.Join(w.Files, "\n")); err != nil {
			return err
		}
	}
	insS, err := tx.PrepareContext(ctx, `INSERT INTO other_note_skips (repoKey, ref, commitHash, seq, reason) VALUES (?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer insS.Close()
	clear(seq)
	for _, sk := range u.Skips {
		seq[sk.Commit]++
		if _, err := insS.ExecContext(ctx, repoKey, ref, sk.Commit, seq[sk.Commit], sk.Reason); err != nil {
			return err
		}
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO other_notes_tips (repoKey, ref, tip, version) VALUES (?, ?, ?, ?)
		ON CONFLICT (repoKey, ref) DO UPDATE SET tip = excluded.tip, version = excluded.version`, repoKey, ref, u.Tip, u.Version)
	return err
}

// IndexedNotes is what repoKey's index holds of commits on refs: their
// writers and skipped notes, in one query.
func (s *Store) IndexedNotes(ctx context.Context, repoKey string, refs, commits []string) ([]NoteWriter, []NoteSkip, error) {
	if len(refs) == 0 || len(commits) == 0 {
		return nil, nil, nil
	}
	var q strings.Builder
	args := make([]any, 0, 2+2*len(refs)+2*len(commits))
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
	q.WriteString(`SELECT 0, ref, commitHash, source, fromText, evidence, rank, attribution, tool, model, session, person, lines, files
		FROM other_note_writers WHERE repoKey = ? AND commitHash IN `)
	args = append(args, repoKey)
	in(commits)
	q.WriteString(" AND ref IN ")
	in(refs)
	q.WriteString(` UNION ALL SELECT 1, ref, commitHash, reason, '', '', 0, '', '', '', '', '', 0, '' FROM other_note_skips
		WHERE repoKey = ? AND commitHash IN `)
	args = append(args, repoKey)
	in(commits)
	q.WriteString(" AND ref IN ")
	in(refs)
	rows, err := s.db.QueryContext(ctx, q.String(), args...)
	if err != nil {
		return nil, nil, classify(s.path, err)
	}
	defer rows.Close()
	var ws []NoteWriter
	var skips []NoteSkip
	for rows.Next() {
		var kind int
		var w NoteWriter
		var files string
		if err := rows.Scan(&kind, &w.Ref, &w.Commit, &w.Source, &w.From, &w.Evidence, &w.Rank, &w.Attribution,
			&w.Tool, &w.Model, &w.Session, &w.Person, &w.Lines, &files); err != nil {
			return nil, nil, classify(s.path, err)
		}
		if kind == 1 {
			skips = append(skips, NoteSkip{Ref: w.Ref, Commit: w.Commit, Reason: w.Source})
			continue
		}
		if files != "" {
			w.Files = strings.Split(files, "\n")
		}
		ws = append(ws, w)
	}
	return ws, skips, classify(s.path, rows.Err())
}
