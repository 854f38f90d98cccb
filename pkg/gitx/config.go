package gitx

import (
	"bytes"
	"context"
	"errors"
	"fmt"
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

// ConfigBool returns a boolean setting as git reads it (yes/on/true/1, a
// bare key); ok is false when the key is not set, and a value git does not
// take as a boolean is an error.
func (r *Repo) ConfigBool(ctx context.Context, key string) (value, ok bool, err error) {
	s, ok, err := r.configTyped(ctx, "bool", key)
	if err != nil || !ok {
		return false, ok, err
	}
	return s == "true", true, nil
}

// ConfigInt returns an integer setting as git reads it (k, m and g
// suffixes); ok is false when the key is not set.
func (r *Repo) ConfigInt(ctx context.Context, key string) (value int64, ok bool, err error) {
	s, ok, err := r.configTyped(ctx, "int", key)
	if err != nil || !ok {
		return 0, ok, err
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, false, fmt.Errorf("git config %s: %q is not an integer", key, s)
	}
	return n, true, nil
}

func (r *Repo) configTyped(ctx context.Context, typ, key string) (string, bool, error) {
	args := []string{"config", "-z"}
	if typ != "" {
		args = append(args, "--type="+typ)
	}
	out, err := r.run.output(ctx, append(args, "--get", key)...)
	if err != nil {
		if missingKey(err) {
			return "", false, nil
		}
		return "", false, err
	}
	return string(bytes.TrimSuffix(out, []byte{0})), true, nil
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
