package gitx

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReaches: whether a commit is reachable from a tip, from the object
// files: itself, a parent, a merge's second parent, one past the bound
// (unknown), a commit of another history (no), a missing object (unknown);
// loose and packed alike.
func TestReaches(t *testing.T) {
	r := newTestRepo(t)
	a := r.commit("a")
	b := r.commit("b")
	r.git("checkout", "-q", "-b", "side", a)
	s := r.commit("side")
	r.git("checkout", "-q", "-")
	r.at("merge", "-q", "--no-ff", "-m", "merge", "side")
	m := r.git("rev-parse", "HEAD")
	c := r.commit("c")
	other := r.git("commit-tree", r.git("rev-parse", "HEAD^{tree}"), "-m", "another history")
	missing := strings.Repeat("ab", 20)
	for _, packed := range []bool{false, true} {
		if packed {
			r.git("repack", "-adq")
		}
		repo := r.open()
		for _, tc := range []struct {
			name           string
			tip, target    string
			max            int
			reached, known bool
		}{
			{"itself", c, c, 1, true, true},
			{"its parent", c, m, 4, true, true},
			{"a merge's second parent", c, s, 8, true, true},
			{"the root", c, a, 8, true, true},
			{"past the bound", c, a, 2, false, false},
			{"not an ancestor", b, s, 8, false, true},
			{"another history", c, other, 8, false, true},
			{"a missing tip", missing, c, 8, false, false},
		} {
			reached, known := repo.Reaches(tc.tip, tc.target, tc.max)
			if reached != tc.reached || known != tc.known {
				t.Errorf("packed %v, %s: reached %v, known %v; want %v, %v", packed, tc.name, reached, known, tc.reached, tc.known)
			}
		}
	}
	// An object the files cannot read: git's answer, not a guess.
	if err := os.RemoveAll(filepath.Join(r.dir, ".git", "objects", "pack")); err != nil {
		t.Fatal(err)
	}
	if _, known := r.open().Reaches(c, a, 8); known {
		t.Error("with the objects gone, Reaches claims to know")
	}
}
