package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/git-convo/git-convo/pkg/util/platform"
	"github.com/git-convo/git-convo/pkg/util/sqliteuri"
)

// The Node prototype of seed 000 (cursor-chat-history-mcp) wrote a
// links.sqlite with the same three tables, no side tables and user_version
// 0. git-convo adopts such a database in place (Open) or copies one into its
// own (ImportPrototype); either way every conversation, commit and link is
// kept, with its links' confidence and status.

// ErrPrototypeNeedsResolver: a prototype database was opened without the
// Resolver that adoption needs (only git-convo's own commands supply it).
var ErrPrototypeNeedsResolver = errors.New("links database was written by the prototype (cursor-chat-history-mcp)")

// Resolver tells the store, which knows no git, where a prototype's paths
// belong. The CLI supplies it.
type Resolver struct {
	// Locate returns the key of the repository holding the absolute path
	// abs and abs relative to that repository's top level.
	Locate func(abs string) (repoKey, rel string, ok bool)
	// RepoKey returns the key of the repository whose work tree is dir,
	// "" when there is none (any more).
	RepoKey func(dir string) string
	// PathKey returns a repository-relative path as compared.
	PathKey func(rel string) string
}

// PrototypeCounts says what a prototype database held and what was new.
type PrototypeCounts struct {
	Conversations, Commits, Links          int // rows in the prototype
	NewConversations, NewCommits, NewLinks int // rows that were not in ours
}

// DefaultPrototypePath is where the prototype kept its database (seed 000's
// table): <data dir>/CursorChatHistory/links.sqlite. It ignores the
// environment overrides: those name git-convo's own database.
func DefaultPrototypePath(getenv func(string) string, goos string) (string, error) {
	var dir string
	var ok bool
	if goos == "windows" || goos == "darwin" {
		dir, ok = platform.DataDir(goos, getenv)
	} else if home := platform.Home(goos, getenv); home != "" {
		// The prototype did not read XDG_DATA_HOME.
		dir, ok = platform.Join(goos, home, ".local", "share"), true
	}
	if !ok {
		return "", errors.New("cannot tell where the prototype kept links.sqlite: HOME is not set (name the file)")
	}
	return platform.Join(goos, dir, "CursorChatHistory", "links.sqlite"), nil
}

