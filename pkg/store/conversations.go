package store

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/git-convo/git-convo/pkg/util/mstime"
)

// File sources, from strongest evidence of editing to weakest.
const (
	SourceHook       = "hook"           // afterFileEdit
	SourceTool       = "tool"           // postToolUse of an edit tool
	SourceCursorEdit = "cursor-edit"    // codeBlockData / originalFileStates / newlyCreatedFiles
	SourceContext    = "cursor-context" // fileSelections, relevantFiles
	SourceAttachment = "attachment"     // beforeSubmitPrompt attachments
)

// agentValue is an insert's agent, Cursor when the caller names none;
// agentUpdate keeps a conversation's agent unless another agent claims it
// (the column predates the second agent: every old row says cursor).
const (
	agentValue  = `COALESCE(NULLIF(?, ''), 'cursor')`
	agentUpdate = `CASE WHEN excluded.agent = 'cursor' THEN agent ELSE excluded.agent END`
)

// editSourcesSQL lists the sources that mean "this conversation edited the
// file"; only they count for file overlap.
const editSourcesSQL = `('hook', 'tool', 'cursor-edit')`

// FileTouch is one file a conversation edited or looked at.
type FileTouch struct {
	RepoKey string // git common dir; "" when the file is in no repository
	Path    string // relative to the repo's top level; absolute when RepoKey is ""
	PathKey string // Path as compared; defaults to Path
	Source  string
	AtMs    int64 // when; 0 means "the activity's time"
}

// Activity is what one Cursor hook event tells about a conversation.
type Activity struct {
	ConversationID string
	Agent          string // "cursor" when empty
	GenerationID   string
	Event          string
	AtMs           int64
	WorkspaceRoots []string
	Model          string
	TranscriptPath string
	Status         string
	Files          []FileTouch
	Prompt         string
	Response       string
	Lines          []EditLine // lines the edits introduced (line-level attribution)
	Spans          []EditSpan // the edits as located in their files (evidence by position)
}

// RecordActivity stores one hook event in a single short transaction: the
// conversation's times and metadata, its workspace roots, files, prompt and
// response. It merges with what is there; it never removes anything.
func (s *Store) RecordActivity(ctx context.Context, a Activity) error {
	return s.RecordActivities(ctx, []Activity{a})
}

// RecordActivities stores events, in order, in one transaction, as
// RecordActivity each would: a turn's spooled edits replayed at its end
// pay one commit, and one refresh of each conversation's files, not one
// for every event. An activity with no conversation id is an error, and
// nothing is stored.
func (s *Store) RecordActivities(ctx context.Context, as []Activity) error {
	for _, a := range as {
		if a.ConversationID == "" {
			return errors.New("activity has no conversation id")
		}
	}
	if len(as) == 0 {
		return nil
	}
	now := s.now().UnixMilli()
	return s.write(ctx, func(tx *sql.Tx) error {
		var refresh []string // conversations whose files changed, in order
		refreshing := map[string]bool{}
		at := ""
		for _, a := range as {
			if a.AtMs == 0 {
				a.AtMs = now
			}
			if err := recordActivity(ctx, tx, a); err != nil {
				return err
			}
			if len(a.Files) > 0 && !refreshing[a.ConversationID] {
				refreshing[a.ConversationID] = true
				refresh = append(refresh, a.ConversationID)
			}
			at = mstime.ISO(a.AtMs)
		}
		for _, id := range refresh {
			if err := refreshCapturedFiles(ctx, tx, id); err != nil {
				return err
			}
		}
		return setMeta(ctx, tx, "lastCapture", at)
	})
}

