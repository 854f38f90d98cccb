package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/claude"
	"github.com/git-convo/git-convo/pkg/gitx"
)

func claudeInstallFlag() cli.Flag {
	return &cli.StringFlag{Name: "claude", Usage: "where to install Claude Code's hooks: user, project or none (default: user when ~/.claude or CLAUDE_CONFIG_DIR exists, else none)"}
}

func claudeUninstallFlag() cli.Flag {
	return &cli.BoolFlag{Name: "claude", Usage: "also remove the user-level Claude Code hooks (~/.claude/settings.json)"}
}

// claudeUserSettings is the user-level settings.json, and whether Claude
// Code's configuration directory exists (Claude Code is installed).
func claudeUserSettings(env *Env) (path string, present bool) {
	dir := claude.ConfigDir(env.Getenv)
	if dir == "" {
		return "", false
	}
	fi, err := os.Stat(dir)
	return filepath.Join(dir, "settings.json"), err == nil && fi.IsDir()
}

// configBackupDir keeps Claude Code's settings.json and Cursor's hooks.json
// as they were before git-convo's first install (package filebackup),
// beside links.sqlite, so uninstall can restore them byte for byte.
func configBackupDir(env *Env) string {
	p, err := env.dbPath()
	if err != nil {
		return ""
	}
	return filepath.Dir(p)
}

// installClaude writes Claude Code's hooks: mode user (absolute binary path;
// one install serves every repository), project (<repo>/.claude/settings.json
// with a portable command, for teams that commit it) or none. It returns
// whether hooks were installed.
func installClaude(env *Env, repo *gitx.Repo, mode string) (bool, error) {
	userPath, present := claudeUserSettings(env)
	if mode == "" {
		mode = "none"
		if present {
			mode = "user"
		}
	}
	var path, command string
	switch mode {
	case "none":
		return false, nil
	case "user":
		if userPath == "" {
			return false, fmt.Errorf("cannot find your home directory (HOME is not set): set CLAUDE_CONFIG_DIR, or use --claude=project or --claude=none")
		}
		path, command = userPath, claude.CaptureCommand(env.Executable)
	case "project":
		path, command = filepath.Join(repo.TopLevel, ".claude", "settings.json"), claude.CaptureCommand("git-convo")
	default:
		return false, usagef("--claude=%s: want user, project or none", mode)
	}
	res, err := claude.Install(path, command, claude.DefaultHookSpecs(), configBackupDir(env))
	if err != nil {
		return false, err
	}
	fmt.Fprintf(env.Stdout, "%s: Claude Code hooks %s\n", path, res)
	return true, nil
}

// uninstallClaude removes git-convo's Claude Code hooks from the project's
// settings, and with user from the user's too.
func uninstallClaude(env *Env, repo *gitx.Repo, user bool) error {
	paths := []string{filepath.Join(repo.TopLevel, ".claude", "settings.json")}
	if p, _ := claudeUserSettings(env); user && p != "" {
		paths = append(paths, p)
	}
	for _, p := range paths {
		res, err := claude.Uninstall(p, configBackupDir(env))
		if err != nil {
			return err
		}
		if res != "not present" {
			fmt.Fprintf(env.Stdout, "%s: Claude Code hooks %s\n", p, res)
		}
	}
	return nil
}

// doctorClaude reports Claude Code's hooks: installed (project or user),
// missing while Claude Code is present, or not applicable.
func doctorClaude(env *Env, repo *gitx.Repo) check {
	ch, _ := claudeHookStatus(env, repo)
	return ch
}

// claudeHooked reports whether Claude Code's hooks are installed: then a
// missing Cursor setup is only a warning (one agent is enough).
func claudeHooked(env *Env, repo *gitx.Repo) bool {
	_, ok := claudeHookStatus(env, repo)
	return ok
}

func claudeHookStatus(env *Env, repo *gitx.Repo) (check, bool) {
	userPath, present := claudeUserSettings(env)
	specs := claude.DefaultHookSpecs()
	for _, p := range []string{filepath.Join(repo.TopLevel, ".claude", "settings.json"), userPath} {
		if p == "" {
			continue
		}
		have, missing, err := claude.Installed(p, specs)
		if err != nil {
			if os.IsNotExist(err) {
				continue
			}
			return check{Name: "claude hooks", OK: true, Warn: true, Detail: err.Error(), Fix: "fix the file, then git convo install --claude=user"}, false
		}
		if len(have) > 0 && len(missing) > 0 {
			return check{Name: "claude hooks", OK: true, Warn: true, Detail: fmt.Sprintf("%s lacks %v", p, missing), Fix: "git convo install"}, true
		}
		if len(have) > 0 {
			return check{Name: "claude hooks", OK: true, Detail: p}, true
		}
	}
	if !present {
		return check{Name: "claude hooks", OK: true, Detail: "Claude Code not found (no ~/.claude or CLAUDE_CONFIG_DIR): nothing to check"}, false
	}
	return check{Name: "claude hooks", OK: true, Warn: true, Detail: "no Claude Code settings.json names git-convo capture", Fix: "git convo install --claude=user"}, false
}
