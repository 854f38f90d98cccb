package notes

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/git/gitx"
)

// TestLinksIndexRandomMoves: two notes refs moved at random (notes added,
// changed and removed at every fan-out git reads, in either case, beside
// stray blobs, with modes changed, objects packed or loose), and after each
// move the links file brought up to date, from the object files, is the
// file built whole by git. A few dozen moves here;
// GIT_CONVO_LINKS_MOVES and GIT_CONVO_LINKS_SEED run more by hand.
func TestLinksIndexRandomMoves(t *testing.T) {
	moves, seed := 40, int64(1)
	if n, err := strconv.Atoi(os.Getenv("GIT_CONVO_LINKS_MOVES")); err == nil {
		moves = n
	}
	if n, err := strconv.ParseInt(os.Getenv("GIT_CONVO_LINKS_SEED"), 10, 64); err == nil {
		seed = n
	}
	rnd := rand.New(rand.NewSource(seed))
	ctx := context.Background()
	g, hs := repoWithCommits(t, 8)
	common := filepath.Join(g.Dir, ".git")
	local, err := gitx.Open(ctx, g.Dir, false)
	if err != nil {
		t.Fatal(err)
	}
	// Each commit's note paths: flat, fanned out at one and two levels
	// (now and then in upper case: a ref with one is read whole at each
	// move, so they come and go); and paths git reads as no note.
	var paths []string
	for _, h := range hs {
		paths = append(paths, h, h[:2]+"/"+h[2:], h[:2]+"/"+h[2:4]+"/"+h[4:])
	}
	paths = append(paths, "README", hs[0][:3]+"/"+hs[0][3:], hs[1]+"/inside")
	modes := []string{"100644", "100644", "100644", "100755", "120000"}
	refs := []string{Ref, TrackingRef("origin")}
	trees := map[string]map[string]string{} // ref -> path -> "mode body"
	for step := range moves {
		ref := refs[rnd.Intn(len(refs))]
		files := trees[ref]
		if files == nil {
			files = map[string]string{}
			trees[ref] = files
		}
		if rnd.Intn(2) == 0 {
			for p := range files {
				if strings.ToLower(p) != p {
					delete(files, p)
				}
			}
		}
		for range 1 + rnd.Intn(4) {
			p := paths[rnd.Intn(len(paths))]
			if rnd.Intn(8) == 0 {
				p = strings.ToUpper(p)
			}
			if rnd.Intn(4) == 0 {
				delete(files, p)
				continue
			}
			commit := hs[rnd.Intn(len(hs))]
			body := noteText(t, commit, "w", fmt.Sprintf("c%d", rnd.Intn(5)))
			if rnd.Intn(6) == 0 {
				body = "plain text"
			}
			files[p] = modes[rnd.Intn(len(modes))] + " " + body
		}
		var script strings.Builder
		fmt.Fprintf(&script, "commit %s\ncommitter A <a@x> %d +0000\ndata 0\n", ref, 1700000000+step)
		if tip, err := g.run(ctx, nil, "rev-parse", "-q", "--verify", ref); err == nil {
			fmt.Fprintf(&script, "from %s\n", strings.TrimSpace(string(tip)))
		}
		script.WriteString("deleteall\n")
		for p, f := range files {
			mode, body, _ := strings.Cut(f, " ")
			fmt.Fprintf(&script, "M %s inline %s\ndata %d\n%s\n", mode, p, len(body), body)
		}
		script.WriteString("done\n")
		git(t, g, script.String(), "fast-import", "--quiet", "--done", "--force")
		if rnd.Intn(8) == 0 {
			git(t, g, "", "repack", "-adq")
		}
		tips := map[string]string{}
		for _, r := range refs {
			if tip, err := g.run(ctx, nil, "rev-parse", "-q", "--verify", r); err == nil {
				tips[r] = strings.TrimSpace(string(tip))
			}
		}
		x, err := g.OpenLinksIndex(ctx, common, tips, local)
		if err != nil {
			t.Fatalf("move %d: %v", step, err)
		}
		whole, err := g.updateLinks(ctx, nil, tips, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(whole.entries, x.entries) || !bytes.Equal(whole.heap, x.heap) || whole.whole[Ref] != x.whole[Ref] {
			t.Fatalf("move %d (seed %d): the file brought up to date differs from one built whole", step, seed)
		}
		x.Close()
	}
}
