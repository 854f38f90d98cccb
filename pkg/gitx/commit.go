package gitx

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
)

// Commit is one commit's metadata.
type Commit struct {
	Hash        string
	Parents     []string
	Author      string // "Name <email>"
	AuthorName  string
	AuthorEmail string
	AuthorTime  time.Time
	CommitTime  time.Time
	Subject     string
	Body        string   // the message after the subject and blank line
	Branch      string   // HEAD's branch when the commit is its tip
	Files       []string // changed paths against the first parent (ReadCommit only)
}

// ReadCommit reads one commit and its changed files with go-git, falling back
// to the git CLI where go-git cannot open the repository (SHA-256 object
// format, unusual layouts).
func (r *Repo) ReadCommit(ctx context.Context, rev string) (*Commit, error) {
	if r.ObjectFormat == "sha1" || r.ObjectFormat == "" {
		c, err := r.readCommitGoGit(rev)
		if err == nil {
			return c, nil
		}
	}
	return r.readCommitCLI(ctx, rev)
}

func (r *Repo) readCommitGoGit(rev string) (*Commit, error) {
	if r.GitDir == "" || r.CommonDir == "" {
		return nil, errors.New("repository layout unknown")
	}
	// go-git's storage alone: the root package would also link (and
	// initialise, in every git-convo process) its transports, SSH and OpenPGP.
	fs := dotgit.NewRepositoryFilesystem(osfs.New(r.GitDir), osfs.New(r.CommonDir))
	st := filesystem.NewStorage(fs, cache.NewObjectLRUDefault())
	var h plumbing.Hash
	switch {
	case rev == "HEAD":
		ref, err := storer.ResolveReference(st, plumbing.HEAD)
		if err != nil {
			return nil, err
		}
		h = ref.Hash()
	case plumbing.IsHash(rev):
		h = plumbing.NewHash(rev)
	default:
		return nil, errors.New("go-git path reads HEAD or full hashes only")
	}
	co, err := object.GetCommit(st, h)
	if err != nil {
		return nil, err
	}
	c := &Commit{
		Hash:        co.Hash.String(),
		AuthorName:  co.Author.Name,
		AuthorEmail: co.Author.Email,
		AuthorTime:  co.Author.When,
		CommitTime:  co.Committer.When,
	}
	c.Author = c.AuthorName + " <" + c.AuthorEmail + ">"
	c.Subject, c.Body = splitMessage(co.Message)
	for _, p := range co.ParentHashes {
		c.Parents = append(c.Parents, p.String())
	}
	tree, err := co.Tree()
	if err != nil {
		return nil, err
	}
	if len(co.ParentHashes) == 0 {
		// Walk names only: tree.Files() would load every blob.
		w := object.NewTreeWalker(tree, true, nil)
		defer w.Close()
		for {
			name, entry, werr := w.Next()
			if werr == io.EOF {
				break
			}
			if werr != nil {
				return nil, werr
			}
			if entry.Mode.IsFile() {
				c.Files = append(c.Files, name)
			}
		}
	} else {
		var parent *object.Commit
		if parent, err = object.GetCommit(st, co.ParentHashes[0]); err != nil {
			return nil, err
		}
		var ptree *object.Tree
		if ptree, err = parent.Tree(); err != nil {
			return nil, err
		}
		var changes object.Changes
		if changes, err = object.DiffTree(ptree, tree); err != nil {
			return nil, err
		}
		seen := map[string]bool{}
		for _, ch := range changes {
			for _, name := range []string{ch.From.Name, ch.To.Name} {
				if name != "" && !seen[name] {
					seen[name] = true
					c.Files = append(c.Files, name)
				}
			}
		}
	}
	if err != nil {
		return nil, err
	}
	sort.Strings(c.Files)
	if head, err := st.Reference(plumbing.HEAD); err == nil && head.Type() == plumbing.SymbolicReference && head.Target().IsBranch() {
		if tip, err := storer.ResolveReference(st, head.Target()); err == nil && tip.Hash() == co.Hash {
			c.Branch = head.Target().Short()
		}
	}
	return c, nil
}

// metaFormat is the --format of one commit's metadata, NUL-separated.
const metaFormat = "%H%x00%P%x00%an%x00%ae%x00%at%x00%ct%x00%B"

func (r *Repo) readCommitCLI(ctx context.Context, rev string) (*Commit, error) {
	out, err := r.run.output(ctx, "show", "-s", "--no-show-signature", "--format="+metaFormat, "--end-of-options", rev+"^{commit}")
	if err != nil {
		return nil, err
	}
	f := strings.SplitN(string(out), "\x00", 7)
	if len(f) != 7 {
		return nil, fmt.Errorf("unexpected git show output for %s", rev)
	}
	c := &Commit{Hash: f[0], AuthorName: f[2], AuthorEmail: f[3]}
	c.Parents = strings.Fields(f[1])
	c.Author = c.AuthorName + " <" + c.AuthorEmail + ">"
	c.AuthorTime = unixTime(f[4])
	c.CommitTime = unixTime(f[5])
	c.Subject, c.Body = splitMessage(strings.TrimSuffix(f[6], "\n"))
	if len(c.Parents) == 0 {
		c.Parents = nil
	}
	// Against the first parent only (a merge lists what it brought in); a
	// root commit lists every file.
	diffArgs := []string{"diff-tree", "-r", "--no-commit-id", "--name-only", "--no-renames", "-z"}
	if len(c.Parents) == 0 {
		diffArgs = append(diffArgs, "--root", c.Hash)
	} else {
		diffArgs = append(diffArgs, c.Parents[0], c.Hash)
	}
	files, err := r.run.output(ctx, diffArgs...)
	if err != nil {
		return nil, err
	}
	for _, p := range bytes.Split(files, []byte{0}) {
		if len(p) > 0 {
			c.Files = append(c.Files, string(p))
		}
	}
	sort.Strings(c.Files)
	if head, err := r.run.output(ctx, "symbolic-ref", "-q", "--short", "HEAD"); err == nil {
		if tip, err := r.run.output(ctx, "rev-parse", "HEAD"); err == nil && strings.TrimSpace(string(tip)) == c.Hash {
			c.Branch = strings.TrimSpace(string(head))
		}
	}
	return c, nil
}

func splitMessage(msg string) (subject, body string) {
	msg = strings.TrimLeft(msg, "\n")
	subject, body, _ = strings.Cut(msg, "\n")
	return strings.TrimSpace(subject), strings.Trim(body, "\n")
}

func unixTime(s string) time.Time {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return time.Time{}
	}
	return time.Unix(n, 0)
}

// errStop ends a log stream early.
var errStop = errors.New("stop")
