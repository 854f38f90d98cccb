package gitx

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// ReflogEntry is one line of a reflog: HEAD moved from Old to New, with
// git's message ("commit: ...", "cherry-pick: ...", "checkout: ...").
type ReflogEntry struct {
	Old, New string
	Stamp    string // "<unix seconds> <zone>", as git wrote it
	Message  string
	Branch   string // the branch that moved with HEAD ("" when detached); see NewCommits
}

// errNoReflog: the work tree keeps no HEAD reflog (core.logAllRefUpdates off,
// a bare repository, the reftable format).
const errNoReflog = constError("no HEAD reflog")

// NewCommits returns the last n entries of this work tree's HEAD reflog that
// made a new commit (commit, amend, merge, cherry-pick, revert, rebase's
// picks, am), oldest first, each with the branch it was made on: the branch
// whose reflog moved to the same commit at the same moment with the same
// message, or, for a rebase's commits, the branch the rebase returned to.
// It reads files only, no git process. An error means there is no reflog to
// read: the caller records HEAD instead.
func (r *Repo) NewCommits(n int) ([]ReflogEntry, error) {
	all, idx, err := r.lastEntries(n, makesCommit)
	if err != nil {
		return nil, err
	}
	if len(idx) == 0 {
		return nil, nil
	}
	branches := r.branchMoves()
	out := make([]ReflogEntry, 0, len(idx))
	for k := len(idx) - 1; k >= 0; k-- {
		i := idx[k]
		e := all[i]
		e.Branch = branches[moveKey(e)]
		if e.Branch == "" && strings.HasPrefix(e.Message, "rebase") {
			e.Branch = rebaseReturn(all[i+1:])
		}
		out = append(out, e)
	}
	return out, nil
}

// Merges returns the last n entries of this work tree's HEAD reflog that a
// merge or pull wrote, fast-forwards included, oldest first: what the
// post-merge hook fired for, and so which commits a pull brought (Old..New).
// It reads files only, no git process.
func (r *Repo) Merges(n int) ([]ReflogEntry, error) {
	all, idx, err := r.lastEntries(n, func(msg string) bool {
		kind, _, _ := strings.Cut(msg, ":")
		return isMergeKind(kind)
	})
	if err != nil {
		return nil, err
	}
	out := make([]ReflogEntry, len(idx))
	for k, i := range idx {
		out[len(idx)-1-k] = all[i]
	}
	return out, nil
}

// lastEntries reads the HEAD reflog and returns it with the indexes of its
// last n entries whose message keep accepts, newest first.
func (r *Repo) lastEntries(n int, keep func(msg string) bool) ([]ReflogEntry, []int, error) {
	if r.GitDir == "" || n <= 0 {
		return nil, nil, errNoReflog
	}
	all, err := readReflog(filepath.Join(r.GitDir, "logs", "HEAD"))
	if err != nil {
		return nil, nil, errNoReflog
	}
	var idx []int
	for i := len(all) - 1; i >= 0 && len(idx) < n; i-- {
		if keep(all[i].Message) {
			idx = append(idx, i)
		}
	}
	return all, idx, nil
}

// Time is when the entry was written (zero when unreadable).
func (e ReflogEntry) Time() time.Time {
	secs, _, _ := strings.Cut(e.Stamp, " ")
	n, err := strconv.ParseInt(secs, 10, 64)
	if err != nil {
		return time.Time{}
	}
	return time.Unix(n, 0)
}

// makesCommit tells the reflog messages of commands that create a commit
// from those that only move HEAD (checkout, reset, a fast-forward).
func makesCommit(msg string) bool {
	kind, rest, _ := strings.Cut(msg, ":")
	switch {
	case strings.HasPrefix(kind, "commit"), kind == "cherry-pick", kind == "revert", kind == "am":
		return true
	case isMergeKind(kind):
		return !strings.Contains(rest, "Fast-forward")
	case strings.HasPrefix(kind, "rebase"):
		for _, step := range []string{"(pick)", "(reword)", "(edit)", "(squash)", "(fixup)", "(continue)"} {
			if strings.HasSuffix(kind, step) {
				return true
			}
		}
	}
	return false
}

// isMergeKind tells a merge's or a pull's reflog message by the part before
// its first colon.
func isMergeKind(kind string) bool {
	return strings.HasPrefix(kind, "merge ") || kind == "pull" || strings.HasPrefix(kind, "pull ")
}

// rebaseReturn finds, after a rebase's entries, the branch it finished on.
func rebaseReturn(after []ReflogEntry) string {
	for _, e := range after {
		if b, ok := strings.CutPrefix(e.Message, "rebase (finish): returning to refs/heads/"); ok {
			return b
		}
		if b, ok := strings.CutPrefix(e.Message, "rebase -i (finish): returning to refs/heads/"); ok {
			return b
		}
		if !strings.HasPrefix(e.Message, "rebase") {
			return "" // the rebase ended some other way (abort, checkout)
		}
	}
	return ""
}

func moveKey(e ReflogEntry) string { return e.New + " " + e.Stamp + " " + e.Message }

// branchMoves maps every move recorded in the branches' reflogs to the
// branch: git writes HEAD's and its branch's entry together, alike.
func (r *Repo) branchMoves() map[string]string {
	out := map[string]string{}
	root := filepath.Join(r.CommonDir, "logs", "refs", "heads")
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return nil
		}
		entries, err := readReflog(path)
		if err != nil {
			return nil
		}
		for _, e := range entries {
			out[moveKey(e)] = filepath.ToSlash(rel)
		}
		return nil
	})
	return out
}

// readReflog parses a reflog file: "<old> <new> <name> <email> <time> <zone>\t<message>".
func readReflog(path string) ([]ReflogEntry, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []ReflogEntry
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), len(data)+1)
	for sc.Scan() {
		head, msg, _ := strings.Cut(sc.Text(), "\t")
		f := strings.Fields(head)
		if len(f) < 4 {
			continue
		}
		gt := strings.LastIndexByte(head, '>')
		if gt < 0 {
			continue
		}
		out = append(out, ReflogEntry{Old: f[0], New: f[1], Stamp: strings.TrimSpace(head[gt+1:]), Message: msg})
	}
	return out, sc.Err()
}

// LastMoved is when ref (a full ref name, kept in the common dir) last
// moved, by its reflog's newest entry; zero when it keeps none
// (core.logAllRefUpdates off, the reftable format). It reads a file, no git.
func LastMoved(commonDir, ref string) time.Time {
	all, err := readReflog(filepath.Join(commonDir, "logs", filepath.FromSlash(ref)))
	if err != nil || len(all) == 0 {
		return time.Time{}
	}
	return all[len(all)-1].Time()
}
