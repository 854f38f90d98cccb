package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-convo/git-convo/pkg/agents"
	"github.com/git-convo/git-convo/pkg/cursor"
	"github.com/git-convo/git-convo/pkg/source"
	"github.com/git-convo/git-convo/pkg/store"
)

// The context-file cache: at most 50 files, none older than 7 days, cleaned
// on each write (the original design's LRU).
const (
	cacheMaxFiles = 50
	cacheMaxAge   = 7 * 24 * time.Hour
)

// ConversationInput is get_conversation's input.
type ConversationInput struct {
	ConversationID string `json:"conversationId" jsonschema:"the conversation id (or a unique prefix)"`
}

// ConversationOutput is get_conversation's result.
type ConversationOutput struct {
	FilePath string       `json:"filePath"`
	Title    string       `json:"title"`
	Stats    cursor.Stats `json:"stats"`
	Size     string       `json:"fileSize"`
	Guidance string       `json:"guidance"`
}

func (d *Deps) getConversation(ctx context.Context, _ *mcp.CallToolRequest, in ConversationInput) (*mcp.CallToolResult, ConversationOutput, error) {
	var out ConversationOutput
	id := strings.TrimSpace(in.ConversationID)
	if id == "" {
		return nil, out, errors.New("conversationId is required")
	}
	if ids, err := d.Store.ResolveConversationID(ctx, id); err == nil && len(ids) == 1 {
		id = ids[0]
	}
	if strings.ContainsAny(id, `/\`) || strings.Contains(id, "..") {
		return nil, out, fmt.Errorf("%q is not a conversation id", id)
	}
	conv, err := d.Store.GetConversation(ctx, id)
	if err != nil {
		return nil, out, err
	}
	meta := cursor.ConversationMeta{ID: id}
	if conv != nil {
		meta.Title, meta.Project, meta.Files = conv.Title, conv.ProjectName, conv.CapturedFiles
	}
	var msgs []cursor.Message
	var db *cursor.DB
	var dbErr error
	if conv != nil && conv.Agent != "" && conv.Agent != cursor.Name {
		// Another agent's conversation: read it as the CLI does.
		c, err := agents.For(conv.Agent, d.Getenv).ReadConversation(ctx, id, source.Hint{TranscriptPath: conv.TranscriptPath})
		if err == nil {
			msgs, dbErr = c.Messages, nil
			meta.Agent, meta.Model, meta.Summary, meta.Created, meta.Updated = conv.Agent, c.Model, c.Summary, c.Created, c.Updated
			if meta.Title == "" {
				meta.Title = c.Title
			}
		} else {
			dbErr = err
		}
	} else {
		db, dbErr = cursorDB(ctx, d.Getenv)
	}
	if dbErr == nil && db != nil {
		defer db.Close()
		comp, err := db.Composer(ctx, id)
		if err == nil {
			msgs, dbErr = db.Messages(ctx, comp)
			if meta.Title == "" {
				meta.Title = comp.Title
			}
			meta.Created, meta.Updated = comp.CreatedAt, comp.UpdatedAt
		} else {
			dbErr = err
		}
	}
	if msgs == nil && conv != nil && conv.TranscriptPath != "" {
		if m, err := cursor.ReadTranscript(conv.TranscriptPath); err == nil {
			msgs, dbErr = m, nil
		}
	}
	if msgs == nil && conv != nil {
		if turns, err := d.Store.HookRecord(ctx, id); err == nil && len(turns) > 0 {
			for _, t := range turns {
				msgs = append(msgs, source.HookMessage(t.Role, t.Text, t.AtMs))
			}
			meta.Note = source.HookRecordNote
			if conv.FirstSeenMs > 0 {
				meta.Created, meta.Updated = time.UnixMilli(conv.FirstSeenMs), time.UnixMilli(conv.ActivityMs)
			}
		}
	}
	if msgs == nil {
		if conv == nil {
			return nil, out, fmt.Errorf("no conversation %q is known to git-convo or Cursor", id)
		}
		return nil, out, fmt.Errorf("the messages of %s are not available (%v)", id, dbErr)
	}
	dir, err := cacheDir(d.Getenv)
	if err != nil {
		return nil, out, err
	}
	path := filepath.Join(dir, id+".md")
	f, err := os.OpenFile(path+".tmp", os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, out, err
	}
	st, werr := cursor.RenderMarkdown(f, meta, msgs)
	if err := errors.Join(werr, f.Close()); err != nil {
		os.Remove(path + ".tmp")
		return nil, out, err
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		return nil, out, err
	}
	cleanCache(dir, path, d.Now())
	out = ConversationOutput{FilePath: path, Title: meta.Title, Stats: st, Size: humanSize(st.Bytes),
		Guidance: "Read this file with your file tools instead of loading it whole: grep it for the keywords you care " +
			"about (messages start with '## Message N (User|Assistant)'), then read the sections around the matches."}
	return nil, out, nil
}

// cacheDir is where context files are written: store.ContextDir, created 0700.
func cacheDir(getenv func(string) string) (string, error) {
	dir, err := store.ContextDir(getenv)
	if err != nil {
		return "", err
	}
	return dir, os.MkdirAll(dir, 0o700)
}

// cleanCache keeps at most cacheMaxFiles files, none older than cacheMaxAge
// (the one just written is always kept).
func cleanCache(dir, keep string, now time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type file struct {
		path string
		mod  time.Time
	}
	var files []file
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".md") {
			continue
		}
		p := filepath.Join(dir, e.Name())
		info, err := e.Info()
		if err != nil || p == keep {
			continue
		}
		if now.Sub(info.ModTime()) > cacheMaxAge {
			os.Remove(p)
			continue
		}
		files = append(files, file{p, info.ModTime()})
	}
	sort.Slice(files, func(i, j int) bool { return files[i].mod.After(files[j].mod) })
	for i, f := range files {
		if i >= cacheMaxFiles-1 {
			os.Remove(f.path)
		}
	}
}

func humanSize(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1fMB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0fKB", float64(n)/(1<<10))
	default:
		return fmt.Sprintf("%dB", n)
	}
}
