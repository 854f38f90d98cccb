package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/git-convo/git-convo/pkg/util/textmatch"
)

// Conversation is a stored conversation, as read commands show it.
type Conversation struct {
	ID             string
	Title          string
	Summary        string // Cursor's latestConversationSummary
	FirstPrompt    string
	LastResponse   string
	WorkspaceRoot  string
	ProjectName    string
	Model          string
	Status         string
	Mode           string
	Agent          string
	TranscriptPath string
	LastHookEvent  string
	FirstSeenMs    int64
	ActivityMs     int64
	EnrichedMs     int64
	EnrichError    string
	CapturedFiles  []string
	RelevantFiles  []string
}

// conversationColumns is selected from conversations aliased c, in convScan's order.
const conversationColumns = `COALESCE(c.title, ''), COALESCE(c.aiSummary, ''), COALESCE(c.firstPrompt, ''),
    COALESCE(c.lastResponse, ''), COALESCE(c.workspaceRoot, ''), COALESCE(c.projectName, ''), COALESCE(c.model, ''),
    COALESCE(c.status, ''), COALESCE(c.mode, ''), COALESCE(c.agent, ''), COALESCE(c.transcriptPath, ''),
    COALESCE(c.lastHookEvent, ''), COALESCE(c.firstSeenMs, 0), COALESCE(c.activityMs, 0), COALESCE(c.enrichedMs, 0),
    COALESCE(c.enrichError, ''), COALESCE(c.capturedFiles, '[]'), COALESCE(c.relevantFiles, '[]')`

type convScan struct {
	c               Conversation
	captured, relev string
}

func newConvScan() *convScan { return &convScan{} }

func (s *convScan) dest() []any {
	c := &s.c
	return []any{&c.Title, &c.Summary, &c.FirstPrompt, &c.LastResponse, &c.WorkspaceRoot, &c.ProjectName, &c.Model,
		&c.Status, &c.Mode, &c.Agent, &c.TranscriptPath, &c.LastHookEvent, &c.FirstSeenMs, &c.ActivityMs,
		&c.EnrichedMs, &c.EnrichError, &s.captured, &s.relev}
}

func (s *convScan) result() Conversation {
	_ = json.Unmarshal([]byte(s.captured), &s.c.CapturedFiles)
	_ = json.Unmarshal([]byte(s.relev), &s.c.RelevantFiles)
	return s.c
}

// GetConversation returns a conversation, or (nil, nil) when it is unknown.
func (s *Store) GetConversation(ctx context.Context, id string) (*Conversation, error) {
	cs := newConvScan()
	err := s.db.QueryRowContext(ctx, `SELECT `+conversationColumns+` FROM conversations c WHERE c.conversationId = ?`, id).Scan(cs.dest()...)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, classify(s.path, err)
	}
	c := cs.result()
	c.ID = id
	return &c, nil
}

// ResolveConversationID expands a unique prefix of a conversation id (like a
// short commit hash). It returns "" when nothing matches.
func (s *Store) ResolveConversationID(ctx context.Context, prefix string) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `
SELECT conversationId FROM conversations WHERE conversationId >= ? AND conversationId < ? || x'ff'
UNION SELECT DISTINCT conversationId FROM links WHERE conversationId >= ? AND conversationId < ? || x'ff'
LIMIT 10`, prefix, prefix, prefix, prefix)
	if err != nil {
		return nil, classify(s.path, err)
	}
	return scanStrings(rows)
}

// ResolveConversation expands arg, a conversation id or a unique prefix of a
// known one. With allowUnknown, an id git-convo has not seen is accepted when
// it looks like one (ValidConversationID): linking works when only one side
// is known yet. The CLI's link and the MCP server's link tool both use it, so
// they accept exactly the same ids.
func (s *Store) ResolveConversation(ctx context.Context, arg string, allowUnknown bool) (string, error) {
	ids, err := s.ResolveConversationID(ctx, arg)
	if err != nil {
		return "", err
	}
	for _, id := range ids {
		if id == arg {
			return id, nil
		}
	}
	switch {
	case arg != "" && len(ids) == 1:
		return ids[0], nil
	case len(ids) > 1:
		return "", fmt.Errorf("conversation id %q is ambiguous: %s", arg, strings.Join(ids, ", "))
	case allowUnknown && ValidConversationID(arg) == nil:
		return arg, nil
	case allowUnknown:
		return "", fmt.Errorf("no conversation %q, and it is not a conversation id: %v", arg, ValidConversationID(arg))
	default:
		return "", fmt.Errorf("%w %q (see `git convo conversations`)", ErrNoConversation, arg)
	}
}

