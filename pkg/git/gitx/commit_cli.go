package gitx

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"
	"time"
)

// commitFormat is ReadCommit's --format for git diff-tree: NUL-terminated
// fields, the message last (it may hold anything but NUL).
const commitFormat = "%H%x00%P%x00%an%x00%ae%x00%aI%x00%cI%x00%D%x00%B%x00"

// commitFields counts commitFormat's fields.
const commitFields = 8

// readCommitCLI reads a commit with one `git diff-tree` (two when rev is not
// a full hash: diff-tree takes no --end-of-options, so rev-parse resolves it
// first): header, decorations for the branch, and the changed paths.
func (r *Repo) readCommitCLI(ctx context.Context, rev string) (*Commit, error) {
	hash := rev
	if !IsFullHash(rev) {
		hashes, err := r.RevParse(ctx, rev)
		if err != nil {
			return nil, err
		}
		hash = hashes[0]
	}
	// -r: paths, not trees; --root: a root commit lists every path;
	// --diff-merges=first-parent: a merge lists what it brought in;
	// --always: a commit changing nothing still prints its header.
	out, err := r.run.output(ctx, "diff-tree", "-r", "-z", "--name-only", "--no-renames", "--root",
		"--diff-merges=first-parent", "--always", "--format="+commitFormat, hash)
	if err != nil {
		return nil, err
	}
	return parseCommitCLI(out)
}

func parseCommitCLI(out []byte) (*Commit, error) {
	f := bytes.SplitN(out, []byte{0}, commitFields+1)
	if len(f) != commitFields+1 {
		return nil, fmt.Errorf("unexpected git diff-tree output %.200q", out)
	}
	c := &Commit{Hash: string(f[0]), AuthorName: string(f[2]), AuthorEmail: string(f[3])}
	c.Parents = strings.Fields(string(f[1]))
	if len(c.Parents) == 0 {
		c.Parents = nil
	}
	c.Author = c.AuthorName + " <" + c.AuthorEmail + ">"
	var err error
	if c.AuthorTime, err = time.Parse(time.RFC3339, string(f[4])); err != nil {
		return nil, fmt.Errorf("git diff-tree: author date: %w", err)
	}
	if c.CommitTime, err = time.Parse(time.RFC3339, string(f[5])); err != nil {
		return nil, fmt.Errorf("git diff-tree: committer date: %w", err)
	}
	c.Branch = branchFromRefs(splitRefs(string(f[6])))
	c.Subject, c.Body = splitMessage(string(f[7]))
	// The header ends with -z's NUL, then a newline before any paths.
	rest := bytes.TrimPrefix(f[8], []byte{0})
	rest = bytes.TrimPrefix(rest, []byte{'\n'})
	for _, p := range bytes.Split(rest, []byte{0}) {
		if len(p) > 0 {
			c.Files = append(c.Files, string(p))
		}
	}
	sort.Strings(c.Files)
	return c, nil
}

// splitRefs splits a %D decoration list ("HEAD -> main, tag: v1, origin/main").
// Ref names hold no spaces, so ", " only ever separates.
func splitRefs(d string) []string {
	if d == "" {
		return nil
	}
	return strings.Split(d, ", ")
}

// branchFromRefs is HEAD's branch in a decoration list: git prints
// "HEAD -> <branch>" when HEAD is on a branch whose tip this commit is.
func branchFromRefs(refs []string) string {
	for _, d := range refs {
		if b, ok := strings.CutPrefix(d, "HEAD -> "); ok {
			return b
		}
	}
	return ""
}
