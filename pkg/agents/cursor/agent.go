package cursor

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-convo/git-convo/pkg/agents/source"
)

// Agent is Cursor, whole: its source, its state.vscdb, and its hooks.json
// (and mcp.json) at user level (~/.cursor) or in the repository (.cursor).
type Agent struct{}

var (
	_ source.Agent        = Agent{}
	_ source.MCPInstaller = Agent{}
)

// Name implements source.Agent.
func (Agent) Name() string { return Name }

// Source implements source.Agent.
func (Agent) Source(getenv func(string) string) source.Source { return Source{Getenv: getenv} }

// Store implements source.Agent: state.vscdb.
func (Agent) Store(getenv func(string) string) (string, error) { return DefaultDBPath(getenv) }

// Words implements source.Agent.
func (Agent) Words() source.Words {
	return source.Words{
		Display: "Cursor",
		Worker:  "Cursor's agent",
		Reload:  "Restart Cursor if it is running so it loads the new hooks.",
		Install: `Cursor: by default the user-level ~/.cursor/hooks.json gets git-convo's capture command
with this binary's absolute path, so one install serves every repository. --cursor=project
writes <repo>/.cursor/hooks.json with a portable command instead, for teams that commit it;
--cursor=none leaves Cursor alone. Other tools' entries are kept.

--mcp also registers git-convo's MCP server ("git convo mcp") in Cursor's mcp.json, at the
same level (user or project), so the agent can ask why code exists.`,
		InstallFlag:   "where to install Cursor's hooks: user, project or none (default: the last choice, git config convo.cursor, else user)",
		UninstallFlag: "also remove the user-level Cursor hooks (~/.cursor/hooks.json)",
		Uninstall:     "--cursor also removes them from the user-level ~/.cursor/hooks.json, which serves every repository.",
		Capture: `--agent cursor: Cursor's hook payloads, its workspace roots and model, the user's prompts,
the files it edited, the agent's final responses and a git commit the agent ran in its
terminal (afterShellExecution). On "stop" it also reads the conversation's title and
summary from Cursor's state.vscdb (read-only), and again 10 s later in the background,
because Cursor may not have flushed the last rows yet. It prints Cursor's reply ({} or
{"continue":true}).`,
		Store: "Cursor's state.vscdb (read-only; CURSOR_DB_PATH overrides its location), or the transcript its hooks named",
		Import: `Cursor's databases (read-only), by every association Cursor has used: workspace databases
mapped through workspace.json, the global composer headers, each conversation's workspace
identifier, its project layouts, and the files it edited inside the repository.`,
		Env: [][2]string{{"CURSOR_DB_PATH", "Path of Cursor's global state.vscdb, opened read-only."}},
	}
}

// DefaultScope implements source.Agent: the user's hooks.json.
func (Agent) DefaultScope(source.HookEnv) source.Scope { return source.ScopeUser }

// userDir is Cursor's per-user directory (~/.cursor), where the user-level
// hooks.json and mcp.json live.
func userDir(getenv func(string) string) (string, error) {
	for _, k := range []string{"HOME", "USERPROFILE"} {
		if h := getenv(k); h != "" {
			return filepath.Join(h, ".cursor"), nil
		}
	}
	return "", fmt.Errorf("cannot find your home directory (HOME is not set): use --cursor=project or --cursor=none")
}

// hooksTarget is the hooks.json to write and the command to put in it: the
// absolute binary path at user level (GUI-launched Cursor may lack the
// user's PATH), a portable command at project level (the file is shared).
func hooksTarget(env source.HookEnv, scope source.Scope) (path, command string, err error) {
	if scope == source.ScopeProject {
		return filepath.Join(env.TopLevel, ".cursor", "hooks.json"), "git-convo", nil
	}
	dir, err := userDir(env.Getenv)
	return filepath.Join(dir, "hooks.json"), env.Executable, err
}

// InstallHooks implements source.Agent.
func (Agent) InstallHooks(env source.HookEnv, scope source.Scope) ([]string, error) {
	path, command, err := hooksTarget(env, scope)
	if err != nil {
		return nil, err
	}
	res, err := InstallHooksJSON(path, command, DefaultHookSpecs(), env.BackupDir)
	if err != nil {
		return nil, err
	}
	return []string{fmt.Sprintf("%s: Cursor hooks %s", path, res)}, nil
}

