// Package codex is everything git-convo knows about OpenAI's Codex CLI: its
// hook payloads (codex-rs/hooks), its hooks.json (~/.codex, CODEX_HOME, or
// <repo>/.codex; the [hooks] of config.toml read for doctor), its apply_patch
// edits, and its session rollouts under
// ~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl. It implements source.Agent.
package codex

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/git-convo/git-convo/pkg/agents/formats/hookcfg"
	"github.com/git-convo/git-convo/pkg/agents/source"
)

// Name is the agent's name in links.sqlite and in output.
const Name = "codex"

// Home is Codex's directory: CODEX_HOME, else ~/.codex; "" when neither can
// be known.
func Home(getenv func(string) string) string {
	return source.UserDir(getenv, "CODEX_HOME", ".codex")
}

// Agent is the Codex CLI, whole.
type Agent struct{}

var _ source.Agent = Agent{}

// Name implements source.Agent.
func (Agent) Name() string { return Name }

// Source implements source.Agent.
func (Agent) Source(getenv func(string) string) source.Source { return Source{Home: Home(getenv)} }

// Store implements source.Agent: the sessions folder of Codex's directory.
func (Agent) Store(getenv func(string) string) (string, error) {
	h := Home(getenv)
	if h == "" {
		return "", errors.New("cannot find Codex's directory (HOME is not set): set CODEX_HOME")
	}
	return filepath.Join(h, "sessions"), nil
}

// approval is what install and doctor say of Codex's trust review.
const approval = "Codex asks you to review new hooks before it runs them: approve git-convo's in Codex (/hooks) once, or nothing is captured."

// Words implements source.Agent.
func (Agent) Words() source.Words {
	return source.Words{
		Display: "Codex",
		Worker:  "Codex",
		Reload:  "Codex reads its hooks at start-up: start a new session. " + approval,
		Install: `Codex: when ~/.codex (or CODEX_HOME) exists, ~/.codex/hooks.json gets "git-convo capture
--agent codex" for SessionStart, UserPromptSubmit, PostToolUse and Stop. --codex=project
writes <repo>/.codex/hooks.json instead (Codex runs it in a trusted project); --codex=none
skips it. Every other hook is kept; uninstall restores the file byte for byte when nothing
else changed it. Codex asks you to approve new hooks (/hooks) before it runs them.`,
		InstallFlag:   "where to install Codex's hooks: user, project or none (default: the last choice, git config convo.codex, else user when ~/.codex or CODEX_HOME exists, else none)",
		UninstallFlag: "also remove the user-level Codex hooks (~/.codex/hooks.json)",
		Uninstall:     "--codex removes them from the user-level ~/.codex/hooks.json (restored byte for byte when nothing else changed it since the install).",
		Capture: `--agent codex: Codex's hook payloads (prompts; the files and lines of an apply_patch, from
the patch; a git commit run through its shell tool; the rollout at Stop).`,
		Store: "Codex's session rollout",
		Import: `Codex's sessions (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl, or under CODEX_HOME) whose
recorded cwd lies in the repository, with the edits of their apply_patch calls.`,
		Env: [][2]string{{"CODEX_HOME", "Codex's directory (default: ~/.codex), where its hooks.json and sessions are."}},
	}
}

// Specs are the events git-convo registers in hooks.json (timeouts in
// seconds). No matcher: the tools are told apart in the payload.
func Specs() []hookcfg.Spec {
	return []hookcfg.Spec{
		{Event: "SessionStart", Timeout: 5},
		{Event: "UserPromptSubmit", Timeout: 5},
		{Event: "PostToolUse", Timeout: 10},
		{Event: "Stop", Timeout: 10},
	}
}

// ErrMalformed: the hooks file cannot be merged; it is left untouched.
var ErrMalformed = errors.New("malformed Codex hooks.json")

// config is hooks.json, as package hookcfg merges it.
func config() hookcfg.Config {
	return hookcfg.Config{Kind: "codex-hooks", Malformed: ErrMalformed, Ours: func(h json.RawMessage) bool {
		c, _ := source.CaptureEntry(h)
		return ours(c)
	}}
}

// ours reports whether a hook command is git-convo's capture for Codex.
func ours(command string) bool {
	return source.IsCapture(command) && strings.Contains(command, "--agent codex")
}

// userHooks is the user-level hooks.json, and whether Codex's directory
// exists (Codex is installed).
func userHooks(getenv func(string) string) (path string, present bool) {
	h := Home(getenv)
	if h == "" {
		return "", false
	}
	fi, err := os.Stat(h)
	return filepath.Join(h, "hooks.json"), err == nil && fi.IsDir()
}

func projectHooks(top string) string { return filepath.Join(top, ".codex", "hooks.json") }

// configFiles are the config.toml files whose [hooks] Codex reads beside
// the hooks.json files: the repository's, then the user's.
func configFiles(env source.HookEnv) []string {
	var out []string
	if env.TopLevel != "" {
		out = append(out, filepath.Join(env.TopLevel, ".codex", "config.toml"))
	}
	if h := Home(env.Getenv); h != "" {
		out = append(out, filepath.Join(h, "config.toml"))
	}
	return out
}

