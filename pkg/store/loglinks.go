package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"strconv"
	"strings"
)

// LogLinksForCommits is ConversationsForCommits for a listing of one line
// per conversation (git convo log): in the same order, each link's
// conversation id, confidence, status and evidence (source and line
// counts), and its conversation's title, agent and (for a conversation
// with no title) first prompt; nothing else,
// so no JSON column is decoded and no transcript text is read. On log
// -n 1000 this is a third of the full query's time.
//
// secs, when given, holds each hash's committer time in seconds as the
// walk read it from the commit (0: not known): the links are then found
// by it (logTimedQuery), where the newest commits' links lie together.
// A chunk of hashes one of which has no usable time is asked by whole
// hashes (links_commit) instead.
//
// The rows are read from the driver itself (logLinksRaw): database/sql's
// locking and Scan were 15 % of the query's CPU (BenchmarkLogLinks1000).
// A value of another type than the columns hold sends the batch through
// database/sql, whose conversions then decide.
func (s *Store) LogLinksForCommits(ctx context.Context, hashes []string, secs []int64) (map[string][]LinkedConversation, error) {
	// Each commit once, in the order given: a repeat would join its links
	// twice in logTimedQuery. at is each hash's place in unique, which
	// tells the rows of a chunk's commits from another's with the same
	// prefix; times, each one's time when the walk gave them.
	at := make(map[string]int, len(hashes))
	unique := make([]string, 0, len(hashes))
	var times []int64
	timed := len(secs) == len(hashes)
	for i, h := range hashes {
		if _, ok := at[h]; ok {
			continue
		}
		at[h] = len(unique)
		unique = append(unique, h)
		if timed {
			times = append(times, secs[i])
		}
	}
	out := make(map[string][]LinkedConversation, len(unique)) // a link a commit, as an agent's history has
	// start is the chunk's place in unique.
	start := 0
	err := inChunks(unique, func(chunk []string) error {
		end := start + len(chunk)
		defer func() { start = end }()
		var ts []int64
		if timed {
			ts = times[start:end]
		}
		q, args := logLinksQuery(chunk, ts)
		asked := func(h string) bool {
			i, ok := at[h]
			return ok && i >= start && i < end
		}
		err := s.logLinksRaw(ctx, q, args, len(chunk), asked, out)
		if errors.Is(err, errRawType) {
			err = s.logLinksSQL(ctx, q, args, asked, out)
		}
		return err
	})
	return out, classify(s.path, err)
}

// logLinksQuery is the query of chunk's links and its arguments: by the
// commits' times where every one of them is known (times, in seconds, as
// chunk's), else by whole hashes.
func logLinksQuery(chunk []string, times []int64) (string, []any) {
	if times != nil {
		ms := make([]int64, len(chunk))
		timed := true
		for i := range chunk {
			var ok bool
			if ms[i], ok = CommitMs(times[i]); !ok {
				timed = false
				break
			}
		}
		if timed {
			return logTimedQuery(chunk, ms)
		}
	}
	args := padded(chunk)
	return linksSelect(logLinksColumns+logOrderColumns, "links l INDEXED BY links_commit", logConversations(), "l.commitHash", len(args)), args
}

// CommitMs is a commit's committer time in seconds as git wrote it, in
// milliseconds as links.commitMs keeps it (migration 10); ok is false for
// a time that is no use as a key: none (0), before 1970, or past what a
// commit-graph holds (34 bits), where the walk's date may not be the
// object's.
func CommitMs(secs int64) (ms int64, ok bool) {
	if secs <= 0 || secs >= 1<<34 {
		return 0, false
	}
	return secs * 1000, true
}

// logTimedQuery finds the links of hashes (ms: their commits' times) by
// links_commit_time (migration 10): keyed by the commit's time first, so
// the links of the newest commits, which log asks first, lie together,
// where by their random hashes they took a page each. A link whose copy of
// its commit's time is not made (its commit not recorded from git) is
// found by links_commit_untimed, by the hash's first 8 digits: a row of
// another commit with the same prefix is dropped by the reader. The
// copies are never out of date (a commit's time is part of its hash).
func logTimedQuery(hashes []string, ms []int64) (string, []any) {
	n := paddedLen(len(hashes))
	args := make([]any, 0, 3*n)
	for i := range n {
		if i < len(hashes) {
			args = append(args, ms[i], hashes[i])
		} else {
			args = append(args, nil, "")
		}
	}
	for i := range n {
		if i < len(hashes) {
			args = append(args, hashPrefix(hashes[i]))
		} else {
			args = append(args, "")
		}
	}
	conv := logConversations()
	cols := `l.commitHash, l.conversationId, ` + logLinksColumns + logOrderColumns
	values := strings.Repeat("(?,?),", n-1) + "(?,?)"
	return `
SELECT ` + cols + `
FROM (VALUES ` + values + `) v CROSS JOIN links l INDEXED BY links_commit_time ` + conv.join + `
WHERE l.commitMs = v.column1 AND l.commitHash = v.column2
UNION ALL
SELECT ` + cols + `
FROM links l INDEXED BY links_commit_untimed ` + conv.join + `
WHERE l.commitMs IS NULL AND substr(l.commitHash, 1, ` + strconv.Itoa(logLinkPrefix) + `) IN (` + placeholders(n) + `)
ORDER BY 1, 12 DESC, 3 DESC, 13 DESC, 14`, args
}

