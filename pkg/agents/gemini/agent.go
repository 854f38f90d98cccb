// Package gemini is everything git-convo knows about Google's Gemini CLI:
// its hook payloads, its settings.json (~/.gemini, under GEMINI_CLI_HOME,
// or <repo>/.gemini), its write_file and replace edits, and its sessions
// under ~/.gemini/tmp/<project>/chats/. It implements source.Agent.
package gemini

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/git-convo/git-convo/pkg/agents/formats/hookcfg"
	"github.com/git-convo/git-convo/pkg/agents/source"
)

// Name is the agent's name in links.sqlite and in output.
const Name = "gemini"

// Dir is Gemini CLI's directory: $GEMINI_CLI_HOME/.gemini, else ~/.gemini;
// "" when neither can be known.
func Dir(getenv func(string) string) string {
	if h := getenv("GEMINI_CLI_HOME"); h != "" {
		return filepath.Join(h, ".gemini")
	}
	return source.UserDir(getenv, "", ".gemini")
}

// Agent is the Gemini CLI, whole.
type Agent struct{}

var _ source.Agent = Agent{}

// Name implements source.Agent.
func (Agent) Name() string { return Name }

// Source implements source.Agent.
func (Agent) Source(getenv func(string) string) source.Source { return Source{Dir: Dir(getenv)} }

// Store implements source.Agent: the tmp folder of its directory, where
// each project's chats are.
func (Agent) Store(getenv func(string) string) (string, error) {
	d := Dir(getenv)
	if d == "" {
		return "", errors.New("cannot find Gemini CLI's directory (HOME is not set): set GEMINI_CLI_HOME")
	}
	return filepath.Join(d, "tmp"), nil
}

// Words implements source.Agent.
func (Agent) Words() source.Words {
	return source.Words{
		Display: "Gemini CLI",
		Worker:  "Gemini CLI",
		Reload:  "Gemini CLI reads its settings at start-up: start a new session.",
		Install: `Gemini CLI: when ~/.gemini (or $GEMINI_CLI_HOME/.gemini) exists, ~/.gemini/settings.json gets
"git-convo capture --agent gemini" for SessionStart, BeforeAgent, BeforeTool and AfterTool
(write_file, replace, run_shell_command), AfterAgent and SessionEnd, with timeouts in
milliseconds (Gemini CLI waits for its hooks: capture keeps to its fast path).
--gemini=project writes <repo>/.gemini/settings.json instead; --gemini=none skips it.
Every other key and hook is kept; uninstall restores the file byte for byte when nothing
else changed it.`,
		InstallFlag:   "where to install Gemini CLI's hooks: user, project or none (default: the last choice, git config convo.gemini, else user when ~/.gemini exists, else none)",
		UninstallFlag: "also remove the user-level Gemini CLI hooks (~/.gemini/settings.json)",
		Uninstall:     "--gemini removes them from the user-level ~/.gemini/settings.json (restored byte for byte when nothing else changed it since the install).",
		Capture: `--agent gemini: Gemini CLI's hook payloads (prompts; the lines write_file and replace
wrote, diffed against the file before the tool ran; a git commit run through
run_shell_command; the session file at AfterAgent and SessionEnd). It prints {} on stdout.`,
		Store: "Gemini CLI's session file",
		Import: `Gemini CLI's sessions (~/.gemini/tmp/<project>/chats/session-*.json or .jsonl) of the
repository's work trees: <project> is the SHA-256 of the work tree's path, or a folder whose
.project_root names it.`,
		Env: [][2]string{{"GEMINI_CLI_HOME", "where Gemini CLI's .gemini directory is (default: your home), with its settings.json and sessions."}},
	}
}

// Specs are the events git-convo registers (timeouts in milliseconds).
func Specs() []hookcfg.Spec {
	return []hookcfg.Spec{
		{Event: "SessionStart", Timeout: 5000},
		{Event: "BeforeAgent", Timeout: 5000},
		{Event: "BeforeTool", Matcher: "write_file|replace", Timeout: 5000},
		{Event: "AfterTool", Matcher: "write_file|replace|run_shell_command", Timeout: 5000},
		{Event: "AfterAgent", Timeout: 10000},
		{Event: "SessionEnd", Timeout: 5000},
	}
}

// ErrMalformed: the settings file cannot be merged; it is left untouched.
var ErrMalformed = errors.New("malformed Gemini CLI settings.json")

func config() hookcfg.Config {
	return hookcfg.Config{Kind: "gemini-settings", Malformed: ErrMalformed, Enable: "enabled", Ours: func(h json.RawMessage) bool {
		c, ok := source.CaptureEntry(h)
		return ok && strings.Contains(c, "--agent gemini")
	}}
}

