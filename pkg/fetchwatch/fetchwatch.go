// Package fetchwatch notices that a plain `git fetch` ran and says which
// commits it brought, so that a squash merge made on the server can be
// recognised with no hook (git runs none on fetch) and no process on the
// common path.
//
// git writes FETCH_HEAD on every fetch (in each work tree's own git dir).
// The package keeps a stamp beside the repository's data, in its common
// dir: the FETCH_HEAD files as last seen, the remote-tracking refs' tips
// then, and the commits still to examine. A command asks Due (a stat of each
// FETCH_HEAD and a read of the small stamp); only when a fetch happened does
// Take run git, once, to list the remote-tracking refs, and once more to
// list the commits their moves brought, at most a batch per run: the rest
// is carried over to the next run.
package fetchwatch

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/git-convo/git-convo/pkg/atomicfile"
	"github.com/git-convo/git-convo/pkg/gitx"
)

// StampName is the stamp's file in the repository's common dir.
const StampName = "git-convo-fetched.json"

// maxCarry bounds the commits carried over (a fetch of a whole history
// must not grow the stamp without end): the oldest are dropped past it.
const maxCarry = 1000

// mark is what a stat of one FETCH_HEAD says.
type mark struct {
	ModNs int64 `json:"mtimeNs"`
	Size  int64 `json:"size"`
}

// stamp is what the last run saw and left.
type stamp struct {
	// Seen maps each FETCH_HEAD (relative to the common dir) to its stat.
	Seen map[string]mark `json:"seen"`
	// Tips maps each remote-tracking ref to its commit.
	Tips map[string]string `json:"tips"`
	// Pending are commits a fetch brought that no run examined yet,
	// newest first.
	Pending []string `json:"pending,omitempty"`
}

// Locate finds the common dir of the repository holding dir without
// running git, as git would: GIT_DIR (and GIT_COMMON_DIR) first, else the
// nearest .git above dir, following a linked worktree to its repository.
func Locate(dir string, getenv func(string) string) (string, bool) {
	if gd := getenv("GIT_DIR"); gd != "" {
		gitDir, err := filepath.Abs(gd)
		if err != nil {
			return "", false
		}
		if cd := getenv("GIT_COMMON_DIR"); cd != "" {
			cd, err = filepath.Abs(cd) // as git takes it: from the current directory
			return cd, err == nil
		}
		return gitx.CommonDirOf(gitDir), true
	}
	loc, ok := gitx.FindRepoForPathEnv(dir, getenv)
	return loc.CommonDir, ok
}

// marks stats the FETCH_HEAD of the main work tree and of each linked one
// (git keeps FETCH_HEAD per work tree). A repository never fetched has none.
func marks(common string) map[string]mark {
	out := map[string]mark{}
	add := func(rel string) {
		if fi, err := os.Stat(filepath.Join(common, rel)); err == nil {
			out[filepath.ToSlash(rel)] = mark{fi.ModTime().UnixNano(), fi.Size()}
		}
	}
	add("FETCH_HEAD")
	wts, _ := os.ReadDir(filepath.Join(common, "worktrees")) // usually absent: one failed open
	for _, wt := range wts {
		add(filepath.Join("worktrees", wt.Name(), "FETCH_HEAD"))
	}
	return out
}

func sameMarks(a, b map[string]mark) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// The stamp file is one line that Due compares, the key of what was seen
// and whether commits are carried over, then the stamp as JSON for Take.

// key is the stamp's first line for marks m with n commits carried over.
func key(m map[string]mark, n int) string {
	rels := make([]string, 0, len(m))
	for rel := range m {
		rels = append(rels, rel)
	}
	sort.Strings(rels)
	var b strings.Builder
	for _, rel := range rels {
		fmt.Fprintf(&b, "%s %d %d;", rel, m[rel].ModNs, m[rel].Size)
	}
	fmt.Fprintf(&b, " carried %d", n)
	return b.String()
}