// logOrderColumns are what log's rows are ordered by after their commit,
// as linksSelect orders show's (a compound query orders by its columns):
// manual first, then confidence (column 3), activity, the links' order.
const logOrderColumns = `,
    l.status = 'manual', COALESCE(c.activityMs, c2.activityMs), l.id`

// convJoin is how a links query joins a link's conversation, and its
// activityMs there (which orders tied links).
type convJoin struct{ join, activity string }

// logConversations is log's: the conversation (c) is found by
// conversations_seen_log (migration 9) through the link's copy of when it
// was first seen: what log shows of it, but a title-less conversation's
// first prompt, is in the index, so its row is not read, and the
// conversations of recent commits lie together there, where by their
// random ids they took a page each. The look-up matches the id as well, so
// a copy out of date finds nothing; then, and only then, c2 finds the
// conversation by its id (its key is NULL otherwise, which SQLite seeks
// no further). SQLite's planner, with no statistics, took the primary
// key's index for c instead; both indexes are named.
func logConversations() convJoin {
	return convJoin{
		join: "LEFT JOIN conversations c INDEXED BY conversations_seen_log ON c.firstSeenMs = l.convSeenMs AND c.conversationId = l.conversationId" +
			" LEFT JOIN conversations c2 ON c2.conversationId = CASE WHEN c.conversationId IS NULL THEN l.conversationId END",
		activity: "COALESCE(c.activityMs, c2.activityMs)",
	}
}

// byID is show's: c by its id.
func byID() convJoin {
	return convJoin{join: "LEFT JOIN conversations c ON c.conversationId = l.conversationId", activity: "c.activityMs"}
}

// logLinkPrefix is how many hex digits of a hash links_commit_untimed keys.
const logLinkPrefix = 8

// logLinksColumns are the columns LogLinksForCommits reads after the
// commit hash and conversation id.
const logLinksColumns = `l.confidence, l.status, COALESCE(c.title, c2.title, ''), COALESCE(c.agent, c2.agent, ''),
    CASE WHEN COALESCE(c.title, c2.title, '') = '' THEN COALESCE(c.firstPrompt, c2.firstPrompt, '') ELSE '' END,
    l.source, l.writtenLines, l.addedLines, l.positionLines`

// logLinkRow is a row of log's query read into lc (the columns after
// logLinksColumns only order the rows).
func logLinkRow(lc *LinkedConversation, dest func(...any) error) error {
	var w, a, p int64
	var manual, activity, id any
	if err := dest(&lc.CommitHash, &lc.ConversationID, &lc.Confidence, &lc.Status,
		&lc.Conv.Title, &lc.Conv.Agent, &lc.Conv.FirstPrompt, &lc.Source, &w, &a, &p, &manual, &activity, &id); err != nil {
		return err
	}
	lc.WrittenLines, lc.AddedLines, lc.PositionLines = int(w), int(a), int(p)
	return nil
}

// logLinksSQL is logLinksRaw through database/sql, whose conversions
// decide a value of another type than the columns hold.
func (s *Store) logLinksSQL(ctx context.Context, q string, args []any, asked func(string) bool, out map[string][]LinkedConversation) error {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var lc LinkedConversation
		if err := logLinkRow(&lc, rows.Scan); err != nil {
			return err
		}
		if asked(lc.CommitHash) {
			lc.Conv.ID = lc.ConversationID
			out[lc.CommitHash] = append(out[lc.CommitHash], lc)
		}
	}
	return rows.Err()
}

// errRawType: a value logLinksRaw does not read as database/sql would.
var errRawType = errors.New("unexpected column type")

