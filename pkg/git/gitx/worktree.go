package gitx

import (
	"context"
	"strings"
)

// Worktrees lists the work trees of the repository (the main one first, then
// the linked ones), as `git worktree list` knows them.
func (r *Repo) Worktrees(ctx context.Context) ([]string, error) {
	// -z: a work tree's path may hold a newline.
	b, err := r.run.output(ctx, "worktree", "list", "--porcelain", "-z")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, line := range strings.Split(string(b), "\x00") {
		if p, ok := strings.CutPrefix(line, "worktree "); ok {
			out = append(out, p)
		}
	}
	return out, nil
}
