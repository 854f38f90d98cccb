package source

// An Agent is the whole of one coding agent, as the rest of git-convo uses
// it: its Source (payloads, conversations, sessions), where it keeps its
// conversations, its hooks (install, uninstall, doctor's check) and the
// words the help texts and install's summary use for it. Each agent's
// package implements it; pkg/agents holds the registry the front ends loop
// over, so no file outside an agent's package names its paths or formats.
type Agent interface {
	// Name is the agent's name as stored (conversations.agent), and its
	// flags: capture --agent <name>, install --<name>, uninstall --<name>.
	Name() string
	// Source is the agent's Source for an environment (getenv is
	// os.Getenv in production).
	Source(getenv func(string) string) Source
	// Store is where the agent keeps its conversations (shown by import
	// and doctor), or what stops it from being located, said so that the
	// user can act.
	Store(getenv func(string) string) (string, error)
	// Words are how the help texts and install's summary speak of it.
	Words() Words
	// DefaultScope is install's scope when neither --<name> nor the choice
	// remembered in git config convo.<name> gives one.
	DefaultScope(env HookEnv) Scope
	// InstallHooks writes the agent's hooks at scope (user or project),
	// keeping every other entry of the file, and returns the lines install
	// prints (one per file it wrote).
	InstallHooks(env HookEnv, scope Scope) ([]string, error)
	// UninstallHooks takes the agent's hooks out of the project's
	// configuration, and the user's too when user is set, and returns the
	// lines uninstall prints.
	UninstallHooks(env HookEnv, user bool) ([]string, error)
	// CheckHooks is doctor's check of the agent's hooks; more are further
	// lines of doctor's report about the agent (its store).
	CheckHooks(env HookEnv) (hooks Check, more []Check)
}

// MCPInstaller is an Agent that takes git-convo's MCP server in its own
// configuration (Cursor's mcp.json): install --mcp registers it, at the
// scope its hooks went to, and UninstallHooks removes it.
type MCPInstaller interface {
	InstallMCP(env HookEnv, scope Scope) ([]string, error)
}

// Scope is where an agent's hooks go.
type Scope string

// The scopes: the user's configuration (one install serves every
// repository; the command names git-convo's absolute path), the
// repository's (a portable command, for teams that commit it), or none.
const (
	ScopeUser    Scope = "user"
	ScopeProject Scope = "project"
	ScopeNone    Scope = "none"
)

// ParseScope reads an install flag's value.
func ParseScope(s string) (Scope, bool) {
	switch sc := Scope(s); sc {
	case ScopeUser, ScopeProject, ScopeNone:
		return sc, true
	}
	return "", false
}

// HookEnv is what an agent's hook installer may know of the world.
type HookEnv struct {
	Getenv func(string) string
	// Executable is git-convo's absolute path, for user-level hooks.
	Executable string
	// TopLevel is the repository's work tree, for project-level hooks.
	TopLevel string
	// BackupDir keeps configuration files as they were before git-convo's
	// first install (package filebackup), so uninstall can restore them
	// byte for byte.
	BackupDir string
	// Chosen is the scope remembered in git config convo.<name> ("" when
	// none): ScopeNone means the user chose not to use the agent.
	Chosen Scope
}

// Check is one line of doctor's report about an agent.
type Check struct {
	Name   string
	State  CheckState
	Detail string
	Fix    string
}

// CheckState is what a Check found.
type CheckState int

// The states of an agent's check.
const (
	// CheckOK: all is in place (for hooks: installed).
	CheckOK CheckState = iota
	// CheckInfo: nothing to do (the agent is not on this machine, or the
	// user chose not to use it).
	CheckInfo
	// CheckWarn: something needs the user's attention (a file that cannot
	// be read).
	CheckWarn
	// CheckPartial: the hooks are installed in part (a warning).
	CheckPartial
	// CheckMissing: the hooks are not installed. Doctor fails on it when no
	// agent's hooks are installed, and warns otherwise.
	CheckMissing
)

// Hooked reports whether a hooks check found git-convo's hooks installed,
// in full or in part.
func (c Check) Hooked() bool { return c.State == CheckOK || c.State == CheckPartial }

// Words are how the help texts and install's summary speak of an agent.
type Words struct {
	// Display is the agent's name as people say it: "Claude Code".
	Display string
	// Worker is what the user works with: "Cursor's agent", "Claude Code".
	Worker string
	// Reload says how the agent picks up new hooks, after install.
	Reload string
	// Install is install --help's paragraph about the agent's hooks.
	Install string
	// InstallFlag and UninstallFlag are the usages of install --<name> and
	// uninstall --<name>.
	InstallFlag, UninstallFlag string
	// Uninstall is uninstall --help's sentence about the agent.
	Uninstall string
	// Capture is capture --help's paragraph about the agent's payloads.
	Capture string
	// Store names where the agent keeps its conversations, for enrich
	// --help: "Claude Code's transcript".
	Store string
	// Import is import --help's paragraph: how the agent's past sessions of
	// a repository are found.
	Import string
	// Env are the environment variables the agent's package reads, with
	// what each says, for the man page.
	Env [][2]string
}

// Leftovers is an Agent that can name what of git-convo stays in the user's
// own configuration (hooks, an MCP entry) after an uninstall without
// --<name>, so that uninstall says what remains and how to remove it.
type Leftovers interface {
	UserLeftovers(env HookEnv) []string
}
