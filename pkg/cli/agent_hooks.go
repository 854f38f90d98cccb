package cli

// The agents' hooks, for install, uninstall and doctor: one loop over the
// registry (env.Agents); each agent's package knows its files and formats.

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/git/gitx"
)

// configBackupDir keeps the agents' configuration files as they were before
// git-convo's first install (package filebackup), beside links.sqlite, so
// uninstall can restore them byte for byte.
func configBackupDir(env *Env) string {
	p, err := env.dbPath()
	if err != nil {
		return ""
	}
	return filepath.Dir(p)
}

// scopeKey remembers install's --<agent> choice in the repository's config,
// for doctor and the next install: convo.cursor, convo.claude.
func scopeKey(a source.Agent) string { return "convo." + a.Name() }

// hookEnv is what an agent's installer may know, in repo (nil: outside
// one); chosen is the scope remembered in convo.<agent>.
func hookEnv(env *Env, repo *gitx.Repo, chosen string) source.HookEnv {
	h := source.HookEnv{Getenv: env.Getenv, Executable: env.Executable, BackupDir: configBackupDir(env), Chosen: source.Scope(chosen)}
	if repo != nil {
		h.TopLevel = repo.TopLevel
	}
	return h
}

// agentInstallFlags are install's --<agent>=user|project|none, one per agent.
func agentInstallFlags(env *Env) []cli.Flag {
	var out []cli.Flag
	for _, a := range env.Agents.Agents() {
		out = append(out, &cli.StringFlag{Name: a.Name(), Usage: a.Words().InstallFlag})
	}
	return out
}

// agentUninstallFlags are uninstall's --<agent>: the user-level hooks too.
func agentUninstallFlags(env *Env) []cli.Flag {
	var out []cli.Flag
	for _, a := range env.Agents.Agents() {
		out = append(out, &cli.BoolFlag{Name: a.Name(), Usage: a.Words().UninstallFlag})
	}
	return out
}

// agentFlagsUsage is "[--cursor=user|project|none] [--claude=...]" (install)
// or "[--cursor] [--claude]" (uninstall).
func agentFlagsUsage(env *Env, value string) string {
	var b strings.Builder
	for _, a := range env.Agents.Agents() {
		fmt.Fprintf(&b, " [--%s%s]", a.Name(), value)
	}
	return strings.TrimPrefix(b.String(), " ")
}

// agentParagraphs joins a help paragraph of every agent.
func agentParagraphs(env *Env, of func(source.Words) string) string {
	var ps []string
	for _, a := range env.Agents.Agents() {
		if p := of(a.Words()); p != "" {
			ps = append(ps, p)
		}
	}
	return strings.Join(ps, "\n\n")
}

// agentScope is one agent's install choice.
type agentScope struct {
	agent source.Agent
	scope source.Scope
	set   bool   // given as a flag: remembered
	from  string // the remembered choice, when that is where scope came from
}

// agentScopes reads every agent's scope: --<agent>, else the choice
// remembered in convo.<agent>, else the agent's default. A bad value is a
// usage error, found before anything is written.
func agentScopes(ctx context.Context, env *Env, repo *gitx.Repo, c *cli.Context) ([]agentScope, error) {
	var out []agentScope
	for _, a := range env.Agents.Agents() {
		as := agentScope{agent: a}
		v, from := c.String(a.Name()), "--"+a.Name()+"="
		as.set = v != ""
		if !as.set {
			if r, ok, err := repo.Config(ctx, scopeKey(a)); err == nil && ok {
				v, from, as.from = r, "git config "+scopeKey(a)+" = ", r
			}
		}
		if v == "" {
			as.scope = a.DefaultScope(hookEnv(env, repo, ""))
		} else if sc, ok := source.ParseScope(v); ok {
			as.scope = sc
		} else {
			return nil, usagef("%s%s: want user, project or none", from, v)
		}
		out = append(out, as)
	}
	return out, nil
}

