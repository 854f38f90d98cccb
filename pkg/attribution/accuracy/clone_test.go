package accuracy

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// clone is a work tree the harness edits as a person and agents would, with
// the truth of every line of its checked-out branch beside it.
type clone struct {
	t           testing.TB
	w           *world
	u           *user
	dir         string
	cur         string
	files       tree
	saved       map[string]tree            // other branches' files, by branch
	branchPaths map[string]map[string]bool // paths changed on a branch since it forked
	dirty       map[string]bool
	last        string // the subject of HEAD
}

func (c *clone) write(path string) string {
	c.t.Helper()
	abs := filepath.Join(c.dir, path)
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		c.t.Fatal(err)
	}
	if err := os.WriteFile(abs, []byte(render(c.files[path])), 0o644); err != nil {
		c.t.Fatal(err)
	}
	c.dirty[path] = true
	c.w.paths[path] = true
	return abs
}

// splice puts lines written by writer at index at of path.
func (c *clone) splice(writer, path string, at int, lines []string) {
	ls := c.files[path]
	add := make([]line, len(lines))
	for i, s := range lines {
		add[i] = line{text: s, writer: writer, fresh: true}
	}
	c.files[path] = append(ls[:at:at], append(add, ls[at:]...)...)
}

// agentInsert is one turn of an agent: a prompt, one edit that inserts lines
// at index at of path (a new file when path does not exist), and its end.
func (c *clone) agentInsert(a agent, prompt, path string, at int, lines []string) {
	c.t.Helper()
	old, created := texts(c.files[path]), c.files[path] == nil
	c.splice(a.id, path, at, lines)
	abs := c.write(path)
	a.prompt(c.u, c.dir, prompt)
	c.w.started[a.id] = true
	if created {
		a.edited(c.u, c.dir, abs, "", render(c.files[path]), true)
	} else {
		before, after := anchor(old, at)
		ctx := append(append([]string{}, before...), after...)
		with := append(append(append([]string{}, before...), lines...), after...)
		a.edited(c.u, c.dir, abs, strings.Join(ctx, "\n"), strings.Join(with, "\n"), false)
	}
	a.stop(c.u, c.dir)
}

// personInsert is a person typing lines at index at of path.
func (c *clone) personInsert(path string, at int, lines []string) {
	c.t.Helper()
	c.splice("", path, at, lines)
	c.write(path)
}

// personEdit is a person rewriting the first line of path that writer wrote
// with the text old.
func (c *clone) personEdit(path, writer, old, text string) {
	c.t.Helper()
	for i, l := range c.files[path] {
		if l.writer == writer && l.text == old {
			c.files[path][i] = line{text: text, fresh: true}
			c.write(path)
			return
		}
	}
	c.t.Fatalf("harness: no line %q by %q in %s", old, writer, path)
}

// lineOf is the index of the first line of path whose text is text.
func (c *clone) lineOf(path, text string) int {
	c.t.Helper()
	i := slices.IndexFunc(c.files[path], func(l line) bool { return l.text == text })
	if i < 0 {
		c.t.Fatalf("harness: no line %q in %s", text, path)
	}
	return i
}

// after is the index just past the k-th function of path (counted from the
// end when k < 0): where a whole function can go.
func (c *clone) after(path string, k int) int {
	ends := funcEnds(texts(c.files[path]))
	if k < 0 {
		k += len(ends)
	}
	return ends[min(max(k, 0), len(ends)-1)] + 1
}

func (c *clone) commit(subject string) string {
	c.t.Helper()
	c.u.git(c.dir, "add", "-A")
	c.u.git(c.dir, "commit", "-q", "-m", subject)
	c.w.truth[subject] = &commitTruth{writers: map[string]bool{}, files: tree{}, started: maps.Clone(c.w.started)}
	c.last = subject
	c.settle(c.w.truth[subject])
	return c.head()
}

// amend folds the work since the last commit into it, as git commit --amend.
func (c *clone) amend() {
	c.t.Helper()
	c.u.git(c.dir, "add", "-A")
	c.u.git(c.dir, "commit", "-q", "--amend", "--no-edit")
	tr := c.w.truth[c.last]
	tr.started = maps.Clone(c.w.started) // the amended commit is a new one, made now
	for p := range tr.files {
		c.dirty[p] = true
	}
	c.settle(tr)
}

// settle records the truth of the commit just made: who wrote its new lines
// and its changed files as they are in it.
func (c *clone) settle(tr *commitTruth) {
	if c.branchPaths[c.cur] == nil {
		c.branchPaths[c.cur] = map[string]bool{}
	}
	for p := range c.dirty {
		for i, l := range c.files[p] {
			if l.fresh && l.writer != "" {
				tr.writers[l.writer] = true
			}
			c.files[p][i].fresh = false
		}
		tr.files[p] = append([]line{}, c.files[p]...)
		c.branchPaths[c.cur][p] = true
	}
	c.dirty = map[string]bool{}
}

func (c *clone) head() string { return strings.TrimSpace(c.u.git(c.dir, "rev-parse", "HEAD")) }

func (c *clone) branch(name string) {
	c.t.Helper()
	c.u.git(c.dir, "checkout", "-q", "-b", name)
	c.saved[c.cur] = c.files.clone()
	c.cur = name
	c.branchPaths[name] = map[string]bool{}
}

func (c *clone) switchTo(name string) {
	c.t.Helper()
	c.u.git(c.dir, "checkout", "-q", name)
	c.saved[c.cur] = c.files
	c.files, c.cur = c.saved[name].clone(), name
}

// overlay is base with the files of top that changed on top's side (the
// scenarios never change one file on both sides).
func overlay(base, top tree, paths map[string]bool) tree {
	out := base.clone()
	for p := range paths {
		out[p] = append([]line{}, top[p]...)
	}
	return out
}

// rebaseOnto rebases the current branch onto base.
func (c *clone) rebaseOnto(base string) {
	c.t.Helper()
	c.u.git(c.dir, "rebase", "-q", base)
	c.files = overlay(c.saved[base], c.files, c.branchPaths[c.cur])
}

// fastForward brings branch into the current one (git merge --ff-only).
func (c *clone) fastForward(branch string) {
	c.t.Helper()
	c.u.git(c.dir, "merge", "-q", "--ff-only", branch)
	for p := range c.branchPaths[branch] {
		c.branchPaths[c.cur][p] = true
	}
	c.files = c.saved[branch].clone()
}

// cherryPick copies the commit with subject from rev onto the current branch.
func (c *clone) cherryPick(rev, subject string) {
	c.t.Helper()
	c.u.git(c.dir, "cherry-pick", rev)
	picked := c.w.truth[subject].files
	paths := map[string]bool{}
	for p := range picked {
		paths[p] = true
		c.branchPaths[c.cur][p] = true
	}
	c.files = overlay(c.files, picked, paths)
}