// DefaultScope implements source.Agent: the user's hooks.json when Codex is
// installed, else none.
func (Agent) DefaultScope(env source.HookEnv) source.Scope {
	if _, present := userHooks(env.Getenv); present {
		return source.ScopeUser
	}
	return source.ScopeNone
}

// InstallHooks implements source.Agent.
func (Agent) InstallHooks(env source.HookEnv, scope source.Scope) ([]string, error) {
	return files(env).Install(scope, env.Executable, env.BackupDir, " ("+approval+")")
}

// files are Codex's hooks files, the project's and the user's.
func files(env source.HookEnv) hookcfg.Files {
	user, present := userHooks(env.Getenv)
	return hookcfg.Files{Config: config(), Name: Name, Display: "Codex", FileName: "hooks.json",
		Project: projectHooks(env.TopLevel), User: user, Present: present,
		Absent: "Codex not found (no ~/.codex or CODEX_HOME)", HomeVar: "CODEX_HOME", Note: " (Codex runs them once you approve them: /hooks in Codex)", Specs: Specs()}
}

// UninstallHooks implements source.Agent.
func (Agent) UninstallHooks(env source.HookEnv, user bool) ([]string, error) {
	return files(env).Uninstall(env.BackupDir, user)
}

// CheckHooks implements source.Agent. Codex keeps whether the user approved
// a hook to itself: doctor tells a missing hook from an installed one, and
// says an installed one runs once approved (doctor's "last capture" line
// says whether any agent's hook ran). Hooks the user wrote in config.toml's
// [hooks] count too: Codex runs the hooks of every file, so the events of
// all of them together are what is installed.
func (Agent) CheckHooks(env source.HookEnv) (source.Check, []source.Check) {
	f := files(env)
	c := f.Check()
	if c.State == source.CheckOK || c.State == source.CheckWarn {
		return c, nil
	}
	have := map[string]bool{}
	var where []string
	for _, p := range configFiles(env) {
		found := false
		for event, cmds := range tomlHookCommands(p) {
			for _, cmd := range cmds {
				if ours(cmd) {
					have[event], found = true, true
				}
			}
		}
		if found {
			where = append(where, p)
		}
	}
	if len(where) == 0 {
		return c, nil
	}
	for _, p := range []string{f.Project, f.User} {
		if events, _, err := f.Installed(p, f.Specs); err == nil {
			for _, e := range events {
				have[e] = true
			}
		}
	}
	var missing []string
	for _, s := range f.Specs {
		if !have[s.Event] {
			missing = append(missing, s.Event)
		}
	}
	c = source.Check{Name: c.Name, Detail: strings.Join(where, ", ") + " ([hooks])" + f.Note}
	if len(missing) > 0 {
		c.State, c.Detail = source.CheckPartial, fmt.Sprintf("%s ([hooks]) lacks %v", strings.Join(where, ", "), missing)
		c.Fix = "add them to that [hooks] table (hooks.json has them all: git convo install --codex=user, and take git-convo's out of config.toml, or Codex runs both)"
	}
	return c, nil
}

// UserLeftovers implements source.Leftovers.
func (Agent) UserLeftovers(env source.HookEnv) []string { return files(env).Leftovers() }

// Source reads Codex's sessions under Home.
type Source struct {
	Home string
}

var _ source.Source = Source{}

// Name implements source.Source.
func (Source) Name() string { return Name }

// ParseHook implements source.Source.
func (Source) ParseHook(data []byte) (source.Activity, error) { return ParseHook(data) }

// ReadConversation reads the session's rollout: the path the hooks gave,
// else <Home>/sessions/*/*/*/rollout-*-<id>.jsonl.
func (s Source) ReadConversation(_ context.Context, id string, hint source.Hint) (*source.Conversation, error) {
	var paths []string
	if hint.TranscriptPath != "" {
		paths = append(paths, hint.TranscriptPath)
	}
	if s.Home != "" && id != "" && !strings.ContainsAny(id, `/\*?[`) {
		found, _ := filepath.Glob(filepath.Join(s.Home, "sessions", "*", "*", "*", "rollout-*-"+id+".jsonl"))
		paths = append(paths, found...)
	}
	for _, p := range paths {
		if c, err := ReadRollout(p); err == nil && (c.ID == "" || c.ID == id) {
			c.ID = id
			return c, nil
		}
	}
	return nil, source.ErrNotFound
}

// ListConversations returns the sessions whose recorded cwd lies in one of
// roots.
func (s Source) ListConversations(_ context.Context, roots []string) ([]source.Ref, error) {
	if s.Home == "" {
		return nil, nil // no Codex here: nothing of it to import
	}
	dir := filepath.Join(s.Home, "sessions")
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, nil
	}
	files, err := filepath.Glob(filepath.Join(dir, "*", "*", "*", "rollout-*.jsonl"))
	if err != nil {
		return nil, err
	}
	var out []source.Ref
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		m, ok := readMeta(f)
		if !ok || m.Cwd == "" || !source.InAny(m.Cwd, roots) {
			continue
		}
		out = append(out, source.Ref{ID: m.ID, TranscriptPath: f, Cwd: m.Cwd, Updated: fi.ModTime()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}