// installAgentHooks writes each agent's hooks at its scope (and, with mcp,
// registers the MCP server with the agents that take one), remembers the
// choices given as flags, and returns the agents whose hooks were written.
func installAgentHooks(ctx context.Context, env *Env, repo *gitx.Repo, scopes []agentScope, mcp bool) ([]source.Agent, error) {
	var mcpTakers []string
	for _, as := range scopes {
		if _, ok := as.agent.(source.MCPInstaller); ok {
			mcpTakers = append(mcpTakers, as.agent.Words().Display)
		}
	}
	var installed []source.Agent
	mcpDone := false
	for _, as := range scopes {
		a, w := as.agent, as.agent.Words()
		if as.set {
			if err := repo.SetConfig(ctx, scopeKey(a), string(as.scope)); err != nil {
				return installed, err
			}
		} else if as.from == string(source.ScopeNone) {
			fmt.Fprintf(env.Stdout, "%s hooks: not installed, as chosen before (git config %s = none; --%s=user installs them)\n", w.Display, scopeKey(a), a.Name())
		}
		if as.scope == source.ScopeNone {
			continue
		}
		he := hookEnv(env, repo, as.from)
		lines, err := a.InstallHooks(he, as.scope)
		printLines(env, lines)
		if err != nil {
			return installed, err
		}
		installed = append(installed, a)
		if m, ok := a.(source.MCPInstaller); ok && mcp {
			lines, err := m.InstallMCP(he, as.scope)
			printLines(env, lines)
			if err != nil {
				return installed, err
			}
			mcpDone = true
		}
	}
	if mcp && !mcpDone {
		var how []string
		for _, as := range scopes {
			if _, ok := as.agent.(source.MCPInstaller); ok {
				how = append(how, "--"+as.agent.Name()+"=user or --"+as.agent.Name()+"=project")
			}
		}
		return installed, usagef("--mcp needs %s: use %s", strings.Join(mcpTakers, " or "), strings.Join(how, ", or "))
	}
	return installed, nil
}

// uninstallAgentHooks takes every agent's hooks out of the repository's
// configuration, and out of the user's for the agents named by flag.
func uninstallAgentHooks(env *Env, repo *gitx.Repo, c *cli.Context) error {
	for _, a := range env.Agents.Agents() {
		lines, err := a.UninstallHooks(hookEnv(env, repo, ""), c.Bool(a.Name()))
		printLines(env, lines)
		if err != nil {
			return err
		}
	}
	return nil
}

func printLines(env *Env, lines []string) {
	for _, l := range lines {
		fmt.Fprintln(env.Stdout, l)
	}
}

// doctorAgents is doctor's report on the agents: each one's hooks (in repo;
// nil: none) and the further checks it makes (its store), returned apart
// so that doctor shows them after the database's. An agent whose hooks are
// missing fails the check only when no agent's hooks are installed.
func doctorAgents(env *Env, repo *gitx.Repo, config map[string]string) (hooks, more []check) {
	type result struct {
		a      source.Agent
		chosen string
		hooks  source.Check
	}
	var rs []result
	hooked := false
	for _, a := range env.Agents.Agents() {
		chosen := config[scopeKey(a)]
		h, m := a.CheckHooks(hookEnv(env, repo, chosen))
		rs = append(rs, result{a, chosen, h})
		hooked = hooked || h.Hooked()
		for _, c := range m {
			more = append(more, toCheck(c, true))
		}
	}
	if repo == nil {
		return nil, more
	}
	for _, r := range rs {
		h := r.hooks
		switch {
		case !h.Hooked() && r.chosen == string(source.ScopeNone): // the user's choice, remembered by install
			w := r.a.Words()
			hooks = append(hooks, check{Name: h.Name, OK: true, Detail: fmt.Sprintf("not installed, as chosen (git config %s = none): %s's conversations are not captured; git convo install --%s=user captures them",
				scopeKey(r.a), w.Display, r.a.Name())})
		default:
			hooks = append(hooks, toCheck(h, hooked))
		}
	}
	return hooks, more
}

// toCheck is an agent's check as doctor reports it; hooked says whether any
// agent's hooks are installed (then missing ones are a warning only).
func toCheck(c source.Check, hooked bool) check {
	out := check{Name: c.Name, OK: true, Detail: c.Detail, Fix: c.Fix}
	switch c.State {
	case source.CheckWarn, source.CheckPartial:
		out.Warn = true
	case source.CheckMissing:
		out.OK, out.Warn = hooked, true
	}
	return out
}

// agentStores names where the agents keep their conversations, for enrich's
// help: "Cursor's state.vscdb (…), or Claude Code's transcript".
func agentStores(env *Env) string {
	var out []string
	for _, a := range env.Agents.Agents() {
		out = append(out, a.Words().Store)
	}
	return strings.Join(out, ", or ")
}

// agentDisplays is the agents as people name them, joined by sep:
// "Cursor, Claude Code".
func agentDisplays(env *Env, sep string) string {
	var out []string
	for _, a := range env.Agents.Agents() {
		out = append(out, a.Words().Display)
	}
	return strings.Join(out, sep)
}

// agentList is the agents' names, for a flag's usage: "cursor, claude".
func agentList(env *Env) string { return strings.Join(env.Agents.Names(), ", ") }