type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// seedTablesPresent lists which of the seed's tables the database has.
func seedTablesPresent(ctx context.Context, q querier) (map[string]bool, error) {
	rows, err := q.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('conversations', 'commits', 'links')`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		out[n] = true
	}
	return out, rows.Err()
}

type protoConversation struct {
	id                                                    string
	workspaceRoot, projectName, title, summary, aiSummary sql.NullString
	relevantFiles, attachedFolders, capturedFiles         sql.NullString
	searchableText, createdAt, updatedAt, lastHookEvent   sql.NullString
}

type protoCommit struct {
	hash                                                    string
	repoPath, branch, author, message, committedAt, created sql.NullString
	changedFiles                                            sql.NullString
}

type protoLink struct {
	id                       int64
	conv, commit             string
	matchedFiles, status, at sql.NullString
	confidence               sql.NullFloat64
}

type prototype struct {
	convs   []protoConversation
	commits []protoCommit
	links   []protoLink
}

// readPrototype reads every row of the seed's tables (a missing table has
// none). Columns are named, so tables with extra columns read the same.
func readPrototype(ctx context.Context, q querier) (*prototype, error) {
	present, err := seedTablesPresent(ctx, q)
	if err != nil {
		return nil, err
	}
	p := &prototype{}
	each := func(table, cols string, scan func(*sql.Rows) error) error {
		if !present[table] {
			return nil
		}
		rows, err := q.QueryContext(ctx, `SELECT `+cols+` FROM `+table+` ORDER BY rowid`)
		if err != nil {
			return fmt.Errorf("reading the prototype's %s: %w", table, err)
		}
		defer rows.Close()
		for rows.Next() {
			if err := scan(rows); err != nil {
				return fmt.Errorf("reading the prototype's %s: %w", table, err)
			}
		}
		return rows.Err()
	}
	// Ids are read with COALESCE: SQLite lets a TEXT key be NULL, and one
	// odd row must not make the whole database unreadable.
	err = each("conversations", `COALESCE(conversationId, ''), workspaceRoot, projectName, title, summary, aiSummary, relevantFiles,
    attachedFolders, capturedFiles, searchableText, createdAt, updatedAt, lastHookEvent`, func(r *sql.Rows) error {
		var c protoConversation
		err := r.Scan(&c.id, &c.workspaceRoot, &c.projectName, &c.title, &c.summary, &c.aiSummary, &c.relevantFiles,
			&c.attachedFolders, &c.capturedFiles, &c.searchableText, &c.createdAt, &c.updatedAt, &c.lastHookEvent)
		p.convs = append(p.convs, c)
		return err
	})
	if err != nil {
		return nil, err
	}
	err = each("commits", `COALESCE(commitHash, ''), repoPath, branch, author, message, committedAt, changedFiles, createdAt`, func(r *sql.Rows) error {
		var c protoCommit
		err := r.Scan(&c.hash, &c.repoPath, &c.branch, &c.author, &c.message, &c.committedAt, &c.changedFiles, &c.created)
		p.commits = append(p.commits, c)
		return err
	})
	if err != nil {
		return nil, err
	}
	err = each("links", `id, COALESCE(conversationId, ''), COALESCE(commitHash, ''), matchedFiles, confidence, status, createdAt`, func(r *sql.Rows) error {
		var l protoLink
		err := r.Scan(&l.id, &l.conv, &l.commit, &l.matchedFiles, &l.confidence, &l.status, &l.at)
		p.links = append(p.links, l)
		return err
	})
	return p, err
}

// isoMillis parses the prototype's ISO timestamps (JavaScript's
// toISOString, git's strict ISO); 0 when absent or unreadable.
func isoMillis(s sql.NullString) int64 {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05 -0700", "2006-01-02 15:04:05"} {
		if t, err := time.Parse(layout, strings.TrimSpace(s.String)); err == nil {
			return t.UnixMilli()
		}
	}
	return 0
}

func jsonStrings(s sql.NullString) []string {
	var out []string
	_ = json.Unmarshal([]byte(s.String), &out)
	return out
}

func orEmptyList(s sql.NullString) string {
	if strings.TrimSpace(s.String) == "" {
		return "[]"
	}
	return s.String
}

// touches turns a prototype's file list (relative to the workspace root, or
// absolute) into indexed file rows: in a repository when the resolver finds
// one, else kept under repoKey "" (never matched).
func (r Resolver) touches(root string, files []string, source string, at int64) []FileTouch {
	var out []FileTouch
	for _, f := range files {
		f = strings.ReplaceAll(strings.TrimSpace(f), "\\", "/")
		if f == "" {
			continue
		}
		abs := filepath.FromSlash(f)
		if !filepath.IsAbs(abs) && root != "" {
			abs = filepath.Join(root, abs)
		}
		if filepath.IsAbs(abs) {
			if key, rel, ok := r.Locate(abs); ok {
				out = append(out, FileTouch{RepoKey: key, Path: rel, PathKey: r.PathKey(rel), Source: source, AtMs: at})
				continue
			}
		}
		out = append(out, FileTouch{Path: f, PathKey: f, Source: source, AtMs: at})
	}
	return out
}

// writePrototype copies a prototype's rows into git-convo's tables: rows
// already there are kept (conversations gain what they lacked, an auto link
// gives way to the prototype's manual one), new ones are added with their
// side tables. keepIDs keeps the links' ids (adoption in place).
func writePrototype(ctx context.Context, tx *sql.Tx, p *prototype, r Resolver, keepIDs bool, now string) (PrototypeCounts, error) {
	n := PrototypeCounts{Conversations: len(p.convs), Commits: len(p.commits), Links: len(p.links)}
	for _, c := range p.convs {
		created, updated := isoMillis(c.createdAt), isoMillis(c.updatedAt)
		if updated == 0 {
			updated = created
		}
		var hookMs int64
		if c.lastHookEvent.Valid {
			hookMs = updated
		}
		var existed int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM conversations WHERE conversationId = ?`, c.id).Scan(&existed); err != nil {
			return n, err
		}
		_, err := tx.ExecContext(ctx, `
INSERT INTO conversations (conversationId, workspaceRoot, projectName, title, summary, aiSummary, relevantFiles,
    attachedFolders, capturedFiles, searchableText, createdAt, updatedAt, lastHookEvent, firstSeenMs, lastHookMs, activityMs)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (conversationId) DO UPDATE SET
    workspaceRoot = COALESCE(workspaceRoot, excluded.workspaceRoot), projectName = COALESCE(projectName, excluded.projectName),
    title = COALESCE(title, excluded.title), summary = COALESCE(summary, excluded.summary),
    aiSummary = COALESCE(aiSummary, excluded.aiSummary), searchableText = COALESCE(searchableText, excluded.searchableText),
    firstSeenMs = CASE WHEN firstSeenMs = 0 OR (excluded.firstSeenMs > 0 AND excluded.firstSeenMs < firstSeenMs)
        THEN excluded.firstSeenMs ELSE firstSeenMs END,
    activityMs = MAX(activityMs, excluded.activityMs)`,
			c.id, c.workspaceRoot, c.projectName, c.title, c.summary, c.aiSummary, orEmptyList(c.relevantFiles),
			orEmptyList(c.attachedFolders), orEmptyList(c.capturedFiles), c.searchableText, c.createdAt, c.updatedAt,
			c.lastHookEvent, created, hookMs, updated)
		if err != nil {
			return n, fmt.Errorf("conversation %s: %w", c.id, err)
		}
		if existed == 0 {
			n.NewConversations++
		}
		root := c.workspaceRoot.String
		if root != "" {
			if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO conversation_roots (conversationId, root) VALUES (?, ?)`, c.id, root); err != nil {
				return n, err
			}
		}
		files := append(r.touches(root, jsonStrings(c.capturedFiles), SourceHook, updated),
			r.touches(root, jsonStrings(c.relevantFiles), SourceContext, updated)...)
		if err := upsertFiles(ctx, tx, c.id, files, updated); err != nil {
			return n, err
		}
		// Adopted rows keep the prototype's JSON as it was; merged ones are
		// brought in step with the side tables.
		if existed > 0 {
			if err := refreshCapturedFiles(ctx, tx, c.id); err != nil {
				return n, err
			}
		}
	}
	for _, c := range p.commits {
		res, err := tx.ExecContext(ctx, `
INSERT INTO commits (commitHash, repoPath, branch, author, message, committedAt, changedFiles, createdAt, repoKey, committedMs)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (commitHash) DO NOTHING`,
			c.hash, c.repoPath, c.branch, c.author, c.message, c.committedAt, orEmptyList(c.changedFiles),
			c.created, r.RepoKey(c.repoPath.String), isoMillis(c.committedAt))
		if err != nil {
			return n, fmt.Errorf("commit %s: %w", c.hash, err)
		}
		if added, _ := res.RowsAffected(); added == 0 {
			continue // ours, recorded from git, stands
		}
		n.NewCommits++
		for _, f := range jsonStrings(c.changedFiles) {
			f = strings.ReplaceAll(f, "\\", "/")
			if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO commit_files (commitHash, path, pathKey) VALUES (?, ?, ?)`,
				c.hash, f, r.PathKey(f)); err != nil {
				return n, err
			}
		}
	}
	for _, l := range p.links {
		status := l.status.String
		if status != "manual" {
			status = "auto"
		}
		var id any
		if keepIDs {
			id = l.id
		}
		at := l.at.String
		if at == "" {
			at = now
		}
		// A pair unlinked here stays so: the unlink came after the prototype.
		res, err := tx.ExecContext(ctx, `
INSERT INTO links (id, conversationId, commitHash, matchedFiles, confidence, status, createdAt, reason, source, updatedAt)
SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, 'linked by the prototype (cursor-chat-history-mcp)', 'import', ?8
WHERE NOT EXISTS (SELECT 1 FROM unlinks WHERE conversationId = ?2 AND commitHash = ?3)
ON CONFLICT (conversationId, commitHash) DO UPDATE SET
    confidence = excluded.confidence, status = 'manual', matchedFiles = excluded.matchedFiles,
    reason = excluded.reason, source = 'import', updatedAt = excluded.updatedAt
WHERE links.status = 'auto' AND excluded.status = 'manual'`,
			id, l.conv, l.commit, orEmptyList(l.matchedFiles), clamp01(l.confidence.Float64), status, at, now)
		if err != nil {
			return n, fmt.Errorf("link %s-%s: %w", l.conv, l.commit, err)
		}
		if added, _ := res.RowsAffected(); added > 0 {
			n.NewLinks++
		}
	}
	return n, nil
}