// recordActivity is RecordActivity's work in tx but for the derived
// columns and the meta row, which RecordActivities brings up to date once.
func recordActivity(ctx context.Context, tx *sql.Tx, a Activity) error {
	root, project := "", ""
	if len(a.WorkspaceRoots) > 0 {
		root = a.WorkspaceRoots[0]
		project = filepath.Base(filepath.FromSlash(root))
	}
	at := mstime.ISO(a.AtMs)
	_, err := tx.ExecContext(ctx, `
INSERT INTO conversations (conversationId, workspaceRoot, projectName, createdAt, updatedAt, lastHookEvent,
    model, transcriptPath, status, firstSeenMs, lastHookMs, activityMs, agent)
VALUES (?, NULLIF(?, ''), NULLIF(?, ''), ?, ?, NULLIF(?, ''), NULLIF(?, ''), NULLIF(?, ''), NULLIF(?, ''), ?, ?, ?, `+agentValue+`)
ON CONFLICT (conversationId) DO UPDATE SET
    agent          = `+agentUpdate+`,
    workspaceRoot  = COALESCE(workspaceRoot, excluded.workspaceRoot),
    projectName    = COALESCE(projectName, excluded.projectName),
    lastHookEvent  = COALESCE(excluded.lastHookEvent, lastHookEvent),
    model          = COALESCE(excluded.model, model),
    transcriptPath = COALESCE(excluded.transcriptPath, transcriptPath),
    status         = COALESCE(excluded.status, status),
    firstSeenMs    = CASE WHEN firstSeenMs = 0 OR excluded.firstSeenMs < firstSeenMs THEN excluded.firstSeenMs ELSE firstSeenMs END,
    createdAt      = COALESCE(createdAt, excluded.createdAt),
    lastHookMs     = MAX(lastHookMs, excluded.lastHookMs),
    activityMs     = MAX(activityMs, excluded.activityMs),
    updatedAt      = CASE WHEN excluded.activityMs > activityMs THEN excluded.updatedAt ELSE updatedAt END`,
		a.ConversationID, root, project, at, at, a.Event, a.Model, a.TranscriptPath, a.Status,
		a.AtMs, a.AtMs, a.AtMs, a.Agent)
	if err != nil {
		return err
	}
	for _, r := range a.WorkspaceRoots {
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO conversation_roots (conversationId, root) VALUES (?, ?)`, a.ConversationID, r); err != nil {
			return err
		}
	}
	if err := upsertFiles(ctx, tx, a.ConversationID, a.Files, a.AtMs); err != nil {
		return err
	}
	if err := insertEditLines(ctx, tx, a.ConversationID, a.GenerationID, a.Lines, a.AtMs); err != nil {
		return err
	}
	if err := insertEditSpans(ctx, tx, a.ConversationID, a.GenerationID, a.Spans, a.AtMs); err != nil {
		return err
	}
	if a.Prompt != "" {
		res, err := tx.ExecContext(ctx, `INSERT INTO prompts (conversationId, generationId, text, atMs) SELECT ?1, ?2, ?3, ?4
WHERE NOT EXISTS (SELECT 1 FROM prompts WHERE conversationId = ?1 AND generationId = ?2 AND text = ?3)`,
			a.ConversationID, a.GenerationID, a.Prompt, a.AtMs)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n > 0 {
			if _, err := tx.ExecContext(ctx, `
UPDATE conversations SET firstPrompt = COALESCE(firstPrompt, ?),
    searchableText = COALESCE(searchableText || char(10), '') || ?
WHERE conversationId = ?`, Bounded(a.Prompt, MaxCopied), Bounded(a.Prompt, MaxSearched), a.ConversationID); err != nil {
				return err
			}
		}
	}
	if a.Response != "" {
		if _, err := tx.ExecContext(ctx, `INSERT INTO responses (conversationId, generationId, text, atMs) SELECT ?1, ?2, ?3, ?4
WHERE NOT EXISTS (SELECT 1 FROM responses WHERE conversationId = ?1 AND generationId = ?2 AND text = ?3)`,
			a.ConversationID, a.GenerationID, a.Response, a.AtMs); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE conversations SET lastResponse = ? WHERE conversationId = ?`, Bounded(a.Response, MaxCopied), a.ConversationID); err != nil {
			return err
		}
	}
	return nil
}

