package claude

import (
	"os"
	"path/filepath"

	"github.com/git-convo/git-convo/pkg/agents/formats/hookcfg"
	"github.com/git-convo/git-convo/pkg/agents/source"
)

// Agent is Claude Code, whole: its source, its projects folder, and its
// settings.json at user level (~/.claude or CLAUDE_CONFIG_DIR) or in the
// repository (.claude).
type Agent struct{}

var _ source.Agent = Agent{}

// Name implements source.Agent.
func (Agent) Name() string { return Name }

// Source implements source.Agent.
func (Agent) Source(getenv func(string) string) source.Source {
	return Source{Dir: ConfigDir(getenv)}
}

// Store implements source.Agent: the projects folder of its configuration
// directory.
func (Agent) Store(getenv func(string) string) (string, error) {
	return filepath.Join(ConfigDir(getenv), "projects"), nil
}

// Words implements source.Agent.
func (Agent) Words() source.Words {
	return source.Words{
		Display: "Claude Code",
		Worker:  "Claude Code",
		Reload:  "Claude Code reads its hooks at start-up: start a new session (or restart running ones). VS Code agent mode runs the same hooks (its sessions are recorded as VS Code's).",
		Install: `Claude Code: when ~/.claude (or CLAUDE_CONFIG_DIR) exists, ~/.claude/settings.json gets
"git-convo capture --agent claude" for SessionStart, UserPromptSubmit, PostToolUse (edit
tools and Bash), Stop, SubagentStop and SessionEnd, with timeouts, async where Claude need
not wait. --claude=project writes <repo>/.claude/settings.json instead; --claude=none skips
it. Every other key and hook is kept; uninstall restores the file byte for byte when
nothing else changed it. These hooks serve VS Code agent mode too, which runs Claude Code's
hooks: its sessions are recorded as VS Code's, and a PreToolUse for VS Code's file tools
(a matcher no Claude Code tool has) lets capture diff the files those tools write.`,
		InstallFlag:   "where to install Claude Code's hooks: user, project or none (default: the last choice, git config convo.claude, else user when ~/.claude or CLAUDE_CONFIG_DIR exists, else none)",
		UninstallFlag: "also remove the user-level Claude Code hooks (~/.claude/settings.json)",
		Uninstall:     "--claude removes them from the user-level ~/.claude/settings.json (restored byte for byte when nothing else changed it since the install).",
		Capture: `--agent claude: Claude Code's hook payloads (prompts, the lines Edit, Write, MultiEdit and
NotebookEdit added, a git commit run through Bash, and the session's transcript at Stop and
SessionEnd). It prints nothing on stdout, which Claude Code would add to the model's context.`,
		Store: "Claude Code's transcript",
		Import: `Claude Code's sessions (~/.claude/projects/*/*.jsonl, or under CLAUDE_CONFIG_DIR) whose
recorded cwd lies in the repository, with their edits and the times of the tool results.`,
		Env: [][2]string{{"CLAUDE_CONFIG_DIR", "Claude Code's configuration directory (default: ~/.claude), where its settings.json and sessions are."}},
	}
}

// userSettingsPath is the user-level settings.json, and whether Claude Code's
// configuration directory exists (Claude Code is installed).
func userSettingsPath(getenv func(string) string) (path string, present bool) {
	dir := ConfigDir(getenv)
	if dir == "" {
		return "", false
	}
	fi, err := os.Stat(dir)
	return filepath.Join(dir, "settings.json"), err == nil && fi.IsDir()
}

// DefaultScope implements source.Agent: the user's settings.json when
// Claude Code is installed, else none.
func (Agent) DefaultScope(env source.HookEnv) source.Scope {
	if _, present := userSettingsPath(env.Getenv); present {
		return source.ScopeUser
	}
	return source.ScopeNone
}

// InstallHooks implements source.Agent: user (absolute binary path; one
// install serves every repository) or project (<repo>/.claude/settings.json
// with a portable command, for teams that commit it).
func (Agent) InstallHooks(env source.HookEnv, scope source.Scope) ([]string, error) {
	return files(env).Install(scope, env.Executable, env.BackupDir, "")
}

// files are Claude Code's settings files, the project's and the user's.
func files(env source.HookEnv) hookcfg.Files {
	user, present := userSettingsPath(env.Getenv)
	return hookcfg.Files{Config: config(), Name: Name, Display: "Claude Code", FileName: "settings.json",
		Project: filepath.Join(env.TopLevel, ".claude", "settings.json"), User: user, Present: present,
		Absent: "Claude Code not found (no ~/.claude or CLAUDE_CONFIG_DIR)", HomeVar: "CLAUDE_CONFIG_DIR", Specs: DefaultHookSpecs()}
}

// UninstallHooks implements source.Agent: the project's settings, and with
// user the user's too.
func (Agent) UninstallHooks(env source.HookEnv, user bool) ([]string, error) {
	return files(env).Uninstall(env.BackupDir, user)
}

// CheckHooks implements source.Agent: installed (project or user), missing
// while Claude Code is present, or not applicable.
func (Agent) CheckHooks(env source.HookEnv) (source.Check, []source.Check) {
	return files(env).Check(), nil
}

// UserLeftovers implements source.Leftovers: the user's settings.json, when
// it still holds git-convo's hooks.
func (Agent) UserLeftovers(env source.HookEnv) []string { return files(env).Leftovers() }
