package vscode

import (
	"encoding/json"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/git-convo/git-convo/pkg/agents/source"
)

// maxChatSession bounds a chat session file read for import.
const maxChatSession = 256 << 20

// ReadChatSession reads a Copilot Chat session as VS Code stores it in
// workspaceStorage/<hash>/chatSessions/: the whole-file JSON of older
// versions ({version, sessionId, customTitle, creationDate, requests[]}) or
// the JSONL mutation log of newer ones (kind 0: the initial state; kind 1:
// set the value at path k; kind 2: append v's items to the array at k).
// Each request is a user prompt (message.text) and the response's parts:
// markdown, tool invocations, and textEditGroup edits (the files and text
// the agent wrote). Lines it cannot apply are skipped.
func ReadChatSession(path string) (*source.Conversation, error) {
	f, err := source.OpenRegular(path, maxChatSession)
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(f)
	f.Close()
	if err != nil {
		return nil, err
	}
	var state map[string]any
	if json.Unmarshal(b, &state) != nil || state["kind"] != nil {
		state = nil
		for _, l := range strings.Split(string(b), "\n") {
			var op struct {
				Kind int             `json:"kind"`
				K    []any           `json:"k"`
				V    json.RawMessage `json:"v"`
			}
			if json.Unmarshal([]byte(l), &op) != nil {
				continue
			}
			var v any
			if json.Unmarshal(op.V, &v) != nil {
				continue
			}
			switch op.Kind {
			case 0:
				state, _ = v.(map[string]any)
			case 1, 2:
				if state != nil {
					apply(state, op.K, v, op.Kind == 2)
				}
			}
		}
	}
	if state == nil {
		return nil, source.ErrNotFound
	}
	return chatConversation(state, path), nil
}

// apply sets (or, with add, appends to) the value at path k in state.
func apply(state map[string]any, k []any, v any, add bool) {
	if len(k) == 0 {
		return
	}
	var parent any = state
	for _, key := range k[:len(k)-1] {
		parent = child(parent, key)
		if parent == nil {
			return
		}
	}
	last := k[len(k)-1]
	m, ok := parent.(map[string]any)
	if !ok {
		if list, ok := parent.([]any); ok {
			if i, ok := last.(float64); ok && int(i) >= 0 && int(i) < len(list) && !add {
				list[int(i)] = v
			}
		}
		return
	}
	name, _ := last.(string)
	if !add {
		m[name] = v
		return
	}
	cur, _ := m[name].([]any)
	if items, ok := v.([]any); ok {
		m[name] = append(cur, items...)
	} else {
		m[name] = append(cur, v)
	}
}

func child(v any, key any) any {
	switch t := v.(type) {
	case map[string]any:
		s, _ := key.(string)
		return t[s]
	case []any:
		if i, ok := key.(float64); ok && int(i) >= 0 && int(i) < len(t) {
			return t[int(i)]
		}
	}
	return nil
}

// chatConversation turns a session's state into a conversation.
func chatConversation(st map[string]any, path string) *source.Conversation {
	str := func(m map[string]any, k string) string { s, _ := m[k].(string); return s }
	ms := func(m map[string]any, k string) time.Time {
		if f, ok := m[k].(float64); ok && f > 0 {
			return time.UnixMilli(int64(f)).UTC()
		}
		return time.Time{}
	}
	c := &source.Conversation{ID: str(st, "sessionId"), Agent: Name, Title: str(st, "customTitle"), TranscriptPath: path,
		Created: ms(st, "creationDate"), Updated: ms(st, "lastMessageDate")}
	requests, _ := st["requests"].([]any)
	for _, r := range requests {
		req, _ := r.(map[string]any)
		if req == nil {
			continue
		}
		at := ms(req, "timestamp")
		if at.After(c.Updated) {
			c.Updated = at
		}
		msg, _ := req["message"].(map[string]any)
		if text := str(msg, "text"); text != "" {
			c.Prompts = append(c.Prompts, text)
			c.Messages = append(c.Messages, source.Message{Role: "user", CreatedAt: at, Text: text})
		}
		if m := strings.TrimPrefix(str(req, "modelId"), "copilot/"); m != "" {
			c.Model = m
		}
		answer := source.Message{Role: "assistant", CreatedAt: at}
		var text strings.Builder
		// The text parts are fragments of one stream: the words before an
		// edit are those since the last tool call, else the turn's last.
		var said source.Said
		since := 0
		parts, _ := req["response"].([]any)
		for _, p := range parts {
			part, _ := p.(map[string]any)
			kind := str(part, "kind")
			if kind != "" {
				said.Say(text.String()[since:])
				since = text.Len()
			}
			switch kind {
			case "":
				text.WriteString(str(part, "value"))
			case "toolInvocationSerialized":
				answer.Tools = append(answer.Tools, source.ToolCall{Name: str(part, "toolId")})
			case "textEditGroup":
				uri, _ := part["uri"].(map[string]any)
				file := fsPath(uri)
				var added []string
				groups, _ := part["edits"].([]any)
				for _, g := range groups {
					edits, _ := g.([]any)
					for _, e := range edits {
						em, _ := e.(map[string]any)
						if t := str(em, "text"); strings.TrimSpace(t) != "" {
							added = append(added, t)
						}
					}
				}
				if file != "" {
					c.Edits = append(c.Edits, source.Edit{Path: file, Added: strings.Join(added, "\n"), At: at, Words: said.Last()})
				}
			}
		}
		answer.Text = strings.TrimSpace(text.String())
		if answer.Text != "" || len(answer.Tools) > 0 {
			c.Messages = append(c.Messages, answer)
		}
	}
	return c
}

// fsPath is a VS Code URI's file path.
func fsPath(uri map[string]any) string {
	if p, _ := uri["fsPath"].(string); p != "" {
		return p
	}
	if s, _ := uri["scheme"].(string); s == "file" || s == "" {
		p, _ := uri["path"].(string)
		return p
	}
	return ""
}

// workspaceFolder is the folder a workspaceStorage/<hash> belongs to (its
// workspace.json's "folder", a file:// URI); "" for another kind.
func workspaceFolder(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "workspace.json"))
	if err != nil {
		return ""
	}
	var w struct {
		Folder string `json:"folder"`
	}
	if json.Unmarshal(b, &w) != nil {
		return ""
	}
	u, err := url.Parse(w.Folder)
	if err != nil || u.Scheme != "file" {
		return ""
	}
	return filepath.FromSlash(u.Path)
}

// chatSessions lists the chat sessions of the workspaces that lie in roots.
func chatSessions(storage string, roots []string) []source.Ref {
	dirs, _ := os.ReadDir(storage)
	var out []source.Ref
	for _, d := range dirs {
		dir := filepath.Join(storage, d.Name())
		folder := workspaceFolder(dir)
		if folder == "" || !source.InAny(folder, roots) {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(dir, "chatSessions", "*.json*"))
		for _, f := range files {
			fi, err := os.Stat(f)
			if err != nil || !fi.Mode().IsRegular() || !(strings.HasSuffix(f, ".json") || strings.HasSuffix(f, ".jsonl")) {
				continue
			}
			c, err := ReadChatSession(f)
			if err != nil || c.ID == "" {
				continue
			}
			out = append(out, source.Ref{ID: c.ID, TranscriptPath: f, Cwd: folder, Updated: fi.ModTime()})
		}
	}
	return out
}
