package gitx

import (
	"context"
	"os"
	"path/filepath"
	"strconv"

	"github.com/git-convo/git-convo/pkg/git/gitconfig"
)

// Settings is git's configuration as a git command run in one directory
// would see it, read without a git process where that is exact: the
// system, global, repository and worktree files and GIT_CONFIG_COUNT
// variables, parsed by gitconfig. Files with include or includeIf, and
// `git -c` (GIT_CONFIG_PARAMETERS), are left to one `git config --list -z`.
type Settings = gitconfig.Settings

// TerminalDumb is git's is_terminal_dumb: TERM unset (or empty) or "dumb".
func TerminalDumb(getenv func(string) string) bool { return gitconfig.TerminalDumb(getenv) }

// errConfigCLI: the in-process reader hands over to git.
const errConfigCLI = gitconfig.ErrNeedsGit

// LoadSettings reads the configuration for dir. getenv is the environment
// git would see.
func LoadSettings(ctx context.Context, dir string, getenv func(string) string) (*Settings, error) {
	return loadSettings(ctx, runner{dir: dir}, getenv)
}

// LoadSettingsEnv is LoadSettings for git run with the environment environ
// (nil: the process's), which both the in-process reader and the git it
// falls back to see.
func LoadSettingsEnv(ctx context.Context, dir string, environ []string) (*Settings, error) {
	return loadSettings(ctx, runner{dir: dir, env: environ}, Getenv(environ))
}

func loadSettings(ctx context.Context, r runner, getenv func(string) string) (*Settings, error) {
	if s, err := loadSettingsInProcess(r.dir, getenv); err == nil {
		return s, nil
	}
	return settingsFromGit(ctx, r)
}

// settingsFromGit reads the configuration with one `git config --list -z`.
func settingsFromGit(ctx context.Context, r runner) (*Settings, error) {
	out, err := r.output(ctx, "config", "--list", "-z")
	if err != nil && !missingKey(err) {
		return nil, err
	}
	return gitconfig.ParseZ(out), nil
}

func loadSettingsInProcess(dir string, getenv func(string) string) (*Settings, error) {
	if getenv("GIT_CONFIG_PARAMETERS") != "" || getenv("GIT_CONFIG") != "" {
		return nil, errConfigCLI
	}
	s := gitconfig.New()
	var files []string
	// git reads GIT_CONFIG_NOSYSTEM as a boolean ("0": read the file); a
	// variable set empty (no file read) is told from an unset one only in
	// this process's environment: git's to read then.
	noSystem, valid := gitconfig.ParseBool(getenv("GIT_CONFIG_NOSYSTEM"))
	if !valid || setEmpty(getenv, "GIT_CONFIG_GLOBAL") || setEmpty(getenv, "GIT_CONFIG_SYSTEM") {
		return nil, errConfigCLI
	}
	if !noSystem {
		if p := getenv("GIT_CONFIG_SYSTEM"); p != "" {
			files = append(files, p)
		} else {
			files = append(files, "/etc/gitconfig")
		}
	}
	if p, ok := lookupEnv(getenv, "GIT_CONFIG_GLOBAL"); ok {
		files = append(files, p)
	} else {
		xdg := getenv("XDG_CONFIG_HOME")
		home := getenv("HOME")
		if xdg == "" && home != "" {
			xdg = filepath.Join(home, ".config")
		}
		if xdg != "" {
			files = append(files, filepath.Join(xdg, "git", "config"))
		}
		if home != "" {
			files = append(files, filepath.Join(home, ".gitconfig"))
		}
	}
	for _, f := range files {
		if err := s.ReadFile(f); err != nil {
			return nil, err
		}
	}
	gitDir, commonDir, err := findGitDir(dir, getenv)
	if err != nil {
		return nil, err
	}
	if commonDir != "" {
		if err := s.ReadFile(filepath.Join(commonDir, "config")); err != nil {
			return nil, err
		}
		if on, _ := s.Bool("extensions.worktreeconfig"); on {
			if err := s.ReadFile(filepath.Join(gitDir, "config.worktree")); err != nil {
				return nil, err
			}
		}
	}
	if n := getenv("GIT_CONFIG_COUNT"); n != "" {
		count, err := strconv.Atoi(n)
		if err != nil {
			return nil, errConfigCLI
		}
		for i := range count {
			k := getenv("GIT_CONFIG_KEY_" + strconv.Itoa(i))
			if k == "" {
				return nil, errConfigCLI
			}
			s.Add(gitconfig.NormalizeKey(k), getenv("GIT_CONFIG_VALUE_"+strconv.Itoa(i)))
		}
	}
	return s, nil
}

// lookupEnv tells a variable set to "" from one not set, through getenv:
// os.LookupEnv where getenv is the process's.
func lookupEnv(getenv func(string) string, k string) (string, bool) {
	if v := getenv(k); v != "" {
		return v, true
	}
	return "", false
}

// setEmpty: k is set to "" in this process's environment, and getenv
// (which cannot tell "" from unset) agrees.
func setEmpty(getenv func(string) string, k string) bool {
	v, set := os.LookupEnv(k)
	return set && v == "" && getenv(k) == ""
}

// findGitDir finds the repository of dir as git does, from files: GIT_DIR,
// else a .git directory or "gitdir:" file in dir or a parent. "" when none.
func findGitDir(dir string, getenv func(string) string) (gitDir, commonDir string, err error) {
	if g := getenv("GIT_DIR"); g != "" {
		if !filepath.IsAbs(g) {
			g = filepath.Join(dir, g)
		}
		gitDir = g
	} else {
		if getenv("GIT_CEILING_DIRECTORIES") != "" || getenv("GIT_DISCOVERY_ACROSS_FILESYSTEM") != "" {
			return "", "", errConfigCLI
		}
		abs, err := filepath.Abs(dir)
		if err != nil {
			return "", "", err
		}
		for d := abs; ; d = filepath.Dir(d) {
			if g, ok := dotGit(d); ok {
				gitDir = g
				break
			}
			if _, err := os.Stat(filepath.Join(d, "HEAD")); err == nil && filepath.Base(d) == ".git" {
				gitDir = d // inside .git itself
				break
			}
			if filepath.Dir(d) == d {
				return "", "", nil
			}
		}
	}
	return gitDir, commonDirOf(gitDir), nil
}

// dotGit is d/.git as a directory or a "gitdir: <path>" file.
func dotGit(d string) (string, bool) {
	p := filepath.Join(d, ".git")
	fi, err := os.Stat(p)
	if err != nil {
		return "", false
	}
	if fi.IsDir() {
		return p, true
	}
	return readGitFile(p)
}
