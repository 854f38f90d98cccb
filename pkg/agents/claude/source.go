// Package claude is everything git-convo knows about Claude Code: its hook
// payloads, its settings.json, its session transcripts under
// ~/.claude/projects. It implements source.Source.
package claude

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/git-convo/git-convo/pkg/agents/source"
)

// Name is the agent's name in links.sqlite and in output.
const Name = "claude"

// ConfigDir is Claude Code's configuration directory: CLAUDE_CONFIG_DIR, else
// ~/.claude. It returns "" when neither can be known.
func ConfigDir(getenv func(string) string) string {
	return source.UserDir(getenv, "CLAUDE_CONFIG_DIR", ".claude")
}

// Source reads Claude Code's conversations under Dir (its configuration
// directory).
type Source struct {
	Dir string
}

var _ source.Source = Source{}

// Name implements source.Source.
func (Source) Name() string { return Name }

// ParseHook implements source.Source.
func (Source) ParseHook(data []byte) (source.Activity, error) { return ParseHook(data) }

// ReadConversation reads the session's transcript: the path the hooks gave,
// else <Dir>/projects/*/<id>.jsonl.
func (s Source) ReadConversation(_ context.Context, id string, hint source.Hint) (*source.Conversation, error) {
	paths := []string{}
	if p := hint.TranscriptPath; p != "" {
		// Some payloads spell the home directory "~".
		if rest, ok := strings.CutPrefix(p, "~/"); ok {
			if home, err := os.UserHomeDir(); err == nil {
				p = filepath.Join(home, rest)
			}
		}
		paths = append(paths, p)
	}
	if s.Dir != "" && id != "" && !strings.ContainsAny(id, `/\*?[`) {
		found, _ := filepath.Glob(filepath.Join(s.Dir, "projects", "*", id+".jsonl"))
		paths = append(paths, found...)
	}
	for _, p := range paths {
		if c, err := ReadTranscript(p); err == nil {
			if c.ID == "" || c.ID == id || p == paths[0] && hint.TranscriptPath != "" {
				c.ID = id
				return c, nil
			}
		}
	}
	return nil, source.ErrNotFound
}

// ListConversations returns the sessions under <Dir>/projects whose lines'
// cwd lies in one of roots. The project folder's name is never decoded
// (long paths are truncated and hashed): the cwd recorded in the lines is
// what counts.
func (s Source) ListConversations(_ context.Context, roots []string) ([]source.Ref, error) {
	if s.Dir == "" {
		return nil, nil
	}
	files, err := filepath.Glob(filepath.Join(s.Dir, "projects", "*", "*.jsonl"))
	if err != nil {
		return nil, err
	}
	var out []source.Ref
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil || !fi.Mode().IsRegular() || strings.HasPrefix(filepath.Base(f), "agent-") {
			continue
		}
		cwd, id := sessionCwd(f)
		if cwd == "" || !source.InAny(cwd, roots) {
			continue
		}
		if id == "" {
			id = strings.TrimSuffix(filepath.Base(f), ".jsonl")
		}
		out = append(out, source.Ref{ID: id, TranscriptPath: f, Cwd: cwd, Updated: fi.ModTime()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// sessionCwd returns the first cwd and sessionId recorded in a session file,
// reading at most its first 4 MiB.
func sessionCwd(path string) (cwd, id string) {
	f, err := source.OpenRegular(path, 1<<62) // any size: only the start is read
	if err != nil {
		return "", ""
	}
	defer f.Close()
	br := bufio.NewReaderSize(io.LimitReader(f, 4<<20), 64<<10)
	for {
		raw, err := br.ReadBytes('\n')
		var l struct {
			Cwd       string `json:"cwd"`
			SessionID string `json:"sessionId"`
		}
		if json.Unmarshal(raw, &l) == nil && l.Cwd != "" {
			return l.Cwd, l.SessionID
		}
		if err != nil {
			return "", ""
		}
	}
}