// ErrNoConversation is ResolveConversation's answer for an argument that
// names no conversation of the store (neither a conversation nor a link).
var ErrNoConversation = errors.New("no conversation")

// ValidConversationID accepts what agents use as conversation ids (UUIDs and
// the like): 8 to 128 letters, digits and . _ : - only, so an id never
// carries control characters or spaces into the database and the terminal.
func ValidConversationID(id string) error {
	if len(id) < 8 || len(id) > 128 {
		return fmt.Errorf("a conversation id has 8 to 128 characters")
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._:-", r)) {
			return fmt.Errorf("a conversation id holds letters, digits and . _ : - only")
		}
	}
	return nil
}

// Prompt is one user prompt of a conversation.
type Prompt struct {
	GenerationID string
	Text         string
	AtMs         int64
}

// Prompts returns a conversation's prompts in order.
func (s *Store) Prompts(ctx context.Context, convID string) ([]Prompt, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT generationId, text, atMs FROM prompts WHERE conversationId = ? ORDER BY atMs, id`, convID)
	if err != nil {
		return nil, classify(s.path, err)
	}
	defer rows.Close()
	var out []Prompt
	for rows.Next() {
		var p Prompt
		if err := rows.Scan(&p.GenerationID, &p.Text, &p.AtMs); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// ConversationFile is a file a conversation touched, across sources.
type ConversationFile struct {
	RepoKey string
	Path    string
	Sources []string
	FirstMs int64
	LastMs  int64
}

// ConversationFiles returns the files a conversation touched.
func (s *Store) ConversationFiles(ctx context.Context, convID string) ([]ConversationFile, error) {
	rows, err := s.db.QueryContext(ctx, `
SELECT repoKey, path, group_concat(source, ','), MIN(firstMs), MAX(lastMs)
FROM conversation_files WHERE conversationId = ? GROUP BY repoKey, pathKey ORDER BY path`, convID)
	if err != nil {
		return nil, classify(s.path, err)
	}
	defer rows.Close()
	var out []ConversationFile
	for rows.Next() {
		var f ConversationFile
		var src string
		if err := rows.Scan(&f.RepoKey, &f.Path, &src, &f.FirstMs, &f.LastMs); err != nil {
			return nil, err
		}
		f.Sources = strings.Split(src, ",")
		sort.Strings(f.Sources)
		out = append(out, f)
	}
	return out, rows.Err()
}

// LinkedCommit is a commit as seen from one of its conversations.
type LinkedCommit struct {
	Link
	Subject     string
	Author      string
	CommittedMs int64
	RepoPath    string
	Recorded    bool
}

// liveLinkCount counts a conversation's (c) linked commits that were not
// rewritten: after an amend or a rebase (post-rewrite) the old commit keeps
// its row and links, carried to the new one, and must not count twice.
const liveLinkCount = `SELECT COUNT(*) FROM links l LEFT JOIN commits k ON k.commitHash = l.commitHash
    WHERE l.conversationId = c.conversationId AND k.rewrittenTo IS NULL`

// CommitsForConversation returns the commits linked to a conversation, newest
// first, leaving out those rewritten (amended, rebased) into others.
func (s *Store) CommitsForConversation(ctx context.Context, convID string) ([]LinkedCommit, error) {
	rows, err := s.db.QueryContext(ctx, `
SELECT l.conversationId, l.commitHash, l.matchedFiles, l.confidence, l.status, l.reason, l.source, l.createdAt,
    COALESCE(c.message, ''), COALESCE(c.author, ''), COALESCE(c.committedMs, 0), COALESCE(c.repoPath, ''), c.commitHash IS NOT NULL,
    l.writtenLines, l.addedLines, l.positionLines
FROM links l LEFT JOIN commits c ON c.commitHash = l.commitHash
WHERE l.conversationId = ? AND c.rewrittenTo IS NULL ORDER BY COALESCE(c.committedMs, 0) DESC`, convID)
	if err != nil {
		return nil, classify(s.path, err)
	}
	defer rows.Close()
	var out []LinkedCommit
	for rows.Next() {
		var lc LinkedCommit
		var matched string
		if err := rows.Scan(&lc.ConversationID, &lc.CommitHash, &matched, &lc.Confidence, &lc.Status, &lc.Reason, &lc.Source,
			&lc.CreatedAt, &lc.Subject, &lc.Author, &lc.CommittedMs, &lc.RepoPath, &lc.Recorded,
			&lc.WrittenLines, &lc.AddedLines, &lc.PositionLines); err != nil {
			return nil, err
		}
		_ = json.Unmarshal([]byte(matched), &lc.MatchedFiles)
		out = append(out, lc)
	}
	return out, rows.Err()
}

// ConversationFilter narrows ListConversations.
type ConversationFilter struct {
	RepoKey  string // only conversations that touched this repository
	Root     string // ... or whose workspace root is this path
	SinceMs  int64
	FileKey  string // only conversations that touched this path (with RepoKey)
	Limit    int
	Query    string // search words (Search only)
	Excerpts int
}

// ConversationSummary is a row of `git convo conversations`.
type ConversationSummary struct {
	Conversation
	Commits int
}

// ListConversations lists conversations, most recently active first, with their
// linked-commit counts.
func (s *Store) ListConversations(ctx context.Context, f ConversationFilter) ([]ConversationSummary, error) {
	var where []string
	var args []any
	if f.RepoKey != "" || f.Root != "" {
		var ors []string
		if f.RepoKey != "" {
			if f.FileKey != "" {
				ors = append(ors, `c.conversationId IN (SELECT conversationId FROM conversation_files WHERE repoKey = ? AND pathKey = ?)`)
				args = append(args, f.RepoKey, f.FileKey)
			} else {
				ors = append(ors, `c.conversationId IN (SELECT conversationId FROM conversation_files WHERE repoKey = ?)`)
				args = append(args, f.RepoKey)
			}
		}
		if f.Root != "" && f.FileKey == "" {
			ors = append(ors, `c.conversationId IN (SELECT conversationId FROM conversation_roots WHERE root = ?)`)
			args = append(args, f.Root)
		}
		where = append(where, "("+strings.Join(ors, " OR ")+")")
	}
	if f.SinceMs > 0 {
		where = append(where, `c.activityMs >= ?`)
		args = append(args, f.SinceMs)
	}
	q := `SELECT c.conversationId, ` + conversationColumns + `,
    (` + liveLinkCount + `)
FROM conversations c`
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY c.activityMs DESC"
	if f.Limit > 0 {
		q += " LIMIT ?"
		args = append(args, f.Limit)
	}
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, classify(s.path, err)
	}
	defer rows.Close()
	var out []ConversationSummary
	for rows.Next() {
		var cs ConversationSummary
		sc := newConvScan()
		var id string
		if err := rows.Scan(append(append([]any{&id}, sc.dest()...), &cs.Commits)...); err != nil {
			return nil, err
		}
		cs.Conversation = sc.result()
		cs.ID = id
		out = append(out, cs)
	}
	return out, rows.Err()
}

// ConversationInRepo reports whether a conversation belongs to the
// repository with key repoKey and top level root: it touched a file there,
// worked there, or is linked to one of its commits; known says whether the
// store has the conversation at all.
func (s *Store) ConversationInRepo(ctx context.Context, id, repoKey, root string) (in, known bool, err error) {
	err = s.db.QueryRowContext(ctx, `SELECT
    EXISTS (SELECT 1 FROM conversations WHERE conversationId = ?1),
    EXISTS (SELECT 1 FROM conversation_files WHERE conversationId = ?1 AND repoKey = ?2)
    OR EXISTS (SELECT 1 FROM links l JOIN commits c ON c.commitHash = l.commitHash WHERE l.conversationId = ?1 AND c.repoKey = ?2)
    OR EXISTS (SELECT 1 FROM conversation_roots WHERE conversationId = ?1 AND root = ?3)
    OR EXISTS (SELECT 1 FROM conversations WHERE conversationId = ?1 AND workspaceRoot = ?3)`, id, repoKey, root).Scan(&known, &in)
	return in, known, classify(s.path, err)
}

// SearchDoc is a conversation's searchable text, for ranking by the caller.
type SearchDoc struct {
	Conversation
	Text    string
	Commits int
}

// searchTextColumn is a conversation's searchable text (title, summary, first
// message, prompts) followed by the agent's final answers the hooks recorded,
// which privacy.md promises are kept for search.
const searchTextColumn = `(COALESCE(c.searchableText, '') || COALESCE(char(10) ||
    (SELECT group_concat(r.text, char(10)) FROM responses r WHERE r.conversationId = c.conversationId), ''))`

// SearchCandidates returns the conversations whose title, summary, first
// message, prompts or recorded final answers contain every word
// (case-insensitively, as textmatch.Fold folds), for ranking.
func (s *Store) SearchCandidates(ctx context.Context, words []string, f ConversationFilter) ([]SearchDoc, error) {
	var where []string
	var args []any
	const searched = `(` + searchTextColumn + ` || ' ' || COALESCE(c.title, '') || ' ' || COALESCE(c.aiSummary, '') || ' ' || COALESCE(c.firstPrompt, ''))`
	for _, w := range words {
		if textmatch.IsASCII(w) { // LIKE folds ASCII in C, much faster than a Go function per row
			where = append(where, searched+` LIKE ? ESCAPE '\'`)
			args = append(args, "%"+likeEscape(w)+"%")
			continue
		}
		where = append(where, `instr(convo_fold(`+searched+`), ?) > 0`)
		args = append(args, textmatch.Fold(w))
	}
	if f.SinceMs > 0 {
		where = append(where, `c.activityMs >= ?`)
		args = append(args, f.SinceMs)
	}
	if f.RepoKey != "" {
		where = append(where, `(c.conversationId IN (SELECT conversationId FROM conversation_files WHERE repoKey = ?) OR c.conversationId IN (SELECT conversationId FROM conversation_roots WHERE root = ?))`)
		args = append(args, f.RepoKey, f.Root)
	}
	q := `SELECT c.conversationId, ` + conversationColumns + `,
    ` + searchTextColumn + `, (` + liveLinkCount + `)
FROM conversations c`
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY c.activityMs DESC LIMIT 1000"
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, classify(s.path, err)
	}
	defer rows.Close()
	var out []SearchDoc
	for rows.Next() {
		var d SearchDoc
		sc := newConvScan()
		var id string
		if err := rows.Scan(append(append([]any{&id}, sc.dest()...), &d.Text, &d.Commits)...); err != nil {
			return nil, err
		}
		d.Conversation = sc.result()
		d.ID = id
		out = append(out, d)
	}
	return out, rows.Err()
}

