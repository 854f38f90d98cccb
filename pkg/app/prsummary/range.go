package prsummary

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/git-convo/git-convo/pkg/git/gitx"
)

// ErrNoBase is returned when no range is given and none can be chosen: the
// branch has no upstream and the repository no origin/HEAD.
var ErrNoBase = errors.New("no range given, no upstream for the current branch and no origin/HEAD: name a base (git convo pr <base>)")

type resolved struct {
	label                 string
	base, head, mergeBase string
}

// resolveRange reads [<base>..<head> | <base>] (<base>...<head> too, which
// a pull request's diff is); none: the current branch against its
// upstream, else against origin/HEAD. The diff is taken from the merge
// base, as a pull request shows it; the commits are <base>..<head>.
func resolveRange(ctx context.Context, repo *gitx.Repo, args []string) (resolved, error) {
	var base, head, label string
	switch len(args) {
	case 0:
		for _, b := range []string{"@{upstream}", "origin/HEAD"} {
			if _, err := repo.RevParse(ctx, b); err == nil {
				base = b
				break
			}
		}
		if base == "" {
			return resolved{}, ErrNoBase
		}
		head, label = "HEAD", base+"..HEAD"
	case 1:
		a := args[0]
		label = a
		if l, r, ok := strings.Cut(a, "..."); ok {
			base, head = l, r
		} else if l, r, ok := strings.Cut(a, ".."); ok {
			base, head = l, r
		} else {
			base, head, label = a, "HEAD", a+"..HEAD"
		}
		if base == "" {
			base = "HEAD"
		}
		if head == "" {
			head = "HEAD"
		}
	default:
		return resolved{}, fmt.Errorf("one range at most: <base>..<head> or <base> (got %d arguments)", len(args))
	}
	for _, r := range []string{base, head} {
		if strings.HasPrefix(r, "-") {
			return resolved{}, fmt.Errorf("unknown revision %q", r)
		}
	}
	hs, err := repo.RevParse(ctx, base, head)
	if err != nil {
		return resolved{}, err
	}
	mb, err := repo.MergeBase(ctx, hs[0], hs[1])
	if err != nil {
		return resolved{}, err
	}
	if mb == "" {
		return resolved{}, fmt.Errorf("%s and %s have no common ancestor", base, head)
	}
	return resolved{label: label, base: hs[0], head: hs[1], mergeBase: mb}, nil
}
