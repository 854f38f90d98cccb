package gitx

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

func TestRemoteTipsAndNewNonMerges(t *testing.T) {
	r := newTestRepo(t)
	base := r.commit("base")
	r.git("checkout", "-q", "-b", "side")
	side := r.commit("side")
	r.git("checkout", "-q", "main")
	mainTip := r.commit("main")
	r.at("merge", "-q", "--no-edit", "side")
	merge := r.git("rev-parse", "HEAD")
	after := r.commit("after")
	// Remote-tracking refs as a fetch writes them.
	r.git("update-ref", "refs/remotes/origin/main", after)
	r.git("update-ref", "refs/remotes/origin/old", base)
	repo := Here(r.dir)
	ctx := context.Background()

	tips, err := repo.RemoteTips(ctx)
	if err != nil || len(tips) != 2 || tips["refs/remotes/origin/main"] != after || tips["refs/remotes/origin/old"] != base {
		t.Fatalf("RemoteTips = %v, %v", tips, err)
	}
	gone := strings.Repeat("0123456789", 4) // a tip gc'd since
	for _, tc := range []struct {
		name             string
		n                int
		include, exclude []string
		want             []string
	}{
		{"what a move brought, no merge", 10, []string{after}, []string{base}, []string{after, mainTip, side}},
		{"at most n, newest first", 2, []string{after}, []string{base}, []string{after, mainTip}},
		{"an old tip gone is ignored", 10, []string{after}, []string{side, gone}, []string{after, mainTip}},
		{"nothing new", 10, []string{merge}, []string{merge}, nil},
		{"no tip", 10, nil, []string{base}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := repo.NewNonMerges(ctx, tc.n, tc.include, tc.exclude)
			if err != nil || strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("NewNonMerges = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

func TestRefTipsAndLastMoved(t *testing.T) {
	r := newTestRepo(t)
	c := r.commit("base")
	r.git("update-ref", "refs/remotes/origin/main", c)
	r.git("update-ref", "-m", "fetch: storing head", "refs/notes/remotes/origin/convo", c)
	r.git("update-ref", "refs/notes/other", c)
	tips, err := Here(r.dir).RefTips(context.Background(), "refs/remotes/", "refs/notes/remotes/")
	if err != nil || len(tips) != 2 || tips["refs/remotes/origin/main"] != c || tips["refs/notes/remotes/origin/convo"] != c {
		t.Fatalf("RefTips = %v, %v", tips, err)
	}
	common := filepath.Join(r.dir, ".git")
	stamp := strings.Fields(r.git("reflog", "show", "--date=unix", "--format=%gd", "refs/notes/remotes/origin/convo"))[0]
	if got := LastMoved(common, "refs/notes/remotes/origin/convo"); !strings.HasSuffix(stamp, fmt.Sprintf("@{%d}", got.Unix())) {
		t.Errorf("LastMoved = %v, git's reflog says %s", got, stamp)
	}
	if got := LastMoved(common, "refs/notes/remotes/gone/convo"); !got.IsZero() {
		t.Errorf("LastMoved of a ref with no reflog = %v", got)
	}
}
