package cursor

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	sqlite3 "github.com/mattn/go-sqlite3"

	"github.com/git-convo/git-convo/pkg/util/platform"
	"github.com/git-convo/git-convo/pkg/util/sqliteuri"
)

// Typed errors of the Cursor database reader.
var (
	// ErrNotFound: no such conversation (or no database file).
	ErrNotFound = errors.New("not found in Cursor's database")
	// ErrBusy: Cursor holds a lock; retry later.
	ErrBusy = errors.New("the Cursor database is busy")
)

// DefaultDBPath is Cursor's global state.vscdb for this platform, or
// CURSOR_DB_PATH. getenv is os.Getenv in production.
func DefaultDBPath(getenv func(string) string) (string, error) {
	return dbPathFor(getenv, runtime.GOOS)
}

func dbPathFor(getenv func(string) string, goos string) (string, error) {
	if p := getenv("CURSOR_DB_PATH"); p != "" {
		return filepath.Abs(p)
	}
	if dir, ok := platform.ConfigDir(goos, getenv); ok {
		return platform.Join(goos, dir, "Cursor", "User", "globalStorage", "state.vscdb"), nil
	}
	return "", errors.New("cannot locate Cursor's database: HOME is not set (set CURSOR_DB_PATH)")
}

// DB is Cursor's state.vscdb, opened read-only.
type DB struct {
	db     *sql.DB
	path   string
	shared bool // another DB owns the handle: Close leaves it open
}

// OpenDB opens Cursor's database strictly read-only (sqliteuri.ReadOnly:
// mode=ro, never immutable=1, which would miss Cursor's recent rows in the
// WAL), with no pragma that writes and a short busy timeout: Cursor writes it
// live.
func OpenDB(ctx context.Context, path string) (*DB, error) {
	if _, err := os.Stat(path); err != nil {
		if os.IsNotExist(err) {
			return nil, fmt.Errorf("%w: no file at %s (is Cursor installed? set CURSOR_DB_PATH)", ErrNotFound, path)
		}
		return nil, err
	}
	db, err := sql.Open("sqlite3", sqliteuri.ReadOnly(path, 250*time.Millisecond))
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return &DB{db: db, path: path}, nil
}

// Close closes the database.
func (d *DB) Close() error {
	if d.shared {
		return nil
	}
	return d.db.Close()
}

func (d *DB) classify(err error) error {
	var se sqlite3.Error
	if errors.As(err, &se) && (se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked) {
		return fmt.Errorf("%w: %s: %v (will retry)", ErrBusy, d.path, err)
	}
	return err
}