// isPrototype reports a database the prototype wrote: user_version 0 with
// any of the seed's tables. One statement reads both, so a new database that
// another process is creating (tables and user_version committed together)
// is never taken for one.
func isPrototype(ctx context.Context, q querier) (bool, error) {
	rows, err := q.QueryContext(ctx, `SELECT (SELECT user_version FROM pragma_user_version),
    (SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name IN ('conversations', 'commits', 'links'))`)
	if err != nil {
		return false, err
	}
	defer rows.Close()
	var version, tables int
	if rows.Next() {
		if err := rows.Scan(&version, &tables); err != nil {
			return false, err
		}
	}
	return version == 0 && tables > 0, rows.Err()
}

// backupBeside writes a consistent copy of the database next to it,
// <name>.prototype-backup (then .1, .2, ...), mode 0600, before anything is
// changed. It returns the backup's path.
func (s *Store) backupBeside(ctx context.Context) (string, error) {
	base := s.path + ".prototype-backup"
	for i := 0; ; i++ {
		dst := base
		if i > 0 {
			dst = fmt.Sprintf("%s.%d", base, i)
		}
		if _, err := os.Stat(dst); err == nil {
			continue
		} else if !errors.Is(err, os.ErrNotExist) {
			return "", err
		}
		tmp := dst + ".tmp"
		os.Remove(tmp)
		if _, err := s.db.ExecContext(ctx, `VACUUM INTO ?`, tmp); err != nil {
			os.Remove(tmp)
			return "", classify(s.path, err)
		}
		if err := os.Chmod(tmp, 0o600); err != nil && runtime.GOOS != "windows" {
			os.Remove(tmp)
			return "", err
		}
		return dst, os.Rename(tmp, dst)
	}
}