// InstallMCP implements source.MCPInstaller: mcp.json beside hooks.json.
func (Agent) InstallMCP(env source.HookEnv, scope source.Scope) ([]string, error) {
	path, command, err := hooksTarget(env, scope)
	if err != nil {
		return nil, err
	}
	mcpPath := filepath.Join(filepath.Dir(path), "mcp.json")
	res, err := InstallMCPJSON(mcpPath, command, env.BackupDir)
	if err != nil {
		return nil, err
	}
	return []string{fmt.Sprintf("%s: MCP server %s", mcpPath, res)}, nil
}

// UninstallHooks implements source.Agent: hooks.json and mcp.json, the
// project's and, with user, the user's.
func (Agent) UninstallHooks(env source.HookEnv, user bool) ([]string, error) {
	targets := []string{filepath.Join(env.TopLevel, ".cursor", "hooks.json")}
	if user {
		dir, err := userDir(env.Getenv)
		if err != nil {
			return nil, err
		}
		targets = append(targets, filepath.Join(dir, "hooks.json"))
	}
	var out []string
	for _, path := range targets {
		res, err := UninstallHooksJSON(path, env.BackupDir)
		if err != nil {
			return out, err
		}
		out = append(out, fmt.Sprintf("%s: Cursor hooks %s", path, res))
		mcpPath := filepath.Join(filepath.Dir(path), "mcp.json")
		if res, err := UninstallMCPJSON(mcpPath, env.BackupDir); err != nil {
			return out, err
		} else if res != "not present" {
			out = append(out, fmt.Sprintf("%s: MCP server %s", mcpPath, res))
		}
	}
	return out, nil
}

// CheckHooks implements source.Agent: the project's hooks.json, else the
// user's; and state.vscdb.
func (Agent) CheckHooks(env source.HookEnv) (source.Check, []source.Check) {
	hooks := source.Check{Name: "cursor hooks"}
	found := ""
	dir, _ := userDir(env.Getenv)
	for _, p := range []string{filepath.Join(env.TopLevel, ".cursor", "hooks.json"), filepath.Join(dir, "hooks.json")} {
		if b, err := os.ReadFile(p); err == nil && strings.Contains(string(b), "capture") && strings.Contains(string(b), "git-convo") {
			found = p
			break
		}
	}
	switch {
	case found == "":
		hooks.State, hooks.Detail, hooks.Fix = source.CheckMissing, "no hooks.json names git-convo capture", "git convo install"
	default:
		if missing, _ := MissingHooks(found, DefaultHookSpecs()); len(missing) > 0 {
			hooks.State, hooks.Detail, hooks.Fix = source.CheckPartial, fmt.Sprintf("%s lacks %v", found, missing), "git convo install"
			break
		}
		hooks.Detail = found
	}
	db := source.Check{Name: "cursor db"}
	if p, err := DefaultDBPath(env.Getenv); err != nil {
		db.State, db.Detail = source.CheckWarn, err.Error()
	} else if _, err := os.Stat(p); err != nil && env.Chosen == source.ScopeNone {
		db.State, db.Detail = source.CheckInfo, "not used, as chosen (git config convo.cursor = none)"
	} else if err != nil {
		// Optional: the Cursor CLI keeps none. One line of information,
		// and no turn logs its absence as an error.
		db.State, db.Detail = source.CheckInfo, p+" not found (optional: the Cursor CLI keeps none; titles then come "+
			"from first prompts; CURSOR_DB_PATH names the editor's if it is elsewhere)"
	} else {
		db.Detail = p
	}
	return hooks, []source.Check{db}
}

// UserLeftovers implements source.Leftovers: the user's hooks.json and
// mcp.json, when they still name git-convo.
func (Agent) UserLeftovers(env source.HookEnv) []string {
	dir, err := userDir(env.Getenv)
	if err != nil {
		return nil
	}
	var stays []string
	hooks := filepath.Join(dir, "hooks.json")
	specs := DefaultHookSpecs()
	if missing, err := MissingHooks(hooks, specs); err == nil && len(missing) < len(specs) {
		stays = append(stays, hooks+": Cursor's hooks, for every repository (git convo uninstall --cursor removes them)")
	}
	if mcp := filepath.Join(dir, "mcp.json"); MCPInstalled(mcp) {
		stays = append(stays, mcp+": git-convo's MCP server, for every repository (git convo uninstall --cursor removes it)")
	}
	return stays
}
