// Package vscode is everything git-convo knows about VS Code's agent mode
// (GitHub Copilot Chat): its hook payloads, which reach git-convo through
// Claude Code's hooks (VS Code reads ~/.claude/settings.json and the
// repository's .claude/settings*.json), and the session's event stream
// its payloads' transcript_path names. It implements source.Agent; its
// hooks are Claude Code's (pkg/agents/claude recognises VS Code's payloads and
// hands them over: Activity.Sender).
package vscode

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/git-convo/git-convo/pkg/agents/source"
)

// Name is the agent's name in links.sqlite and in output.
const Name = "vscode"

// Agent is VS Code's agent mode, whole.
type Agent struct{}

var _ source.Agent = Agent{}

// Name implements source.Agent.
func (Agent) Name() string { return Name }

// Source implements source.Agent.
func (Agent) Source(getenv func(string) string) source.Source {
	return Source{Storage: userDir(getenv)}
}

// Store implements source.Agent: VS Code's workspace storage, where Copilot
// Chat keeps its sessions (and, under GitHub.copilot-chat/transcripts, the
// event streams the hooks name).
func (Agent) Store(getenv func(string) string) (string, error) {
	return userDir(getenv), nil
}

// userDir is VS Code's User folder of workspaceStorage.
func userDir(getenv func(string) string) string {
	home := getenv("HOME")
	switch runtime.GOOS {
	case "darwin":
		return filepath.Join(home, "Library", "Application Support", "Code", "User", "workspaceStorage")
	case "windows":
		return filepath.Join(getenv("APPDATA"), "Code", "User", "workspaceStorage")
	}
	if x := getenv("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "Code", "User", "workspaceStorage")
	}
	return filepath.Join(home, ".config", "Code", "User", "workspaceStorage")
}

// Words implements source.Agent.
func (Agent) Words() source.Words {
	return source.Words{
		Display: "VS Code",
		Worker:  "VS Code's agent mode",
		Reload:  "VS Code agent mode runs Claude Code's hooks (install --claude): start a new chat session to pick them up.",
		Install: `VS Code agent mode: runs Claude Code's hooks (~/.claude/settings.json, and .claude/settings.json
in the repository, unless chat.hookFilesLocations turns them off), so install --claude serves
it; its sessions are recorded as VS Code's. --vscode writes nothing.`,
		InstallFlag:   "VS Code agent mode runs Claude Code's hooks: use --claude (this writes nothing)",
		UninstallFlag: "VS Code agent mode runs Claude Code's hooks: use --claude (this removes nothing)",
		Uninstall:     "VS Code agent mode runs Claude Code's hooks: uninstall --claude removes them.",
		Capture: `VS Code agent mode sends its payloads (camelCase sessionId, hookEventName) to Claude Code's
hooks, --agent claude: they are recorded as VS Code's. Prompts; the lines its file tools
(editFiles, create_file, replace_string_in_file, apply_patch, ...) changed, by a diff of
the file between the tool's PreToolUse and its PostToolUse; a git commit run in its
terminal; the session's event stream at Stop.`,
		Store: "VS Code's session transcript",
		Import: `VS Code's Copilot Chat sessions (workspaceStorage/<hash>/chatSessions/*.json and .jsonl, under
~/.config/Code/User, ~/Library/Application Support/Code/User or %APPDATA%\Code\User) of the
workspaces whose folder lies in the repository, with the edits of their textEditGroups.`,
	}
}

// DefaultScope implements source.Agent: VS Code has no hooks file of
// git-convo's own; Claude Code's serve it.
func (Agent) DefaultScope(source.HookEnv) source.Scope { return source.ScopeNone }

// InstallHooks implements source.Agent: nothing to write, and says why.
func (Agent) InstallHooks(_ source.HookEnv, _ source.Scope) ([]string, error) {
	return []string{"VS Code agent mode: served by Claude Code's hooks (install --claude); nothing written"}, nil
}

// UninstallHooks implements source.Agent: nothing of VS Code's own.
func (Agent) UninstallHooks(source.HookEnv, bool) ([]string, error) { return nil, nil }

// CheckHooks implements source.Agent: VS Code's capture is Claude Code's
// hooks, which doctor checks as "claude hooks".
func (Agent) CheckHooks(env source.HookEnv) (source.Check, []source.Check) {
	c := source.Check{Name: "vscode hooks", State: source.CheckInfo,
		Detail: "VS Code agent mode runs Claude Code's hooks (see claude hooks), unless its chat.hookFilesLocations setting turns them off"}
	return c, nil
}

// Source reads VS Code agent mode's sessions: the event streams its hooks
// name, and for import the chat sessions under Storage (workspaceStorage).
type Source struct {
	Storage string
}

var _ source.Source = Source{}

// Name implements source.Source.
func (Source) Name() string { return Name }

// ParseHook implements source.Source.
func (Source) ParseHook(data []byte) (source.Activity, error) { return ParseHook(data) }

// HookReply implements source.HookReplier: VS Code parses a hook's stdout
// as JSON; {} changes nothing.
func (Source) HookReply(string) string { return "{}" }

// ReadConversation reads the session's event stream, at the path its
// hooks gave.
func (Source) ReadConversation(_ context.Context, id string, hint source.Hint) (*source.Conversation, error) {
	p := hint.TranscriptPath
	if p == "" {
		return nil, source.ErrNotFound
	}
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			p = filepath.Join(home, rest)
		}
	}
	read := ReadTranscript
	if filepath.Base(filepath.Dir(p)) == "chatSessions" {
		read = ReadChatSession // an imported session
	}
	c, err := read(p)
	if err != nil {
		return nil, source.ErrNotFound
	}
	if c.ID != "" && c.ID != id {
		return nil, source.ErrNotFound // another session's stream
	}
	c.ID = id
	return c, nil
}

// ListConversations implements source.Source: the chat sessions of the
// workspaces (workspace.json's folder) that lie in roots.
func (s Source) ListConversations(_ context.Context, roots []string) ([]source.Ref, error) {
	if fi, err := os.Stat(s.Storage); s.Storage == "" || err != nil || !fi.IsDir() {
		return nil, nil // no VS Code here: nothing of it to import
	}
	refs := chatSessions(s.Storage, roots)
	sort.Slice(refs, func(i, j int) bool { return refs[i].ID < refs[j].ID })
	return refs, nil
}