// value reads one cursorDiskKV value by key equality.
func (d *DB) value(ctx context.Context, key string) ([]byte, error) {
	var v []byte
	err := d.db.QueryRowContext(ctx, `SELECT value FROM cursorDiskKV WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, d.classify(err)
	}
	return v, nil
}

// FileRef is a file a conversation touched, with when (zero if unknown).
type FileRef struct {
	Path string
	At   time.Time
}

// Composer is a conversation's metadata (composerData:<id>).
type Composer struct {
	ID               string
	Title            string
	Status           string
	Mode             string
	Model            string
	Summary          string
	CreatedAt        time.Time
	UpdatedAt        time.Time
	EditedFiles      []FileRef
	ContextFiles     []string
	FirstUserMessage string
	UserMessages     []string
	// WrittenLines holds, per edited file, the lines Cursor's own diffs say
	// the agent wrote (codeBlockDiff and checkpoint diffs), with when.
	WrittenLines map[string][]WrittenLine
	headers      []header
	legacy       []json.RawMessage
	messages     []Message // read once, for UserMessages and ContextFiles
}

type header struct {
	BubbleID string `json:"bubbleId"`
	Type     int    `json:"type"`
}

type composerJSON struct {
	Name                        string                                `json:"name"`
	Status                      string                                `json:"status"`
	UnifiedMode                 string                                `json:"unifiedMode"`
	CreatedAt                   int64                                 `json:"createdAt"`
	LastUpdatedAt               int64                                 `json:"lastUpdatedAt"`
	ModelConfig                 struct{ ModelName string }            `json:"modelConfig"`
	LatestConversationSummary   json.RawMessage                       `json:"latestConversationSummary"`
	FullConversationHeadersOnly []header                              `json:"fullConversationHeadersOnly"`
	Conversation                []json.RawMessage                     `json:"conversation"`
	CodeBlockData               map[string]map[string]json.RawMessage `json:"codeBlockData"`
	OriginalFileStates          map[string]json.RawMessage            `json:"originalFileStates"`
	NewlyCreatedFiles           []json.RawMessage                     `json:"newlyCreatedFiles"`
	Context                     struct {
		FileSelections []struct {
			URI struct {
				FsPath string `json:"fsPath"`
				Path   string `json:"path"`
			} `json:"uri"`
		} `json:"fileSelections"`
	} `json:"context"`
}

// Composer reads a conversation's metadata and the user messages' text.
func (d *DB) Composer(ctx context.Context, id string) (*Composer, error) {
	raw, err := d.value(ctx, "composerData:"+id)
	if err != nil {
		if errors.Is(err, ErrNotFound) {
			return nil, fmt.Errorf("%w: conversation %s", ErrNotFound, id)
		}
		return nil, err
	}
	var cj composerJSON
	if err := json.Unmarshal(raw, &cj); err != nil {
		return nil, fmt.Errorf("composerData:%s: %v", id, err)
	}
	c := &Composer{ID: id, Title: cj.Name, Status: cj.Status, Mode: cj.UnifiedMode, Model: cj.ModelConfig.ModelName,
		headers: cj.FullConversationHeadersOnly, legacy: cj.Conversation}
	if cj.CreatedAt > 0 {
		c.CreatedAt = time.UnixMilli(cj.CreatedAt)
	}
	if cj.LastUpdatedAt > 0 {
		c.UpdatedAt = time.UnixMilli(cj.LastUpdatedAt)
	}
	c.Summary = summaryText(cj.LatestConversationSummary)
	c.EditedFiles = editedFiles(cj)
	c.WrittenLines = d.writtenLines(ctx, id, cj)
	seen := map[string]bool{}
	for _, fs := range cj.Context.FileSelections {
		p := fs.URI.FsPath
		if p == "" {
			p = fs.URI.Path
		}
		if p != "" && !seen[p] {
			seen[p] = true
			c.ContextFiles = append(c.ContextFiles, NormalizeFSPath(p))
		}
	}
	msgs, err := d.Messages(ctx, c)
	if err != nil {
		return nil, err
	}
	c.messages = msgs
	for _, m := range msgs {
		if m.Role == "user" && strings.TrimSpace(m.Text) != "" {
			if c.FirstUserMessage == "" {
				c.FirstUserMessage = strings.TrimSpace(m.Text)
			}
			c.UserMessages = append(c.UserMessages, strings.TrimSpace(m.Text))
		}
		for _, f := range m.RelevantFiles {
			if !seen[f] {
				seen[f] = true
				c.ContextFiles = append(c.ContextFiles, NormalizeFSPath(f))
			}
		}
	}
	return c, nil
}

func summaryText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s struct {
		Summary struct {
			Summary string `json:"summary"`
		} `json:"summary"`
	}
	if json.Unmarshal(raw, &s) == nil && s.Summary.Summary != "" {
		return s.Summary.Summary
	}
	var plain struct {
		Summary string `json:"summary"`
	}
	if json.Unmarshal(raw, &plain) == nil {
		return plain.Summary
	}
	return ""
}

// editedFiles collects the files a conversation changed, with the earliest
// time Cursor reports for each (codeBlockData createdAt / lastAppliedAt).
func editedFiles(cj composerJSON) []FileRef {
	at := map[string]time.Time{}
	add := func(uri string, t time.Time) {
		p := NormalizeFSPath(uri)
		if p == "" {
			return
		}
		old, ok := at[p]
		if !ok || (!t.IsZero() && (old.IsZero() || t.Before(old))) {
			at[p] = t
		}
	}
	for uri, blocks := range cj.CodeBlockData {
		var first time.Time
		for _, b := range blocks {
			var cb struct {
				CreatedAt     int64 `json:"createdAt"`
				LastAppliedAt int64 `json:"lastAppliedAt"`
			}
			if json.Unmarshal(b, &cb) != nil {
				continue
			}
			for _, ms := range []int64{cb.CreatedAt, cb.LastAppliedAt} {
				if ms > 0 && (first.IsZero() || time.UnixMilli(ms).Before(first)) {
					first = time.UnixMilli(ms)
				}
			}
		}
		add(uri, first)
	}
	for uri := range cj.OriginalFileStates {
		add(uri, time.Time{})
	}
	for _, raw := range cj.NewlyCreatedFiles {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			add(s, time.Time{})
			continue
		}
		var o struct {
			URI struct {
				FsPath, Path, External string
			} `json:"uri"`
			FsPath string `json:"fsPath"`
			Path   string `json:"path"`
		}
		if json.Unmarshal(raw, &o) == nil {
			for _, p := range []string{o.URI.FsPath, o.FsPath, o.URI.Path, o.Path, o.URI.External} {
				if p != "" {
					add(p, time.Time{})
					break
				}
			}
		}
	}
	out := make([]FileRef, 0, len(at))
	for p, t := range at {
		out = append(out, FileRef{Path: p, At: t})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}