// logLinksRaw runs log's query q, reading the driver's rows without
// database/sql: text as string, REAL as float64, INTEGER as int64; any
// other value is errRawType (and out is left as it was). Rows of hashes not
// asked (another commit's with the same prefix) are dropped. The rows
// (about one a commit of the n asked) are read into one slice, each
// commit's a piece of it: the query orders them by commit.
func (s *Store) logLinksRaw(ctx context.Context, q string, args []any, n int, asked func(string) bool, out map[string][]LinkedConversation) error {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	got := make([]LinkedConversation, 0, n)
	err = conn.Raw(func(dc any) error {
		qc, ok := dc.(driver.QueryerContext)
		if !ok {
			return errRawType
		}
		named := make([]driver.NamedValue, len(args))
		for i, a := range args {
			named[i] = driver.NamedValue{Ordinal: i + 1, Value: a}
		}
		rows, err := qc.QueryContext(ctx, q, named)
		if err != nil {
			return err
		}
		defer rows.Close()
		v := make([]driver.Value, 14)
		for {
			if err := rows.Next(v); err == io.EOF {
				return nil
			} else if err != nil {
				return err
			}
			if h, ok := v[0].(string); ok && !asked(h) {
				continue // another commit's with the same prefix, whatever its types
			}
			got = append(got, LinkedConversation{})
			lc := &got[len(got)-1]
			var w, a, p int64
			ok := rawText(v[0], &lc.CommitHash) && rawText(v[1], &lc.ConversationID) && rawReal(v[2], &lc.Confidence) &&
				rawText(v[3], &lc.Status) && rawText(v[4], &lc.Conv.Title) && rawText(v[5], &lc.Conv.Agent) &&
				rawText(v[6], &lc.Conv.FirstPrompt) && rawText(v[7], &lc.Source) &&
				rawInt(v[8], &w) && rawInt(v[9], &a) && rawInt(v[10], &p)
			if !ok {
				return errRawType
			}
			lc.WrittenLines, lc.AddedLines, lc.PositionLines = int(w), int(a), int(p)
			lc.Conv.ID = lc.ConversationID
		}
	})
	if err != nil {
		return err
	}
	for i := 0; i < len(got); {
		j := i + 1
		for j < len(got) && got[j].CommitHash == got[i].CommitHash {
			j++
		}
		h := got[i].CommitHash
		if prev, ok := out[h]; ok { // not if ordered by commit, as asked: kept whole all the same
			out[h] = append(prev, got[i:j]...)
		} else {
			out[h] = got[i:j:j]
		}
		i = j
	}
	return nil
}

// hashPrefix is h's first logLinkPrefix characters, or h if shorter.
func hashPrefix(h string) string {
	return h[:min(len(h), logLinkPrefix)]
}

func rawText(v driver.Value, dst *string) bool {
	s, ok := v.(string)
	*dst = s
	return ok
}

func rawReal(v driver.Value, dst *float64) bool {
	f, ok := v.(float64)
	*dst = f
	return ok
}

func rawInt(v driver.Value, dst *int64) bool {
	n, ok := v.(int64)
	*dst = n
	return ok
}

// linksForCommits runs, per 500 hashes, the query of each hash's links
// with their conversations, strongest first: the commit hash and
// conversation id, then cols, which scan reads into a link.
func (s *Store) linksForCommits(ctx context.Context, hashes []string, cols string, conv convJoin,
	scan func(*sql.Rows, *LinkedConversation) error) (map[string][]LinkedConversation, error) {
	out := map[string][]LinkedConversation{}
	err := inChunks(hashes, func(chunk []string) error {
		args := padded(chunk)
		rows, err := s.db.QueryContext(ctx, linksQuery(cols, conv, len(args)), args...)
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

// linksQuery is the query of n hashes' links with their conversations,
// strongest first: the commit hash and conversation id, then cols.
func linksQuery(cols string, conv convJoin, n int) string {
	return linksSelect(cols, "links l", conv, "l.commitHash", n)
}

// linksSelect is linksQuery with the links read from links (the table
// and any index named), their conversations joined by conv, and found by
// key IN the n values. Ties are in the links' order (l.id): every plan,
// log's and show's, gives them the same.
func linksSelect(cols, links string, conv convJoin, key string, n int) string {
	return `
SELECT l.commitHash, l.conversationId, ` + cols + `
FROM ` + links + ` ` + conv.join + `
WHERE ` + key + ` IN (` + placeholders(n) + `)
ORDER BY l.commitHash, (l.status = 'manual') DESC, l.confidence DESC, ` + conv.activity + ` DESC, l.id`
}

// HasLinks says whether any commit has a link: log asks it once, while
// git runs, and skips every links query when none has (a teammate who
// only reads shared notes).
func (s *Store) HasLinks(ctx context.Context) (bool, error) {
	var has bool
	err := s.db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM links)`).Scan(&has)
	return has, classify(s.path, err)
}
