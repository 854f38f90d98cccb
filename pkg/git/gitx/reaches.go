package gitx

import (
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-convo/git-convo/pkg/git/odb"
)

// Reaches says whether commit target is tip or one of its ancestors, from
// the object files (no process), visiting at most max commits; ok is false
// where the files cannot tell within that bound (an object not read, a
// header git may read otherwise, more commits): then only git can.
// It is for short histories such as a notes ref's since its last merge.
func (r *Repo) Reaches(tip, target string, max int) (reached, ok bool) {
	if tip == target {
		return true, true
	}
	if r.CommonDir == "" || len(tip) != 40 || len(target) != 40 {
		return false, false
	}
	st := odb.Open(r.CommonDir)
	defer st.Close()
	want := plumbing.NewHash(target)
	queue := []plumbing.Hash{plumbing.NewHash(tip)}
	seen := map[plumbing.Hash]bool{queue[0]: true}
	for len(queue) > 0 {
		if len(seen) > max {
			return false, false
		}
		h := queue[0]
		queue = queue[1:]
		data, err := st.Typed(h, plumbing.CommitObject)
		if err != nil {
			return false, false
		}
		ps, parsed := commitParents(data)
		if !parsed {
			return false, false
		}
		for _, p := range ps {
			if p == want {
				return true, true
			}
			if !seen[p] {
				seen[p] = true
				queue = append(queue, p)
			}
		}
	}
	return false, true
}
