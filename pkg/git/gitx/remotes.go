package gitx

import (
	"context"
	"fmt"
	"strings"
)

// RemoteTips maps each remote-tracking ref (refs/remotes/...) to its commit.
func (r *Repo) RemoteTips(ctx context.Context) (map[string]string, error) {
	return r.RefTips(ctx, "refs/remotes/")
}

// RefTips maps each ref under the prefixes (as for-each-ref takes them) to
// the object it names, in one git for-each-ref.
func (r *Repo) RefTips(ctx context.Context, prefixes ...string) (map[string]string, error) {
	args := append([]string{"for-each-ref", "--format=%(objectname) %(refname)"}, prefixes...)
	out, err := r.run.output(ctx, args...)
	if err != nil {
		return nil, err
	}
	tips := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if h, ref, ok := strings.Cut(line, " "); ok {
			tips[ref] = h
		}
	}
	return tips, nil
}

// NewNonMerges lists, newest first, at most n commits that are not merges,
// reachable from include and from none of exclude (commits given by hash;
// one that no longer exists is ignored).
func (r *Repo) NewNonMerges(ctx context.Context, n int, include, exclude []string) ([]string, error) {
	if len(include) == 0 {
		return nil, nil
	}
	args := []string{"rev-list", "--no-merges", "--ignore-missing", "-n", fmt.Sprint(n)}
	args = append(args, include...)
	for _, h := range exclude {
		args = append(args, "^"+h)
	}
	out, err := r.run.output(ctx, append(args, "--")...)
	if err != nil {
		return nil, err
	}
	return strings.Fields(string(out)), nil
}