func likeEscape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return r.Replace(s)
}

// Counts summarises the store for `doctor`.
type Counts struct {
	Conversations, Commits, Links, ManualLinks int
}

// Counts returns row counts.
func (s *Store) Counts(ctx context.Context) (Counts, error) {
	var c Counts
	err := s.db.QueryRowContext(ctx, `SELECT
    (SELECT COUNT(*) FROM conversations), (SELECT COUNT(*) FROM commits),
    (SELECT COUNT(*) FROM links), (SELECT COUNT(*) FROM links WHERE status = 'manual')`).
		Scan(&c.Conversations, &c.Commits, &c.Links, &c.ManualLinks)
	return c, classify(s.path, err)
}

// StaleEnrichment returns the conversations of the named agents (those that
// may write a conversation after its hook fired: source.LateWriter) touched
// by hooks since they were last enriched from their agent (or whose
// enrichment failed), most recent first. No agents: none.
func (s *Store) StaleEnrichment(ctx context.Context, agents []string, sinceMs int64, limit int) ([]string, error) {
	if len(agents) == 0 {
		return nil, nil
	}
	args := []any{sinceMs}
	for _, a := range agents {
		args = append(args, a)
	}
	args = append(args, limit)
	rows, err := s.db.QueryContext(ctx, `
SELECT conversationId FROM conversations
WHERE activityMs >= ? AND agent IN (?`+strings.Repeat(", ?", len(agents)-1)+`) AND (enrichedMs < lastHookMs OR enrichError IS NOT NULL)
ORDER BY activityMs DESC LIMIT ?`, args...)
	if err != nil {
		return nil, classify(s.path, err)
	}
	return scanStrings(rows)
}

