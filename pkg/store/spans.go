package store

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
)

// MaxEditSpansPerConversation bounds the located edits kept of one
// conversation (each holds its file's line hashes); past it, its edits are
// text evidence.
const MaxEditSpansPerConversation = 2000

// Range is lines [Start, End] of a file, 1-based, inclusive.
type Range struct{ Start, End int }

// EditSpan is one event's located edits to one file: the file as it was on
// disk then (8 bytes of line hash a line) and the lines they wrote.
type EditSpan struct {
	ConversationID string
	GenerationID   string
	RepoKey        string
	PathKey        string
	AtMs           int64
	Snapshot       []byte
	Ranges         []Range
}

func insertEditSpans(ctx context.Context, tx *sql.Tx, convID, genID string, spans []EditSpan, atMs int64) error {
	if len(spans) == 0 {
		return nil
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM edit_spans WHERE conversationId = ?`, convID).Scan(&n); err != nil {
		return err
	}
	for i, sp := range spans {
		if n+i >= MaxEditSpansPerConversation {
			return nil // bounded: the edit lines remain, as text evidence
		}
		at := sp.AtMs
		if at == 0 {
			at = atMs
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO edit_spans (conversationId, generationId, repoKey, pathKey, atMs, snapshot, ranges)
VALUES (?, ?, ?, ?, ?, ?, ?)`, convID, genID, sp.RepoKey, sp.PathKey, at, sp.Snapshot, formatRanges(sp.Ranges)); err != nil {
			return err
		}
	}
	return nil
}

// EditSpans returns the located edits of repository repoKey to the files
// pathKeys made between fromMs and toMs, oldest first.
func (s *Store) EditSpans(ctx context.Context, repoKey string, pathKeys []string, fromMs, toMs int64) ([]EditSpan, error) {
	var out []EditSpan
	err := inChunks(pathKeys, func(chunk []string) error {
		args := append([]any{repoKey, fromMs, toMs}, anys(chunk)...)
		rows, err := s.db.QueryContext(ctx, `SELECT conversationId, generationId, pathKey, atMs, snapshot, ranges FROM edit_spans
WHERE repoKey = ? AND atMs BETWEEN ? AND ? AND pathKey IN (`+placeholders(len(chunk))+`) ORDER BY atMs, id`, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			sp := EditSpan{RepoKey: repoKey}
			var ranges string
			if err := rows.Scan(&sp.ConversationID, &sp.GenerationID, &sp.PathKey, &sp.AtMs, &sp.Snapshot, &ranges); err != nil {
				return err
			}
			sp.Ranges = parseRanges(ranges)
			out = append(out, sp)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("located edits: %w", classify(s.path, err))
	}
	return out, nil
}

// formatRanges writes ranges as "3-9,12-12".
func formatRanges(rs []Range) string {
	var b strings.Builder
	for i, r := range rs {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%d-%d", r.Start, r.End)
	}
	return b.String()
}

// parseRanges reads formatRanges' text; what does not parse is skipped.
func parseRanges(s string) []Range {
	var out []Range
	for _, part := range strings.Split(s, ",") {
		a, b, ok := strings.Cut(part, "-")
		start, err1 := strconv.Atoi(a)
		end, err2 := strconv.Atoi(b)
		if ok && err1 == nil && err2 == nil && start >= 1 && end >= start {
			out = append(out, Range{start, end})
		}
	}
	return out
}
