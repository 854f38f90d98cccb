package gitx

import (
	"context"
	"strings"
)

// renameOption is diff-tree's option for the rename detection that the
// user's diff.renames asks of git's own diff, log and show. diff-tree is
// plumbing and ignores that setting, so it is read here, as git reads it:
// unset, true or a bare key: -M (git's default since 2.9); "copies" or
// "copy" (any case): -C, renames and copies; false: --no-renames. A value
// git refuses ("bad boolean config value") keeps git's default, so a
// typo never costs a commit its line attribution. It is read once per Repo.
func (r *Repo) renameOption(ctx context.Context) string {
	r.renamesOnce.Do(func() {
		r.renames = "-M"
		out, err := r.run.output(ctx, "config", "-z", "--get-regexp", `^diff\.renames$`)
		if err != nil {
			return // unset (or unreadable): git's default
		}
		r.renames = renameOptionFor(lastConfigValue(out))
	})
	return r.renames
}

// renameOptionFor maps a diff.renames value to diff-tree's option.
func renameOptionFor(value string) string {
	if strings.EqualFold(value, "copies") || strings.EqualFold(value, "copy") {
		return "-C"
	}
	if on, ok := parseGitBool(value); ok && !on {
		return "--no-renames"
	}
	return "-M"
}

// lastConfigValue is the value of the last record of `git config -z
// --get-regexp` ("key\nvalue\x00", or "key\x00" for a bare key, which
// means true), the one git uses.
func lastConfigValue(out []byte) string {
	recs := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	_, v, hasValue := strings.Cut(recs[len(recs)-1], "\n")
	if !hasValue {
		return "true"
	}
	return v
}