// FileConversation is a conversation that touched a file, directly (the same
// path) or indirectly (another file in the same directory).
type FileConversation struct {
	Conversation
	Path    string
	Direct  bool
	Sources []string
}

// ConversationsForFile returns the conversations that touched pathKey in
// repoKey, and those that touched other files of its directory (indirect),
// most recently active first.
func (s *Store) ConversationsForFile(ctx context.Context, repoKey, pathKey string, limit int) ([]FileConversation, error) {
	dir := ""
	if i := strings.LastIndex(pathKey, "/"); i >= 0 {
		dir = pathKey[:i+1]
	}
	rows, err := s.db.QueryContext(ctx, `
SELECT f.conversationId, MIN(f.path), MAX(f.pathKey = ?3), group_concat(DISTINCT f.source), `+conversationColumns+`
FROM conversation_files f JOIN conversations c ON c.conversationId = f.conversationId
WHERE f.repoKey = ?1 AND (f.pathKey = ?3 OR (?2 != '' AND f.pathKey >= ?2 AND f.pathKey < ?2 || x'ff' AND instr(substr(f.pathKey, length(?2) + 1), '/') = 0))
GROUP BY f.conversationId
ORDER BY MAX(f.pathKey = ?3) DESC, c.activityMs DESC
LIMIT ?4`, repoKey, dir, pathKey, limit)
	if err != nil {
		return nil, classify(s.path, err)
	}
	defer rows.Close()
	var out []FileConversation
	for rows.Next() {
		var fc FileConversation
		var id, sources string
		sc := newConvScan()
		if err := rows.Scan(append([]any{&id, &fc.Path, &fc.Direct, &sources}, sc.dest()...)...); err != nil {
			return nil, err
		}
		fc.Conversation = sc.result()
		fc.ID = id
		fc.Sources = strings.Split(sources, ",")
		out = append(out, fc)
	}
	return out, rows.Err()
}