// adopt turns the prototype's database into git-convo's, in place: a backup
// first, then in one transaction the rows are read, the prototype's tables
// dropped, the schema created and every row written back with its side
// tables. Another process that adopted it meanwhile wins: nothing is done
// twice.
func (s *Store) adopt(ctx context.Context, r *Resolver, ms []migration) error {
	if r == nil {
		return fmt.Errorf("%w: %s: run `git convo doctor` once to adopt it in place (a backup is kept beside it)", ErrPrototypeNeedsResolver, s.path)
	}
	backup, err := s.backupBeside(ctx)
	if err != nil {
		return fmt.Errorf("backing up the prototype's database %s before adopting it: %w", s.path, err)
	}
	return s.write(ctx, func(tx *sql.Tx) error {
		if ok, err := isPrototype(ctx, tx); err != nil || !ok {
			return err
		}
		p, err := readPrototype(ctx, tx)
		if err != nil {
			return err
		}
		for _, t := range []string{"links", "commits", "conversations"} {
			if _, err := tx.ExecContext(ctx, `DROP TABLE IF EXISTS `+t); err != nil {
				return err
			}
		}
		for _, m := range ms {
			if _, err := tx.ExecContext(ctx, m.sql); err != nil {
				return fmt.Errorf("migration %s: %w", m.name, err)
			}
		}
		now := isoTime(s.now())
		if _, err := writePrototype(ctx, tx, p, *r, true, now); err != nil {
			return err
		}
		if err := setMeta(ctx, tx, "prototypeAdopted", now+" "+backup); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", len(ms)))
		return err
	})
}

// ImportPrototype copies the conversations, commits and links of the
// prototype's database at path (opened read-only, never changed) into this
// store. Running it again adds nothing.
func (s *Store) ImportPrototype(ctx context.Context, path string, r Resolver) (PrototypeCounts, error) {
	if _, err := os.Stat(path); err != nil {
		return PrototypeCounts{}, err
	}
	src, err := sql.Open("sqlite3", sqliteuri.ReadOnly(path, 2*time.Second))
	if err != nil {
		return PrototypeCounts{}, err
	}
	defer src.Close()
	present, err := seedTablesPresent(ctx, src)
	if err != nil {
		return PrototypeCounts{}, classify(path, err)
	}
	if len(present) == 0 {
		return PrototypeCounts{}, fmt.Errorf("%s has none of the prototype's tables (conversations, commits, links)", path)
	}
	p, err := readPrototype(ctx, src)
	if err != nil {
		return PrototypeCounts{}, err
	}
	var n PrototypeCounts
	now := isoTime(s.now())
	err = s.write(ctx, func(tx *sql.Tx) error {
		var err error
		n, err = writePrototype(ctx, tx, p, r, false, now)
		if err != nil {
			return err
		}
		return setMeta(ctx, tx, PrototypeImportedKey(path), now)
	})
	return n, err
}

// PrototypeImportedKey is the meta key that holds when the prototype's
// database at path was last imported.
func PrototypeImportedKey(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	return "prototypeImported:" + filepath.ToSlash(path)
}