func upsertFiles(ctx context.Context, tx *sql.Tx, convID string, files []FileTouch, defaultMs int64) error {
	if len(files) == 0 {
		return nil
	}
	stmt, err := tx.PrepareContext(ctx, `
INSERT INTO conversation_files (conversationId, repoKey, path, pathKey, source, firstMs, lastMs)
VALUES (?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (conversationId, repoKey, pathKey, source) DO UPDATE SET
    firstMs = MIN(firstMs, excluded.firstMs),
    lastMs  = MAX(lastMs, excluded.lastMs)`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, f := range files {
		at := f.AtMs
		if at == 0 {
			at = defaultMs
		}
		key := f.PathKey
		if key == "" {
			key = f.Path
		}
		if f.Path == "" || f.Source == "" {
			continue
		}
		if _, err := stmt.ExecContext(ctx, convID, f.RepoKey, f.Path, key, f.Source, at, at); err != nil {
			return err
		}
	}
	return nil
}

// refreshCapturedFiles keeps the seed's capturedFiles JSON column in step with
// the indexed conversation_files table (the JSON is the interchange view).
// One statement: a hook pays for compiling each statement it runs.
func refreshCapturedFiles(ctx context.Context, tx *sql.Tx, convID string) error {
	_, err := tx.ExecContext(ctx, `
UPDATE conversations SET capturedFiles = (
    SELECT COALESCE(json_group_array(path), '[]') FROM (
        SELECT DISTINCT path FROM conversation_files
        WHERE conversationId = ?1 AND source IN `+editSourcesSQL+` ORDER BY path)),
  relevantFiles = (
    SELECT COALESCE(json_group_array(path), '[]') FROM (
        SELECT DISTINCT path FROM conversation_files
        WHERE conversationId = ?1 AND source IN ('cursor-context', 'attachment') ORDER BY path))
WHERE conversationId = ?1`, convID)
	return err
}

// Enrichment is what Cursor's own database adds to a conversation.
type Enrichment struct {
	ConversationID string
	Agent          string // "cursor" when empty
	Title          string
	// PromptTitle is the title a reader made of the first prompt when the
	// agent gave none (not stored): a stored title equal to it, written by
	// an earlier version, is dropped.
	PromptTitle     string
	Summary         string // latestConversationSummary
	Status          string
	Mode            string
	Model           string
	CreatedMs       int64
	UpdatedMs       int64
	FirstMessage    string
	UserMessages    []string
	AttachedFolders []string
	Files           []FileTouch // edited and context files
	Lines           []EditLine  // lines Cursor's own diffs say the agent wrote
	Roots           []string    // workspace roots it belongs to (import)
	EnrichedMs      int64
}

// ApplyEnrichment merges Cursor's view of a conversation into the store. Hook
// data is never removed; Cursor's lastUpdatedAt raises the activity time.
func (s *Store) ApplyEnrichment(ctx context.Context, e Enrichment) error {
	if e.ConversationID == "" {
		return errors.New("enrichment has no conversation id")
	}
	if e.EnrichedMs == 0 {
		e.EnrichedMs = s.now().UnixMilli()
	}
	return s.write(ctx, func(tx *sql.Tx) error { return applyEnrichment(ctx, tx, e) })
}

// applyEnrichment is ApplyEnrichment's work in tx.
func applyEnrichment(ctx context.Context, tx *sql.Tx, e Enrichment) error {
	_, err := tx.ExecContext(ctx, `
INSERT INTO conversations (conversationId, title, aiSummary, status, mode, model, createdAt, updatedAt,
    firstSeenMs, cursorUpdatedMs, activityMs, enrichedMs, enrichError, attachedFolders, agent)
VALUES (?1, NULLIF(?2, ''), NULLIF(?3, ''), NULLIF(?4, ''), NULLIF(?5, ''), NULLIF(?6, ''), NULLIF(?7, ''), NULLIF(?8, ''),
    ?9, ?10, ?10, ?11, NULL, ?12, COALESCE(NULLIF(?13, ''), 'cursor'))
ON CONFLICT (conversationId) DO UPDATE SET
    agent           = `+agentUpdate+`,
    title           = CASE WHEN excluded.title IS NULL AND title = ?14 THEN NULL ELSE COALESCE(excluded.title, title) END,
    aiSummary       = COALESCE(excluded.aiSummary, aiSummary),
    status          = COALESCE(excluded.status, status),
    mode            = COALESCE(excluded.mode, mode),
    model           = COALESCE(model, excluded.model),
    createdAt       = COALESCE(excluded.createdAt, createdAt),
    firstSeenMs     = CASE WHEN firstSeenMs = 0 THEN excluded.firstSeenMs ELSE firstSeenMs END,
    cursorUpdatedMs = MAX(cursorUpdatedMs, excluded.cursorUpdatedMs),
    activityMs      = MAX(activityMs, excluded.cursorUpdatedMs),
    updatedAt       = CASE WHEN excluded.cursorUpdatedMs > activityMs THEN excluded.updatedAt ELSE updatedAt END,
    enrichedMs      = excluded.enrichedMs,
    enrichError     = NULL,
    attachedFolders = CASE WHEN excluded.attachedFolders != '[]' THEN excluded.attachedFolders ELSE attachedFolders END`,
		e.ConversationID, e.Title, e.Summary, e.Status, e.Mode, e.Model, mstime.ISO(e.CreatedMs), mstime.ISO(e.UpdatedMs),
		e.CreatedMs, e.UpdatedMs, e.EnrichedMs, jsonList(e.AttachedFolders), e.Agent, e.PromptTitle)
	if err != nil {
		return err
	}
	if e.FirstMessage != "" {
		if _, err := tx.ExecContext(ctx, `UPDATE conversations SET firstPrompt = COALESCE(firstPrompt, ?) WHERE conversationId = ?`, Bounded(e.FirstMessage, MaxCopied), e.ConversationID); err != nil {
			return err
		}
	}
	// A file with no edit time of its own is dated from the conversation's
	// start: dating it at its last update could place it after the commit
	// it belongs to.
	def := e.CreatedMs
	if def == 0 {
		def = e.UpdatedMs
	}
	if err := upsertFiles(ctx, tx, e.ConversationID, e.Files, def); err != nil {
		return err
	}
	if err := insertEditLines(ctx, tx, e.ConversationID, "", e.Lines, def); err != nil {
		return err
	}
	for _, r := range e.Roots {
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO conversation_roots (conversationId, root) VALUES (?, ?)`, e.ConversationID, r); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE conversations SET workspaceRoot = COALESCE(workspaceRoot, ?) WHERE conversationId = ?`, r, e.ConversationID); err != nil {
			return err
		}
	}
	if err := refreshCapturedFiles(ctx, tx, e.ConversationID); err != nil {
		return err
	}
	return refreshSearchText(ctx, tx, e.ConversationID, e.FirstMessage, e.UserMessages)
}

