package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"strconv"
)

// LogLinksForCommits is ConversationsForCommits for a listing of one line
// per conversation (git convo log): in the same order, each link's
// conversation id, confidence, status and evidence (source and line
// counts), and its conversation's title, agent and (for a conversation
// with no title) first prompt; nothing else,
// so no JSON column is decoded and no transcript text is read. On log
// -n 1000 this is a third of the full query's time.
//
// The rows are read from the driver itself (logLinksRaw): database/sql's
// locking and Scan were 15 % of the query's CPU (BenchmarkLogLinks1000).
// A value of another type than the columns hold sends the batch through
// database/sql, whose conversions then decide.
func (s *Store) LogLinksForCommits(ctx context.Context, hashes []string) (map[string][]LinkedConversation, error) {
	var out map[string][]LinkedConversation // the first chunk's, then more
	err := inChunks(hashes, func(chunk []string) error {
		got, err := s.logLinksRaw(ctx, chunk)
		if errors.Is(err, errRawType) {
			got, err = s.linksForCommits(ctx, chunk, logLinksColumns, logConversations(), scanLogLink)
		}
		if out == nil {
			out = got
			return err
		}
		for h, lcs := range got {
			out[h] = lcs
		}
		return err
	})
	if out == nil {
		out = map[string][]LinkedConversation{}
	}
	return out, classify(s.path, err)
}

// logLinksQuery is linksQuery of logLinksColumns for n hash prefixes
// (logLinkPrefix). The links are found by links_commit_prefix (migration
// 8): a third of the pages links_commit's whole hashes take, most of which
// log -n 1000 read, one per look-up. The conversation (c) is found by
// conversations_seen_log (migration 9) through the link's copy of when it
// was first seen: what log shows of it, but a title-less conversation's
// first prompt, is in the index, so its row is not read, and the
// conversations of recent commits lie together there, where by their
// random ids they took a page each. The look-up matches the id as well, so
// a copy out of date finds nothing; then, and only then, c2 finds the
// conversation by its id (its key is NULL otherwise, which SQLite seeks
// no further). SQLite's planner, with no statistics, took the primary
// key's index for c instead; both indexes are named.
func logLinksQuery(n int) string {
	return linksSelect(logLinksColumns, "links l INDEXED BY links_commit_prefix", logConversations(),
		"substr(l.commitHash, 1, "+strconv.Itoa(logLinkPrefix)+")", n)
}

// convJoin is how a links query joins a link's conversation, and its
// activityMs there (which orders tied links).
type convJoin struct{ join, activity string }

// logConversations is log's: c by conversations_seen_log, else c2 by id.
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

// logLinkPrefix is how many hex digits of a hash links_commit_prefix keys.
const logLinkPrefix = 8

// logLinksColumns are the columns LogLinksForCommits reads after the
// commit hash and conversation id.
const logLinksColumns = `l.confidence, l.status, COALESCE(c.title, c2.title, ''), COALESCE(c.agent, c2.agent, ''),
    CASE WHEN COALESCE(c.title, c2.title, '') = '' THEN COALESCE(c.firstPrompt, c2.firstPrompt, '') ELSE '' END,
    l.source, l.writtenLines, l.addedLines, l.positionLines`

func scanLogLink(rows *sql.Rows, lc *LinkedConversation) error {
	return rows.Scan(&lc.CommitHash, &lc.ConversationID, &lc.Confidence, &lc.Status,
		&lc.Conv.Title, &lc.Conv.Agent, &lc.Conv.FirstPrompt,
		&lc.Source, &lc.WrittenLines, &lc.AddedLines, &lc.PositionLines)
}

// errRawType: a value logLinksRaw does not read as database/sql would.
var errRawType = errors.New("unexpected column type")

// logLinksRaw is linksForCommits with logLinksColumns for at most 500
// hashes, reading the driver's rows without database/sql: text as string,
// REAL as float64, INTEGER as int64; any other value is errRawType.
func (s *Store) logLinksRaw(ctx context.Context, hashes []string) (map[string][]LinkedConversation, error) {
	out := make(map[string][]LinkedConversation, len(hashes)) // a link a commit, as an agent's history has
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	err = conn.Raw(func(dc any) error {
		q, ok := dc.(driver.QueryerContext)
		if !ok {
			return errRawType
		}
		// The query finds links by prefix: a row of another commit with
		// the same prefix is dropped below.
		asked := make(map[string]bool, len(hashes))
		for _, h := range hashes {
			asked[h] = true
		}
		args := padded(hashes)
		named := make([]driver.NamedValue, len(args))
		for i, a := range args {
			named[i] = driver.NamedValue{Ordinal: i + 1, Value: hashPrefix(a.(string))}
		}
		rows, err := q.QueryContext(ctx, logLinksQuery(len(args)), named)
		if err != nil {
			return err
		}
		defer rows.Close()
		v := make([]driver.Value, 11)
		for {
			if err := rows.Next(v); err == io.EOF {
				return nil
			} else if err != nil {
				return err
			}
			if h, ok := v[0].(string); ok && !asked[h] {
				continue // another commit's with the same prefix, whatever its types
			}
			var lc LinkedConversation
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
			out[lc.CommitHash] = append(out[lc.CommitHash], lc)
		}
	})
	return out, err
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
