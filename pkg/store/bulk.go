package store

import (
	"context"
	"database/sql"
	"errors"

	"github.com/git-convo/git-convo/pkg/util/mstime"
)

// BulkRows is about how many rows a Bulk writes in one transaction: enough
// that a commit's cost disappears, few enough (tens of milliseconds) that a
// hook waiting on the database lock is not held past its busy timeout.
const BulkRows = 4000

// Bulk writes many conversations, events, commits and links (an import, a
// generated benchmark) in few transactions, each write as the Store method
// of the same name would make it. Writes are kept until about BulkRows rows
// wait, then written in one transaction (again whole if SQLite stays
// busy); Flush writes what waits. A write's error is returned by the call
// that writes its batch, and nothing of that batch is stored.
type Bulk struct {
	s    *Store
	ops  []bulkOp
	rows int // the waiting writes' rows, about
}

type bulkOp struct {
	write func(ctx context.Context, tx *sql.Tx) error
	// conv is the conversation whose file lists a recorded event changed,
	// brought up to date once a batch; atMs, the event's time.
	conv string
	atMs int64
	// record: a commit was recorded (the lastRecord meta row).
	record bool
}

// Bulk starts a bulk write. Nothing is written before BulkRows rows or
// Flush.
func (s *Store) Bulk() *Bulk { return &Bulk{s: s} }

// add keeps op, which writes about rows rows, and writes the batch when it
// is full.
func (b *Bulk) add(ctx context.Context, op bulkOp, rows int) error {
	b.ops = append(b.ops, op)
	b.rows += rows
	if b.rows < BulkRows {
		return nil
	}
	return b.Flush(ctx)
}

// Flush writes the waiting writes in one transaction.
func (b *Bulk) Flush(ctx context.Context) error {
	if len(b.ops) == 0 {
		return nil
	}
	ops := b.ops
	b.ops, b.rows = nil, 0
	now := isoTime(b.s.now())
	return b.s.write(ctx, func(tx *sql.Tx) error {
		var refresh []string
		refreshing := map[string]bool{}
		capture, record := "", false
		for _, op := range ops {
			if err := op.write(ctx, tx); err != nil {
				return err
			}
			if op.conv != "" && !refreshing[op.conv] {
				refreshing[op.conv] = true
				refresh = append(refresh, op.conv)
			}
			if op.atMs != 0 {
				capture = mstime.ISO(op.atMs)
			}
			record = record || op.record
		}
		for _, id := range refresh {
			if err := refreshCapturedFiles(ctx, tx, id); err != nil {
				return err
			}
		}
		if capture != "" {
			if err := setMeta(ctx, tx, "lastCapture", capture); err != nil {
				return err
			}
		}
		if record {
			return setMeta(ctx, tx, "lastRecord", now)
		}
		return nil
	})
}

// RecordActivity is Store.RecordActivity in the bulk write.
func (b *Bulk) RecordActivity(ctx context.Context, a Activity) error {
	if a.ConversationID == "" {
		return errors.New("activity has no conversation id")
	}
	if a.AtMs == 0 {
		a.AtMs = b.s.now().UnixMilli()
	}
	op := bulkOp{write: func(ctx context.Context, tx *sql.Tx) error { return recordActivity(ctx, tx, a) }, atMs: a.AtMs}
	if len(a.Files) > 0 {
		op.conv = a.ConversationID
	}
	return b.add(ctx, op, 1+len(a.WorkspaceRoots)+len(a.Files)+len(a.Lines)+len(a.Spans))
}

// ApplyEnrichment is Store.ApplyEnrichment in the bulk write.
func (b *Bulk) ApplyEnrichment(ctx context.Context, e Enrichment) error {
	if e.ConversationID == "" {
		return errors.New("enrichment has no conversation id")
	}
	if e.EnrichedMs == 0 {
		e.EnrichedMs = b.s.now().UnixMilli()
	}
	return b.add(ctx, bulkOp{write: func(ctx context.Context, tx *sql.Tx) error { return applyEnrichment(ctx, tx, e) }},
		2+len(e.Files)+len(e.Lines)+2*len(e.Roots))
}

// UpsertCommit is Store.UpsertCommit in the bulk write.
func (b *Bulk) UpsertCommit(ctx context.Context, c Commit) error {
	if c.Hash == "" {
		return errors.New("commit has no hash")
	}
	now := isoTime(b.s.now())
	return b.add(ctx, bulkOp{write: func(ctx context.Context, tx *sql.Tx) error { return upsertCommit(ctx, tx, c, now) }, record: true},
		2+len(c.Files))
}

// AddAutoLinks is Store.AddAutoLinks in the bulk write.
func (b *Bulk) AddAutoLinks(ctx context.Context, commitHash string, links []Link) error {
	now := isoTime(b.s.now())
	return b.add(ctx, bulkOp{write: func(ctx context.Context, tx *sql.Tx) error {
		return upsertAutoLinks(ctx, tx, commitHash, links, now, true)
	}}, len(links))
}

// SetCommitLines is Store.SetCommitLines in the bulk write.
func (b *Bulk) SetCommitLines(ctx context.Context, hash string, files []FileLines, lines []CommitLine) error {
	return b.add(ctx, bulkOp{write: func(ctx context.Context, tx *sql.Tx) error { return setCommitLines(ctx, tx, hash, files, lines) }},
		2+len(files)+len(lines))
}

// ApplyEnrichments applies es, in order, as ApplyEnrichment each would, in
// few transactions (an import). On an error some may be written, none
// half: applying them again (or one by one) gives the same database.
func (s *Store) ApplyEnrichments(ctx context.Context, es []Enrichment) error {
	b := s.Bulk()
	for _, e := range es {
		if err := b.ApplyEnrichment(ctx, e); err != nil {
			return err
		}
	}
	return b.Flush(ctx)
}
