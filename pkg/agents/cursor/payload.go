// Package cursor is everything git-convo knows about Cursor: its hook
// payloads, its hooks.json, its state.vscdb database and transcripts.
package cursor

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/git-convo/git-convo/pkg/agents/source"
)

// Payload is one hook event as Cursor sends it on stdin. Every field is
// optional: Cursor's payloads change across versions, so parsing is lenient.
type Payload struct {
	ConversationID string       `json:"conversation_id"`
	GenerationID   string       `json:"generation_id"`
	Event          string       `json:"hook_event_name"`
	WorkspaceRoots []string     `json:"workspace_roots"`
	Model          string       `json:"model"`
	CursorVersion  string       `json:"cursor_version"`
	UserEmail      string       `json:"user_email"`
	TranscriptPath string       `json:"transcript_path"`
	SessionID      string       `json:"session_id"`
	ComposerMode   string       `json:"composer_mode"`
	FilePath       string       `json:"file_path"`
	Edits          []Edit       `json:"edits"`
	Prompt         string       `json:"prompt"`
	Attachments    []Attachment `json:"attachments"`
	Status         string       `json:"status"`
	Text           string       `json:"text"`
	ToolName       string       `json:"tool_name"`
	ToolInput      ToolInput    `json:"tool_input"`
	Cwd            string       `json:"cwd"`
	IsBackground   bool         `json:"is_background_agent"`
	// Shell executions: afterShellExecution's command and output, and
	// postToolUse's tool_output (a shell tool's output among them).
	Command    string `json:"command"`
	Output     string `json:"output"`
	ToolOutput string `json:"tool_output"`
}

// Edit is one search/replace of afterFileEdit.
type Edit struct {
	OldString string `json:"old_string"`
	NewString string `json:"new_string"`
}

// Attachment is a file attached to a prompt.
type Attachment struct {
	Type     string `json:"type"`
	FilePath string `json:"filePath"`
}

// ToolInput is postToolUse's tool_input: an object, or a JSON string holding one.
type ToolInput map[string]any

// UnmarshalJSON accepts an object or a string containing an object.
func (t *ToolInput) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		var m map[string]any
		if json.Unmarshal([]byte(s), &m) == nil {
			*t = m
		}
		return nil
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil // a shape we do not know: ignore, never fail the hook
	}
	*t = m
	return nil
}

func (t ToolInput) str(keys ...string) string {
	for _, k := range keys {
		if v, ok := t[k].(string); ok && v != "" {
			return v
		}
	}
	return ""
}

// ErrBadPayload is returned for input that is not a JSON object.
var ErrBadPayload = source.ErrBadPayload

// ParsePayload parses one hook payload. It accepts a UTF-8 BOM, unknown
// fields and nulls; it refuses empty input and anything but a JSON object.
func ParsePayload(data []byte) (*Payload, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, fmt.Errorf("%w: stdin was empty (Cursor sends the event as JSON on stdin)", ErrBadPayload)
	}
	// Errors describe the input's shape, never its content: a payload can
	// hold the user's prompt, and errors go to the log (docs/privacy.md).
	if trimmed[0] != '{' {
		return nil, fmt.Errorf("%w: %d bytes that do not start with '{'", ErrBadPayload, len(trimmed))
	}
	// Decode leniently: first into raw fields, so one field of an unexpected
	// type does not lose the rest.
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &raw); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("%w: invalid JSON at byte %d of %d", ErrBadPayload, se.Offset, len(trimmed))
		}
		return nil, fmt.Errorf("%w: invalid JSON (%d bytes)", ErrBadPayload, len(trimmed))
	}
	p := &Payload{}
	for key, val := range raw {
		setField(p, key, val)
	}
	return p, nil
}

