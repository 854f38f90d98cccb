package hookcfg

import (
	"fmt"
	"os"

	"github.com/git-convo/git-convo/pkg/agents/source"
)

// Files are one agent's hooks files, the repository's and the user's, for
// the uninstall, doctor's check and the leftovers its source.Agent gives.
type Files struct {
	Config
	Name     string // the agent's name: "codex" (the check, the flags)
	Display  string // "Codex"
	FileName string // what the file is called in messages: "hooks.json"
	Project  string // the repository's file
	User     string // the user's file; "" when it cannot be named
	// Present: the agent's own directory exists (it is installed here).
	Present bool
	// Absent is doctor's detail when it is not: "Codex not found (...)".
	Absent string
	// Note follows the installed file's path in doctor's line.
	Note string
	// HomeVar is the environment variable that names the agent's directory
	// when HOME is not set.
	HomeVar string
	Specs   []Spec
}

// Uninstall takes the hooks out of the repository's file, and out of the
// user's too when user is set; it returns uninstall's lines.
func (f Files) Uninstall(backupDir string, user bool) ([]string, error) {
	paths := []string{f.Project}
	if user && f.User != "" {
		paths = append(paths, f.User)
	}
	var out []string
	for _, p := range paths {
		res, err := f.Config.Uninstall(p, backupDir)
		if err != nil {
			return out, err
		}
		if res != "not present" {
			out = append(out, fmt.Sprintf("%s: %s hooks %s", p, f.Display, res))
		}
	}
	return out, nil
}

// Check is doctor's line: installed (the repository's or the user's file),
// in part, missing while the agent is present, or not applicable.
func (f Files) Check() source.Check {
	c := source.Check{Name: f.Name + " hooks"}
	for _, p := range []string{f.Project, f.User} {
		if p == "" {
			continue
		}
		have, missing, err := f.Installed(p, f.Specs)
		if err != nil {
			if os.IsNotExist(err) {
				continue
			}
			c.State, c.Detail, c.Fix = source.CheckWarn, err.Error(), "fix the file, then git convo install --"+f.Name+"=user"
			return c
		}
		if len(have) > 0 && len(missing) > 0 {
			c.State, c.Detail, c.Fix = source.CheckPartial, fmt.Sprintf("%s lacks %v", p, missing), "git convo install"
			return c
		}
		if len(have) > 0 {
			c.Detail = p + f.Note
			return c
		}
	}
	if !f.Present {
		c.State, c.Detail = source.CheckInfo, f.Absent+": nothing to check"
		return c
	}
	c.State, c.Detail, c.Fix = source.CheckMissing, fmt.Sprintf("no %s %s names git-convo capture", f.Display, f.FileName), "git convo install --"+f.Name+"=user"
	return c
}

// Leftovers names the user's file when it still holds git-convo's hooks.
func (f Files) Leftovers() []string {
	if f.User == "" {
		return nil
	}
	if have, _, err := f.Installed(f.User, f.Specs); err == nil && len(have) > 0 {
		return []string{fmt.Sprintf("%s: %s's hooks, for every repository (git convo uninstall --%s removes them)", f.User, f.Display, f.Name)}
	}
	return nil
}

// Install writes the hooks at scope: the user's file with git-convo's
// absolute path (one install serves every repository), or the repository's
// with a portable command (for teams that commit it). It returns install's
// line, with note after it.
func (f Files) Install(scope source.Scope, executable, backupDir, note string) ([]string, error) {
	path, cmd := f.User, source.ShellQuote(executable)+" capture --agent "+f.Name
	if scope == source.ScopeProject {
		path, cmd = f.Project, "git-convo capture --agent "+f.Name
	} else if path == "" {
		return nil, fmt.Errorf("cannot find your home directory (HOME is not set): set %s, or use --%s=project or --%s=none", f.HomeVar, f.Name, f.Name)
	}
	res, err := f.Config.Install(path, cmd, f.Specs, backupDir)
	if err != nil {
		return nil, err
	}
	return []string{fmt.Sprintf("%s: %s hooks %s%s", path, f.Display, res, note)}, nil
}
