package gitx

import (
	"context"
	"strings"

	"github.com/git-convo/git-convo/pkg/git/gitconfig"
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
		s, err := loadSettings(ctx, r.run, Getenv(r.run.env))
		if err != nil {
			return // unreadable: git's default
		}
		// Prefixed, not Get: a bare key reads "true" there.
		diff := s.Prefixed("diff.")
		if v, ok := diff["diff.renames"]; ok {
			r.renames = renameOptionFor(v)
			delete(diff, "diff.renames")
		}
		r.diffPlain = len(diff) == 0
		_, r.deltaCacheSet = s.Prefixed("core.")["core.deltabasecachelimit"]
	})
	return r.renames
}

// renameOptionFor maps a diff.renames value to diff-tree's option.
func renameOptionFor(value string) string {
	if strings.EqualFold(value, "copies") || strings.EqualFold(value, "copy") {
		return "-C"
	}
	if on, ok := gitconfig.ParseBool(value); ok && !on {
		return "--no-renames"
	}
	return "-M"
}