// setField decodes one known field, ignoring values of the wrong type.
func setField(p *Payload, key string, val json.RawMessage) {
	str := func(dst *string) {
		var s string
		if json.Unmarshal(val, &s) == nil {
			*dst = s
		}
	}
	switch key {
	case "conversation_id":
		str(&p.ConversationID)
	case "generation_id":
		str(&p.GenerationID)
	case "hook_event_name":
		str(&p.Event)
	case "workspace_roots":
		var roots []string
		if json.Unmarshal(val, &roots) == nil {
			p.WorkspaceRoots = roots
		}
	case "model":
		str(&p.Model)
	case "cursor_version":
		str(&p.CursorVersion)
	case "user_email":
		str(&p.UserEmail)
	case "transcript_path":
		str(&p.TranscriptPath)
	case "session_id":
		str(&p.SessionID)
	case "composer_mode":
		str(&p.ComposerMode)
	case "file_path":
		str(&p.FilePath)
	case "edits":
		var e []Edit
		if json.Unmarshal(val, &e) == nil {
			p.Edits = e
		}
	case "prompt":
		str(&p.Prompt)
	case "attachments":
		var a []Attachment
		if json.Unmarshal(val, &a) == nil {
			p.Attachments = a
		}
	case "status":
		str(&p.Status)
	case "text":
		str(&p.Text)
	case "tool_name":
		str(&p.ToolName)
	case "tool_input":
		_ = json.Unmarshal(val, &p.ToolInput)
	case "cwd":
		str(&p.Cwd)
	case "is_background_agent":
		_ = json.Unmarshal(val, &p.IsBackground)
	case "command":
		str(&p.Command)
	case "output":
		str(&p.Output)
	case "tool_output":
		str(&p.ToolOutput)
	}
}

// ViaThirdParty reports a Cursor payload that reached a Claude Code hook file
// (Cursor's third-party hooks send Cursor-format payloads there too). Rule:
// Cursor's payloads carry conversation_id with workspace_roots or
// cursor_version; Claude Code's own carry session_id and neither of those.
// The caller, registered as a Claude hook, skips it: the same event also
// arrives through hooks.json and must be counted once.
func (p *Payload) ViaThirdParty() bool {
	return p.ConversationID != "" && (len(p.WorkspaceRoots) > 0 || p.CursorVersion != "")
}

// editTools are the postToolUse tools that change files, by normalised name.
func isEditTool(name string) bool {
	switch strings.ToLower(strings.ReplaceAll(name, "_", "")) {
	case "write", "strreplace", "delete", "applypatch", "editnotebook", "editfile", "searchreplace", "multiedit", "edit", "deletefile":
		return true
	}
	return false
}

// EditedFiles returns the files this payload says were edited, as sent
// (absolute, or relative to Cursor's cwd / first workspace root, resolved).
func (p *Payload) EditedFiles() []string {
	var out []string
	seen := map[string]bool{} // an event can name 100,000 files: no quadratic scan
	add := func(path string) {
		if path == "" {
			return
		}
		if !isAbsAny(path) {
			base := p.Cwd
			if base == "" && len(p.WorkspaceRoots) > 0 {
				base = p.WorkspaceRoots[0]
			}
			if base != "" {
				path = filepath.Join(base, path)
			}
		}
		if seen[path] {
			return
		}
		seen[path] = true
		out = append(out, path)
	}
	switch p.Event {
	case "afterFileEdit", "afterTabFileEdit":
		add(p.FilePath)
	case "postToolUse":
		if !isEditTool(p.ToolName) {
			return nil
		}
		add(p.ToolInput.str("file_path", "path", "filePath", "target_file", "target_notebook"))
		for _, f := range patchFiles(p.ToolInput.str("patch", "input", "diff")) {
			add(f)
		}
	default:
		if p.FilePath != "" && len(p.Edits) > 0 {
			add(p.FilePath)
		}
	}
	return out
}

// patchFiles lists the files an ApplyPatch text or unified diff touches.
func patchFiles(patch string) []string {
	var out []string
	for _, line := range strings.Split(patch, "\n") {
		line = strings.TrimRight(line, "\r")
		for _, prefix := range []string{"*** Update File: ", "*** Add File: ", "*** Delete File: ", "*** Move to: "} {
			if f, ok := strings.CutPrefix(line, prefix); ok {
				out = append(out, strings.TrimSpace(f))
			}
		}
		if f, ok := strings.CutPrefix(line, "+++ "); ok {
			f = strings.TrimSpace(f)
			if f != "/dev/null" {
				out = append(out, strings.TrimPrefix(f, "b/"))
			}
		}
	}
	return out
}

func isAbsAny(p string) bool {
	return strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) || (len(p) > 2 && p[1] == ':')
}