// refreshSearchText rebuilds searchableText: title + summary + first message +
// every prompt (hooks' and Cursor's user messages), de-duplicated.
func refreshSearchText(ctx context.Context, tx *sql.Tx, convID, firstMessage string, userMessages []string) error {
	var title, summary sql.NullString
	if err := tx.QueryRowContext(ctx, `SELECT title, aiSummary FROM conversations WHERE conversationId = ?`, convID).Scan(&title, &summary); err != nil {
		return err
	}
	parts := []string{title.String, summary.String, firstMessage}
	rows, err := tx.QueryContext(ctx, `SELECT substr(text, 1, ?) FROM prompts WHERE conversationId = ? ORDER BY atMs`, MaxSearched, convID)
	if err != nil {
		return err
	}
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			rows.Close()
			return err
		}
		parts = append(parts, t)
	}
	rows.Close()
	for _, m := range userMessages {
		parts = append(parts, Bounded(m, MaxSearched))
	}
	seen := map[string]bool{}
	var b strings.Builder
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" || seen[p] {
			continue
		}
		seen[p] = true
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p)
	}
	_, err = tx.ExecContext(ctx, `UPDATE conversations SET searchableText = ? WHERE conversationId = ?`, b.String(), convID)
	return err
}

// MarkEnrichError records why enrichment failed (missing or locked Cursor DB),
// so `doctor` can show it and a later run retries.
func (s *Store) MarkEnrichError(ctx context.Context, convID, msg string) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE conversations SET enrichError = ? WHERE conversationId = ?`, msg, convID)
		return err
	})
}

// A prompt or a response is stored whole once, in its table. The copies
// kept for showing and searching are bounded, so a 50 MB prompt does not
// take 150 MB: firstPrompt and lastResponse keep MaxCopied bytes,
// searchableText the first MaxSearched bytes of each prompt.
const (
	MaxCopied   = 4 << 10
	MaxSearched = 64 << 10
)

// Bounded returns s cut to at most max bytes at a character boundary.
func Bounded(s string, max int) string {
	if len(s) <= max {
		return s
	}
	for max > 0 && !utf8.RuneStart(s[max]) {
		max--
	}
	return s[:max]
}