// CommitsForFile returns the recorded commits of repoKey that changed pathKey,
// newest first.
func (s *Store) CommitsForFile(ctx context.Context, repoKey, pathKey string, limit int) ([]Commit, error) {
	rows, err := s.db.QueryContext(ctx, `
SELECT c.commitHash FROM commit_files f JOIN commits c ON c.commitHash = f.commitHash
WHERE f.pathKey = ? AND c.repoKey = ? ORDER BY c.committedMs DESC LIMIT ?`, pathKey, repoKey, limit)
	if err != nil {
		return nil, classify(s.path, err)
	}
	var hashes []string
	for rows.Next() {
		var h string
		if err := rows.Scan(&h); err != nil {
			rows.Close()
			return nil, err
		}
		hashes = append(hashes, h)
	}
	rows.Close()
	var out []Commit
	for _, h := range hashes {
		c, err := s.GetCommit(ctx, h)
		if err != nil {
			return nil, err
		}
		if c != nil {
			out = append(out, *c)
		}
	}
	return out, nil
}

// SearchText returns a conversation's searchable text (title, summary, first
// message, prompts and recorded final answers), or "".
func (s *Store) SearchText(ctx context.Context, id string) (string, error) {
	var t sql.NullString
	err := s.db.QueryRowContext(ctx, `SELECT `+searchTextColumn+` FROM conversations c WHERE c.conversationId = ?`, id).Scan(&t)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return t.String, classify(s.path, err)
}

// scanStrings reads a one-column result of strings and closes rows.
func scanStrings(rows *sql.Rows) ([]string, error) {
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// ConversationAgents is the agent of each of ids that is a conversation
// here (ids unknown are absent), in one query: other tools' sessions
// named in a batch of commits are looked up at once.
func (s *Store) ConversationAgents(ctx context.Context, ids []string) (map[string]string, error) {
	out := map[string]string{}
	if len(ids) == 0 {
		return out, nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	rows, err := s.db.QueryContext(ctx, `SELECT conversationId, COALESCE(agent, '') FROM conversations WHERE conversationId IN (`+
		strings.Repeat("?,", len(ids)-1)+`?)`, args...)
	if err != nil {
		return nil, classify(s.path, err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, agent string
		if err := rows.Scan(&id, &agent); err != nil {
			return nil, classify(s.path, err)
		}
		out[id] = agent
	}
	return out, classify(s.path, rows.Err())
}
