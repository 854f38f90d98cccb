package gitx

import (
	"os"
	"path/filepath"
	"strings"
)

// Getenv looks variables up in environ, a command's environment ("K=V"
// entries; the last one wins, as for exec); nil environ is the process's.
func Getenv(environ []string) func(string) string {
	if environ == nil {
		return os.Getenv
	}
	return func(k string) string {
		for i := len(environ) - 1; i >= 0; i-- {
			if name, v, ok := strings.Cut(environ[i], "="); ok && name == k {
				return v
			}
		}
		return ""
	}
}

// hookVar is a variable git sets for a hook, and why a worker drops it.
type hookVar struct{ name, why string }

// hookVariables are the variables git sets while it runs a hook that must
// not reach the git commands of a background worker outliving the hook.
// (A function, not a package variable: the table stays immutable.)
func hookVariables() []hookVar {
	return []hookVar{
		{"GIT_INDEX_FILE", "the commit's temporary index (index.lock, next-index-*.lock), gone once the commit ends"},
		{"GIT_DIR", "may be relative to the hook's directory; kept, but made absolute"},
		{"GIT_COMMON_DIR", "may be relative; git derives it again from GIT_DIR"},
		{"GIT_WORK_TREE", "may be relative; the hook runs at the top level, where git finds it again"},
		{"GIT_PREFIX", "the subdirectory a git alias ran from: it would shift relative paths"},
		{"GIT_EDITOR", "set by git for the command being run (':' to skip editing); the worker never edits"},
		{"GIT_REFLOG_ACTION", "rebase's and merge's reflog message, not the worker's"},
		{"GIT_AUTHOR_NAME", "am and rebase export the replayed commit's identity"},
		{"GIT_AUTHOR_EMAIL", "as GIT_AUTHOR_NAME"},
		{"GIT_AUTHOR_DATE", "as GIT_AUTHOR_NAME"},
		{"GIT_COMMITTER_NAME", "as GIT_AUTHOR_NAME"},
		{"GIT_COMMITTER_EMAIL", "as GIT_AUTHOR_NAME"},
		{"GIT_COMMITTER_DATE", "as GIT_AUTHOR_NAME"},
		{"GIT_OBJECT_DIRECTORY", "receive-pack's quarantine, deleted when the push ends"},
		{"GIT_ALTERNATE_OBJECT_DIRECTORIES", "as GIT_OBJECT_DIRECTORY"},
		{"GIT_QUARANTINE_PATH", "as GIT_OBJECT_DIRECTORY"},
	}
}

// ScrubHookEnv returns environ without the variables a hook inherits from
// git (see hookVariables), for a worker that outlives the hook. A GIT_DIR
// is kept, made absolute against cwd (the directory it was set relative to),
// so the worker still finds a repository named only by it.
func ScrubHookEnv(environ []string, cwd string) []string {
	vars := hookVariables()
	drop := make(map[string]bool, len(vars))
	for _, v := range vars {
		drop[v.name] = true
	}
	env := make([]string, 0, len(environ))
	gitDir := ""
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		if k == "GIT_DIR" {
			gitDir = v
		}
		if !drop[k] {
			env = append(env, kv)
		}
	}
	if gitDir != "" {
		if !filepath.IsAbs(gitDir) {
			gitDir = filepath.Join(cwd, gitDir)
		}
		env = append(env, "GIT_DIR="+filepath.Clean(gitDir))
	}
	return env
}

// QueuedEnv is environ for the git commands that read a commit a hook
// queued: without the variables of the hook or of the caller that name a
// repository, then with the GIT_DIR and GIT_WORK_TREE the hook saw, made
// absolute against dir (the directory the hook ran in).
func QueuedEnv(environ []string, dir, gitDir, workTree string) []string {
	env := ScrubHookEnv(environ, dir)
	out := env[:0]
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if k != "GIT_DIR" && k != "GIT_WORK_TREE" {
			out = append(out, kv)
		}
	}
	abs := func(p string) string {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		return filepath.Clean(p)
	}
	if gitDir != "" {
		out = append(out, "GIT_DIR="+abs(gitDir))
	}
	if workTree != "" {
		out = append(out, "GIT_WORK_TREE="+abs(workTree))
	}
	return out
}
