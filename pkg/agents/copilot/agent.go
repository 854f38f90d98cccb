// Package copilot is everything git-convo knows about GitHub's Copilot CLI:
// its camelCase hook payloads, its hooks file in the repository
// (.github/hooks/git-convo.json), its edit and create tools, and its session
// logs under ~/.copilot/session-state/<id>/events.jsonl. It implements
// source.Agent.
package copilot

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/git-convo/git-convo/pkg/agents/formats/eventstream"
	"github.com/git-convo/git-convo/pkg/agents/source"
)

// Name is the agent's name in links.sqlite and in output.
const Name = "copilot"

// Dir is the Copilot CLI's directory, ~/.copilot ("" when HOME is unknown).
func Dir(getenv func(string) string) string { return source.UserDir(getenv, "", ".copilot") }

// Agent is the Copilot CLI, whole.
type Agent struct{}

var _ source.Agent = Agent{}

// Name implements source.Agent.
func (Agent) Name() string { return Name }

// Source implements source.Agent.
func (Agent) Source(getenv func(string) string) source.Source { return Source{Dir: Dir(getenv)} }

// Store implements source.Agent.
func (Agent) Store(getenv func(string) string) (string, error) {
	d := Dir(getenv)
	if d == "" {
		return "", errors.New("cannot find the Copilot CLI's directory (HOME is not set)")
	}
	return filepath.Join(d, "session-state"), nil
}

// Words implements source.Agent.
func (Agent) Words() source.Words {
	return source.Words{
		Display: "Copilot CLI",
		Worker:  "the Copilot CLI",
		Reload:  "The Copilot CLI reads .github/hooks at start-up: start a new session.",
		Install: `Copilot CLI: it reads hooks from the repository alone (.github/hooks/*.json, a tracked folder),
so git-convo writes .github/hooks/git-convo.json, "git-convo capture --agent copilot --event
<event>" for sessionStart, userPromptSubmitted, preToolUse, postToolUse, agentStop and
sessionEnd. --copilot=user (the default when ~/.copilot exists) names this machine's
git-convo and adds the file to .git/info/exclude, so it never reaches a commit; a tracked
file is never given a machine path. --copilot=project writes a portable command, for
teams that commit it; --copilot=none skips it.`,
		InstallFlag:   "Copilot CLI's hooks in .github/hooks/git-convo.json: user (this machine's path, excluded from git), project (portable, to commit) or none",
		UninstallFlag: "nothing more: the Copilot CLI's hooks are the repository's, always removed",
		Uninstall:     "The Copilot CLI's .github/hooks/git-convo.json is the repository's: uninstall removes git-convo's entries (the file, when git-convo made it) and its .git/info/exclude lines.",
		Capture: `--agent copilot --event <event>: the Copilot CLI's hook payloads (camelCase, naming no
event: the hook command does). Prompts; the lines its edit (old_str, new_str) and create
(file_text) tools wrote, diffed against the file before the tool ran; a git commit run
through its bash tool; the session's events.jsonl at agentStop and sessionEnd.`,
		Store: "the Copilot CLI's events.jsonl",
		Import: `Copilot CLI sessions (~/.copilot/session-state/<id>/events.jsonl) whose session.start cwd
lies in the repository.`,
	}
}

// DefaultScope implements source.Agent: user when the Copilot CLI is
// installed (~/.copilot exists), else none.
func (Agent) DefaultScope(env source.HookEnv) source.Scope {
	if fi, err := os.Stat(Dir(env.Getenv)); err == nil && fi.IsDir() && Dir(env.Getenv) != "" {
		return source.ScopeUser
	}
	return source.ScopeNone
}

// InstallHooks implements source.Agent.
func (Agent) InstallHooks(env source.HookEnv, scope source.Scope) ([]string, error) {
	if env.TopLevel == "" {
		return nil, errors.New("the Copilot CLI reads hooks from a repository's .github/hooks: run install in one")
	}
	path := HooksFile(env.TopLevel)
	if scope == source.ScopeProject {
		res, err := install(path, "git-convo", env.BackupDir)
		if err != nil {
			return nil, err
		}
		return []string{fmt.Sprintf("%s: Copilot CLI hooks %s (a portable command: commit it to share it with the team)", path, res)}, nil
	}
	if tracked(env.TopLevel, path) {
		// The team's file: never a machine path in it.
		res, err := install(path, "git-convo", env.BackupDir)
		if err != nil {
			return nil, err
		}
		return []string{fmt.Sprintf("%s: Copilot CLI hooks %s (tracked by git: a portable command, never this machine's path)", path, res)}, nil
	}
	ex, err := exclude(env.TopLevel)
	if err != nil {
		return nil, err
	}
	res, err := install(path, env.Executable, env.BackupDir)
	if err != nil {
		return nil, err
	}
	return []string{fmt.Sprintf("%s: Copilot CLI hooks %s (it names this machine's git-convo: excluded from git in %s)", path, res, ex)}, nil
}