func userSettings(getenv func(string) string) (string, bool) {
	d := Dir(getenv)
	if d == "" {
		return "", false
	}
	fi, err := os.Stat(d)
	return filepath.Join(d, "settings.json"), err == nil && fi.IsDir()
}

func files(env source.HookEnv) hookcfg.Files {
	user, present := userSettings(env.Getenv)
	return hookcfg.Files{Config: config(), Name: Name, Display: "Gemini CLI", FileName: "settings.json",
		Project: filepath.Join(env.TopLevel, ".gemini", "settings.json"), User: user, Present: present,
		Absent: "Gemini CLI not found (no ~/.gemini or GEMINI_CLI_HOME)", HomeVar: "GEMINI_CLI_HOME", Specs: Specs()}
}

// DefaultScope implements source.Agent.
func (Agent) DefaultScope(env source.HookEnv) source.Scope {
	if _, present := userSettings(env.Getenv); present {
		return source.ScopeUser
	}
	return source.ScopeNone
}

// InstallHooks implements source.Agent.
func (Agent) InstallHooks(env source.HookEnv, scope source.Scope) ([]string, error) {
	return files(env).Install(scope, env.Executable, env.BackupDir, "")
}

// UninstallHooks implements source.Agent.
func (Agent) UninstallHooks(env source.HookEnv, user bool) ([]string, error) {
	return files(env).Uninstall(env.BackupDir, user)
}

// CheckHooks implements source.Agent.
func (Agent) CheckHooks(env source.HookEnv) (source.Check, []source.Check) {
	return files(env).Check(), nil
}

// UserLeftovers implements source.Leftovers.
func (Agent) UserLeftovers(env source.HookEnv) []string { return files(env).Leftovers() }

// Source reads Gemini CLI's sessions under Dir.
type Source struct {
	Dir string
}

var _ source.Source = Source{}

// Name implements source.Source.
func (Source) Name() string { return Name }

// ParseHook implements source.Source.
func (Source) ParseHook(data []byte) (source.Activity, error) { return ParseHook(data) }

// HookReply implements source.HookReplier: Gemini CLI parses a hook's
// stdout as JSON; {} changes nothing.
func (Source) HookReply(string) string { return "{}" }

// ReadConversation reads the session file the hooks named, else the one
// under <Dir>/tmp/*/chats whose name ends in the id's first 8 characters.
func (s Source) ReadConversation(_ context.Context, id string, hint source.Hint) (*source.Conversation, error) {
	var paths []string
	if hint.TranscriptPath != "" {
		paths = append(paths, hint.TranscriptPath)
	}
	if s.Dir != "" && len(id) >= 8 && !strings.ContainsAny(id, `/\*?[`) {
		for _, ext := range []string{".json", ".jsonl"} {
			found, _ := filepath.Glob(filepath.Join(s.Dir, "tmp", "*", "chats", "session-*"+id[:8]+ext))
			paths = append(paths, found...)
		}
	}
	for _, p := range paths {
		if c, err := ReadSession(p); err == nil && (c.ID == "" || c.ID == id) {
			c.ID = id
			return c, nil
		}
	}
	return nil, source.ErrNotFound
}

// ListConversations returns the sessions of the projects that are roots:
// <Dir>/tmp/<sha256 of the root>/chats, or a project folder whose
// .project_root file names the root.
func (s Source) ListConversations(_ context.Context, roots []string) ([]source.Ref, error) {
	tmp := filepath.Join(s.Dir, "tmp")
	if fi, err := os.Stat(tmp); s.Dir == "" || err != nil || !fi.IsDir() {
		return nil, nil // no Gemini CLI here: nothing of it to import
	}
	projects := map[string]string{} // folder: root
	for _, r := range roots {
		h := sha256.Sum256([]byte(r))
		projects[filepath.Join(tmp, hex.EncodeToString(h[:]))] = r
	}
	dirs, _ := os.ReadDir(tmp)
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(tmp, d.Name(), ".project_root"))
		if err != nil {
			continue
		}
		if root := strings.TrimSpace(string(b)); source.InAny(root, roots) {
			projects[filepath.Join(tmp, d.Name())] = root
		}
	}
	var out []source.Ref
	for dir, root := range projects {
		found, _ := filepath.Glob(filepath.Join(dir, "chats", "session-*.json*"))
		for _, f := range found {
			fi, err := os.Stat(f)
			if err != nil || !fi.Mode().IsRegular() || !(strings.HasSuffix(f, ".json") || strings.HasSuffix(f, ".jsonl")) {
				continue
			}
			c, err := ReadSession(f)
			if err != nil || c.ID == "" {
				continue
			}
			out = append(out, source.Ref{ID: c.ID, TranscriptPath: f, Cwd: root, Updated: fi.ModTime()})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}
