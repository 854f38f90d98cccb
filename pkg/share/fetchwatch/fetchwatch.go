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
//
// A squash merge can arrive before the notes it matches (its author pushed
// the notes later): examined then, it had nothing to match. So the stamp
// also keeps the tips of the notes refs fetches fill, and a fetch that
// moved one looks again at the recent past, once, with one more git.
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
	"time"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/util/atomicfile"
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
	// Notes maps each watched notes ref to its notes commit (nil: none
	// watched yet, as in a stamp written before notes were watched).
	Notes map[string]string `json:"notes"`
	// NotesAt maps each watched notes ref to when a fetch last moved it
	// (the newest FETCH_HEAD's time, in Unix nanoseconds, when a run saw
	// the move).
	NotesAt map[string]int64 `json:"notesAt,omitempty"`
}

// Notes names the notes refs a fetch brings teammates' notes to. A move of
// one since the last run has the run look again at the recent past: a
// squash merge fetched before the notes it matches had nothing to match.
type Notes struct {
	// Tracking and Suffix say which refs a fetch writes teammates' notes
	// to: those under Tracking ending in Suffix (refs/notes/remotes/ and
	// /convo; a remote's name may hold a slash).
	Tracking, Suffix string
	// Ref is the notes ref itself. It is watched only in a repository with
	// no tracking ref (a fetch set up to write it directly): elsewhere this
	// clone's own notes move it, not fetches.
	Ref string
	// Recheck is how many recent commits of the remote-tracking refs (not
	// merges) a move has the run look at again.
	Recheck int
}

// watched picks, from the notes refs listed, those whose moves count.
func (n Notes) watched(listed map[string]string) map[string]string {
	out := map[string]string{}
	for ref, h := range listed {
		if n.Tracking != "" && strings.HasPrefix(ref, n.Tracking) && strings.HasSuffix(ref, n.Suffix) {
			out[ref] = h
		}
	}
	if len(out) == 0 && listed[n.Ref] != "" {
		out[n.Ref] = listed[n.Ref]
	}
	return out
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
	// Recheck are recent commits examined before (none of those queued) to look
	// at again because a fetch moved notes (newest first).
	Recheck []string
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
//
// When the fetches moved one of the notes refs n watches, the batch also
// holds the last n.Recheck commits of the remote-tracking refs, less those
// queued, as Recheck: a third git runs only then. The stamp is written
// whether or not that git fails: the next run does not look again.
func Take(ctx context.Context, dir, common string, limit int, n Notes) (Batch, error) {
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
	patterns := []string{"refs/remotes/"}
	for _, p := range []string{n.Tracking, n.Ref} {
		if p != "" {
			patterns = append(patterns, p)
		}
	}
	tips, err := repo.RefTips(ctx, patterns...)
	if err != nil {
		return b, err
	}
	listed := map[string]string{}
	for ref, h := range tips {
		if !strings.HasPrefix(ref, "refs/remotes/") {
			listed[ref] = h
			delete(tips, ref)
		}
	}
	notesTips := n.watched(listed)
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
	k := min(limit, len(queue))
	b.Commits, b.Left = queue[:k], len(queue)-k
	next := stamp{Seen: m, Tips: tips, Pending: queue[k:], Notes: notesTips, NotesAt: st.NotesAt}
	if first {
		next.Pending = nil
		b.Left = 0
	}
	moved := movedNotes(st.Notes, notesTips)
	if len(moved) > 0 { // the first look credits the notes there to the last fetch
		next.NotesAt = stampTimes(st.NotesAt, moved, m)
	}
	var recheckErr error
	if len(moved) > 0 && !first && n.Recheck > 0 {
		var recent []string
		recent, recheckErr = repo.NewNonMerges(ctx, n.Recheck, uniqueValues(tips), nil)
		b.Recheck = minus(recent, queue) // those carried over come in their turn
	}
	data, err := json.Marshal(next)
	if err != nil {
		return b, err
	}
	data = append([]byte(key(next.Seen, len(next.Pending))+"\n"), data...)
	if err := atomicfile.Write(filepath.Join(common, StampName), data, 0o644); err != nil {
		return b, err
	}
	return b, recheckErr
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

// movedNotes lists the watched notes refs that are new or moved since the
// last run saw them.
func movedNotes(was, now map[string]string) []string {
	var out []string
	for ref, h := range now {
		if was[ref] != h {
			out = append(out, ref)
		}
	}
	return out
}

// stampTimes records, for each ref moved, the time of the newest fetch.
func stampTimes(at map[string]int64, moved []string, m map[string]mark) map[string]int64 {
	var newest int64
	for _, mk := range m {
		newest = max(newest, mk.ModNs)
	}
	out := make(map[string]int64, len(at)+len(moved))
	for ref, t := range at {
		out[ref] = t
	}
	for _, ref := range moved {
		out[ref] = newest
	}
	return out
}

// NotesFetched says when a fetch last moved each watched notes ref, as far
// as a run saw it (it sees a move at the next command after the fetch).
func NotesFetched(common string) map[string]time.Time {
	out := map[string]time.Time{}
	for ref, ns := range load(common).NotesAt {
		out[ref] = time.Unix(0, ns)
	}
	return out
}

func minus(hs, drop []string) []string {
	gone := map[string]bool{}
	for _, h := range drop {
		gone[h] = true
	}
	var out []string
	for _, h := range hs {
		if !gone[h] {
			out = append(out, h)
		}
	}
	return out
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
