package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/app"
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

// ConversationOutput is get_conversation's result. A conversation only a
// teammate's shared note knows has no messages: its metadata, files and
// commits come with origin "notes" and a note that says so.
type ConversationOutput struct {
	FilePath string       `json:"filePath"`
	Title    string       `json:"title"`
	Stats    source.Stats `json:"stats"`
	Size     string       `json:"fileSize"`
	Guidance string       `json:"guidance"`
	Origin   string       `json:"origin"` // local | notes
	Agent    string       `json:"agent,omitempty"`
	Model    string       `json:"model,omitempty"`
	Summary  string       `json:"summary,omitempty"`
	Files    []string     `json:"files,omitempty"`
	Commits  []CommitRef  `json:"commits,omitempty"`
	Note     string       `json:"note,omitempty"`
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
	if !contextFileID(id) {
		return nil, out, fmt.Errorf("%q is not a conversation id", id)
	}
	if err := d.allowConversation(ctx, id, false); err != nil {
		return nil, out, err
	}
	// As `git convo conversation` reads it: its agent, else shared notes.
	read, err := d.App.ReadConversation(ctx, d.Store, d.Dir, id)
	if err != nil {
		return nil, out, err
	}
	if read.Shared != nil {
		return d.sharedConversation(*read.Shared)
	}
	msgs, meta := read.Msgs, read.Meta
	path, st, err := d.writeContextFile(id, func(w io.Writer) (source.Stats, error) { return source.RenderMarkdown(w, meta, msgs) })
	if err != nil {
		return nil, out, err
	}
	out = ConversationOutput{FilePath: path, Title: meta.Title, Stats: st, Size: humanSize(st.Bytes), Origin: "local",
		Agent: meta.Agent, Model: meta.Model, Summary: meta.Summary, Files: meta.Files, Note: meta.Note,
		Guidance: "Read this file with your file tools instead of loading it whole: grep it for the keywords you care " +
			"about (messages start with '## Message N (User|Assistant)'), then read the sections around the matches."}
	// The commits, as git convo conversation --json lists them.
	commits, err := d.Store.CommitsForConversation(ctx, id)
	if err != nil {
		return nil, out, err
	}
	for _, lc := range commits {
		out.Commits = append(out.Commits, CommitRef{Hash: lc.CommitHash, Subject: lc.Subject, Confidence: lc.Confidence,
			Status: lc.Status, Reason: lc.Reason, Evidence: lc.Evidence()})
	}
	return nil, out, nil
}

// sharedConversation answers get_conversation for a conversation only a
// teammate's shared note knows, as `git convo conversation` does: its
// metadata, files and commits, in the result and in the context file.
func (d *Deps) sharedConversation(sh app.SharedConversation) (*mcp.CallToolResult, ConversationOutput, error) {
	var out ConversationOutput
	c := sh.Conv
	if !contextFileID(c.ID) { // a teammate's note names it: outside input
		return nil, out, fmt.Errorf("%q is not a conversation id", c.ID)
	}
	path, st, err := d.writeContextFile(c.ID, func(w io.Writer) (source.Stats, error) {
		var b strings.Builder
		err := sh.WriteMarkdown(&b, d.Agents.Display(c.Agent))
		n, werr := io.WriteString(w, b.String())
		return source.Stats{Bytes: n, Lines: strings.Count(b.String(), "\n")}, errors.Join(err, werr)
	})
	if err != nil {
		return nil, out, err
	}
	out = ConversationOutput{FilePath: path, Title: c.Title, Stats: st, Size: humanSize(st.Bytes), Origin: "notes",
		Agent: c.Agent, Model: c.Model, Summary: c.Summary, Files: sh.Files(), Note: app.NotShared,
		Guidance: "The transcript was not shared: there are no messages to read. The title, summary, files and commits " +
			"are what the teammate's note says; get_commit_conversations tells more of each commit."}
	for _, lc := range sh.Links {
		out.Commits = append(out.Commits, CommitRef{Hash: lc.CommitHash, Confidence: lc.Confidence, Status: lc.Status, Reason: lc.Reason})
	}
	return nil, out, nil
}

// contextFileID reports whether id can name a context file.
func contextFileID(id string) bool {
	return id != "" && !strings.ContainsAny(id, `/\`) && !strings.Contains(id, "..")
}

// writeContextFile writes the context file of conversation id with
// render, atomically, and cleans the cache. It returns the file's path.
func (d *Deps) writeContextFile(id string, render func(io.Writer) (source.Stats, error)) (string, source.Stats, error) {
	dir, err := cacheDir(d.Getenv)
	if err != nil {
		return "", source.Stats{}, err
	}
	path := filepath.Join(dir, id+".md")
	f, err := os.OpenFile(path+".tmp", os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return "", source.Stats{}, err
	}
	st, werr := render(f)
	if err := errors.Join(werr, f.Close()); err != nil {
		os.Remove(path + ".tmp")
		return "", st, err
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		return "", st, err
	}
	cleanCache(dir, path, d.Now())
	return path, st, nil
}

// cacheDir is where context files are written: app.ContextDir, created 0700.
func cacheDir(getenv func(string) string) (string, error) {
	dir, err := app.ContextDir(getenv)
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
