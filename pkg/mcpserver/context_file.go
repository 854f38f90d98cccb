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
	Stats    source.Stats `json:"stats"`
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
	msgs, meta, err := d.Agents.Read(ctx, d.Getenv, d.Store, id, conv)
	if err != nil {
		return nil, out, err
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
	st, werr := source.RenderMarkdown(f, meta, msgs)
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