// UninstallHooks implements source.Agent: the repository's file (the
// Copilot CLI has no user-level one).
func (Agent) UninstallHooks(env source.HookEnv, _ bool) ([]string, error) {
	if env.TopLevel == "" {
		return nil, nil
	}
	path := HooksFile(env.TopLevel)
	res, err := uninstall(path, env.BackupDir)
	if err != nil {
		return nil, err
	}
	unexclude(env.TopLevel)
	if res == "not present" {
		return nil, nil
	}
	return []string{fmt.Sprintf("%s: Copilot CLI hooks %s", path, res)}, nil
}

// CheckHooks implements source.Agent: installed, in part, missing while the
// Copilot CLI is present, or not applicable; and a machine path in a file
// git would commit is a warning.
func (a Agent) CheckHooks(env source.HookEnv) (source.Check, []source.Check) {
	c := source.Check{Name: "copilot hooks"}
	if env.TopLevel == "" {
		c.State, c.Detail = source.CheckInfo, "outside a repository: nothing to check"
		return c, nil
	}
	path := HooksFile(env.TopLevel)
	have, missing, cmd, err := installed(path)
	switch {
	case err != nil && !os.IsNotExist(err):
		c.State, c.Detail, c.Fix = source.CheckWarn, err.Error(), "fix the file, then git convo install --copilot=user"
	case len(have) > 0 && !strings.HasPrefix(cmd, "git-convo ") && !ignored(env.TopLevel, path):
		c.State, c.Detail, c.Fix = source.CheckWarn, path+" names this machine's git-convo and git would commit it", "git convo install --copilot=user (excludes it) or --copilot=project (a portable command)"
	case len(have) > 0 && len(missing) > 0:
		c.State, c.Detail, c.Fix = source.CheckPartial, fmt.Sprintf("%s lacks %v", path, missing), "git convo install"
	case len(have) > 0:
		c.Detail = path
	case a.DefaultScope(env) == source.ScopeNone:
		c.State, c.Detail = source.CheckInfo, "Copilot CLI not found (no ~/.copilot): nothing to check"
	default:
		c.State, c.Detail, c.Fix = source.CheckMissing, "no .github/hooks file names git-convo capture", "git convo install --copilot=user"
	}
	return c, nil
}

// Source reads the Copilot CLI's sessions under Dir.
type Source struct {
	Dir string
}

var (
	_ source.Source      = Source{}
	_ source.EventHook   = Source{}
	_ source.HookReplier = Source{}
)

// Name implements source.Source.
func (Source) Name() string { return Name }

// ParseHook implements source.Source.
func (Source) ParseHook(data []byte) (source.Activity, error) { return ParseHook(data) }

// ParseHookEvent implements source.EventHook: the command names the event.
func (Source) ParseHookEvent(data []byte, event string) (source.Activity, error) {
	return ParseHookEvent(data, event)
}

// HookReply implements source.HookReplier: the Copilot CLI reads a hook's
// stdout as JSON (a preToolUse decision); {} decides nothing.
func (Source) HookReply(string) string { return "{}" }

// edits are the edits of the Copilot CLI's tools in its events.jsonl.
func edits(tool string, args map[string]any) []source.Edit {
	path, _ := args["path"].(string)
	if !isEdit(tool) || path == "" {
		return nil
	}
	_, added := edit(tool, args)
	return []source.Edit{{Path: path, Added: added}}
}

// ReadConversation reads the session's events.jsonl: the path the hooks
// gave, else <Dir>/session-state/<id>/events.jsonl.
func (s Source) ReadConversation(_ context.Context, id string, hint source.Hint) (*source.Conversation, error) {
	var paths []string
	if hint.TranscriptPath != "" {
		paths = append(paths, hint.TranscriptPath)
	}
	if s.Dir != "" && id != "" && !strings.ContainsAny(id, `/\*?[`) && id != ".." {
		paths = append(paths, filepath.Join(s.Dir, "session-state", id, "events.jsonl"))
	}
	for _, p := range paths {
		if c, err := eventstream.Read(p, Name, edits); err == nil && (c.ID == "" || c.ID == id) {
			c.ID = id
			return c, nil
		}
	}
	return nil, source.ErrNotFound
}

// ListConversations returns the sessions whose session.start cwd lies in
// one of roots.
func (s Source) ListConversations(_ context.Context, roots []string) ([]source.Ref, error) {
	dir := filepath.Join(s.Dir, "session-state")
	if fi, err := os.Stat(dir); s.Dir == "" || err != nil || !fi.IsDir() {
		return nil, nil // no Copilot CLI here: nothing of it to import
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*", "events.jsonl"))
	var out []source.Ref
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		cwd, id := eventstream.SessionCwd(f)
		if cwd == "" || !source.InAny(cwd, roots) {
			continue
		}
		if id == "" {
			id = filepath.Base(filepath.Dir(f))
		}
		out = append(out, source.Ref{ID: id, TranscriptPath: f, Cwd: cwd, Updated: fi.ModTime()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}