func load(common string) stamp {
	var st stamp
	if b, err := os.ReadFile(filepath.Join(common, StampName)); err == nil {
		_, body, _ := bytes.Cut(b, []byte{'\n'})
		_ = json.Unmarshal(body, &st) // a torn stamp reads as none: the next run starts again
	}
	return st
}

// Due reports whether a fetch happened since the last run, or commits are
// carried over: with no new fetch it costs a stat of FETCH_HEAD (and of
// each linked work tree's) and a read of the stamp's first line; a
// repository never fetched costs the stats alone.
func Due(common string) bool {
	m := marks(common)
	if len(m) == 0 {
		return false
	}
	return firstLine(common) != key(m, 0)
}

// firstLine reads the stamp's first line only: the tips that follow may be
// many (a remote with thousands of branches).
func firstLine(common string) string {
	f, err := os.Open(filepath.Join(common, StampName))
	if err != nil {
		return ""
	}
	defer f.Close()
	buf := make([]byte, 4096)
	n, _ := io.ReadFull(f, buf)
	line, _, found := bytes.Cut(buf[:n], []byte{'\n'})
	if !found {
		return "" // torn, or more work trees than fit: due
	}
	return string(line)
}

// Batch is one run's share of the commits fetches brought.
type Batch struct {
	Commits []string // to examine now, newest first
	Left    int      // carried over to the next run
}

// Take claims the next batch, at most limit commits: those the fetches
// since the last run brought to the remote-tracking refs (and no merge
// commits: a squash is a plain commit), then those carried over. It
// records what it saw before returning, so another command does not do
// the same work; a batch whose examination fails is not retried (git
// convo fetch looks again). When the last run saw no remote-tracking ref
// (there was none, or no run yet), all history would count as brought:
// the run takes the last limit commits of the remote-tracking refs and
// carries nothing over. dir is where git runs (the work tree or git dir).
func Take(ctx context.Context, dir, common string, limit int) (Batch, error) {
	m := marks(common)
	st := load(common)
	if len(m) == 0 || sameMarks(m, st.Seen) && len(st.Pending) == 0 {
		return Batch{}, nil
	}
	var b Batch
	if err := writable(common); err != nil {
		return b, err // someone else's repository, read-only: no git either
	}
	repo := gitx.Here(dir)
	tips, err := repo.RemoteTips(ctx)
	if err != nil {
		return b, err
	}
	var brought []string
	first := len(st.Tips) == 0 // no stamp, or no remote then: all history would be new
	if first {                 // the recent past, as git convo fetch looks
		brought, err = repo.NewNonMerges(ctx, limit, uniqueValues(tips), nil)
	} else {
		var news []string
		for ref, h := range tips {
			if st.Tips[ref] != h {
				news = append(news, h)
			}
		}
		if len(news) > 0 {
			brought, err = repo.NewNonMerges(ctx, maxCarry, news, uniqueValues(st.Tips))
		}
	}
	if err != nil {
		return b, err
	}
	queue := dedupe(append(brought, st.Pending...))
	if len(queue) > maxCarry {
		queue = queue[:maxCarry]
	}
	n := min(limit, len(queue))
	b.Commits, b.Left = queue[:n], len(queue)-n
	next := stamp{Seen: m, Tips: tips, Pending: queue[n:]}
	if first {
		next.Pending = nil
		b.Left = 0
	}
	data, err := json.Marshal(next)
	if err != nil {
		return b, err
	}
	data = append([]byte(key(next.Seen, len(next.Pending))+"\n"), data...)
	return b, atomicfile.Write(filepath.Join(common, StampName), data, 0o644)
}

// writable says whether the stamp can be written in common, before any git
// runs: a read-only repository would otherwise cost every command the
// listing of what a fetch brought.
func writable(common string) error {
	f, err := os.CreateTemp(common, ".git-convo-fetched-*")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

func uniqueValues(m map[string]string) []string {
	seen := map[string]bool{}
	var out []string
	for _, v := range m {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

func dedupe(hs []string) []string {
	seen := map[string]bool{}
	out := hs[:0:0]
	for _, h := range hs {
		if !seen[h] {
			seen[h] = true
			out = append(out, h)
		}
	}
	return out
}
