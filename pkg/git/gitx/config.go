package gitx

import (
	"context"
	"errors"
	"os"
	"regexp"
	"strconv"
	"strings"
)

func dirOrDot(dir string) string {
	if dir == "" {
		return "."
	}
	return dir
}

// missingKey reports git config's "no such key" (exit 1, nothing said).
func missingKey(err error) bool {
	var ge *Error
	return errors.As(err, &ge) && ge.ExitCode() == 1 && strings.TrimSpace(ge.Stderr) == ""
}

// ConfigRegexp returns the git config values whose keys match re (Go's
// syntax), read in dir ("" for the current directory) by LoadSettings. Keys
// are as git prints them (section and name lower-cased); for a key set more
// than once the last value wins, as with `git config --get`. A key set
// without a value ("[convo] flag") maps to "true", its boolean meaning.
func ConfigRegexp(ctx context.Context, dir, re string) (map[string]string, error) {
	rx, err := regexp.Compile(re)
	if err != nil {
		return map[string]string{}, err
	}
	s, err := LoadSettings(ctx, dirOrDot(dir), os.Getenv)
	if err != nil {
		return map[string]string{}, err
	}
	values := map[string]string{}
	for k, v := range s.Prefixed("") {
		if rx.MatchString(k) {
			values[k] = v
		}
	}
	return values, nil
}

// Config returns a git config value as git's `--get` does (the last one
// set), read by LoadSettings in the repository's directory and environment;
// ok is false when the key is not set.
func (r *Repo) Config(ctx context.Context, key string) (value string, ok bool, err error) {
	s, err := loadSettings(ctx, r.run, Getenv(r.run.env))
	if err != nil {
		return "", false, err
	}
	value, ok = s.Get(key)
	return value, ok, nil
}

// SetConfig sets key in the repository's own config (git config --local).
func (r *Repo) SetConfig(ctx context.Context, key, value string) error {
	_, err := r.run.output(ctx, "config", "--local", key, value)
	return err
}

// ColorBool asks git whether color name (e.g. color.convo, falling back to
// color.ui) is on for output that is (or is not) a terminal. ok is false when
// git could not answer.
func (r *Repo) ColorBool(ctx context.Context, name string, stdoutIsTTY bool) (on, ok bool) {
	out, err := r.run.output(ctx, "config", "--get-colorbool", name, strconv.FormatBool(stdoutIsTTY))
	if err != nil {
		return false, false
	}
	return strings.TrimSpace(string(out)) == "true", true
}

// Pager returns the user's pager for git (`git var GIT_PAGER`: GIT_PAGER,
// core.pager, PAGER, then git's default).
func (r *Repo) Pager(ctx context.Context) (string, error) {
	out, err := r.run.output(ctx, "var", "GIT_PAGER")
	return strings.TrimSpace(string(out)), err
}
