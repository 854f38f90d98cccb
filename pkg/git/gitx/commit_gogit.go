package gitx

import (
	"bytes"
	"errors"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/git-convo/git-convo/pkg/git/odb"
	"github.com/go-git/go-git/v5/plumbing"
)

// errGoGitRev: the in-process reader resolves only what needs no rev-parse.
const errGoGitRev = constError("the in-process reader reads HEAD or a full hash only")

// readCommitGoGit reads a commit in process, with go-git's object and pack
// formats (see odb.Store): no git process, and none of go-git's storage,
// config or signature packages to initialise.
func (r *Repo) readCommitGoGit(rev string) (*Commit, error) {
	if r.GitDir == "" || r.CommonDir == "" {
		return nil, errors.New("repository layout unknown")
	}
	if rev != "HEAD" && (len(rev) != 40 || !IsFullHash(rev)) {
		return nil, errGoGitRev
	}
	// HEAD is read once: the commit for "HEAD", the branch for either.
	head, branch, headErr := r.resolveHead()
	h := plumbing.NewHash(rev)
	if rev == "HEAD" {
		if headErr != nil {
			return nil, headErr
		}
		h = plumbing.NewHash(head)
	}
	st := odb.Open(r.CommonDir)
	defer st.Close()
	data, err := st.Typed(h, plumbing.CommitObject)
	if err != nil {
		return nil, err
	}
	c, tree, err := parseCommitObject(h.String(), data)
	if err != nil {
		return nil, err
	}
	var parentTree plumbing.Hash
	if len(c.Parents) > 0 {
		pdata, err := st.Typed(plumbing.NewHash(c.Parents[0]), plumbing.CommitObject)
		if err != nil {
			return nil, err
		}
		if _, parentTree, err = parseCommitObject(c.Parents[0], pdata); err != nil {
			return nil, err
		}
	}
	if err := st.DiffTrees(parentTree, tree, "", &c.Files); err != nil {
		return nil, err
	}
	sort.Strings(c.Files)
	if headErr == nil && head == c.Hash {
		c.Branch = branch
	}
	return c, nil
}

// parseCommitObject reads a commit object's header and message.
func parseCommitObject(hash string, data []byte) (*Commit, plumbing.Hash, error) {
	c := &Commit{Hash: hash}
	var tree plumbing.Hash
	head, msg, _ := bytes.Cut(data, []byte("\n\n"))
	for _, line := range strings.Split(string(head), "\n") {
		key, val, _ := strings.Cut(line, " ")
		switch key {
		case "tree":
			tree = plumbing.NewHash(val)
		case "parent":
			c.Parents = append(c.Parents, val)
		case "author":
			c.AuthorName, c.AuthorEmail, c.AuthorTime = parseIdent(val)
		case "committer":
			_, _, c.CommitTime = parseIdent(val)
		}
	}
	if tree.IsZero() {
		return nil, tree, errors.New("malformed commit object " + hash)
	}
	c.Author = c.AuthorName + " <" + c.AuthorEmail + ">"
	c.Subject, c.Body = splitMessage(string(msg))
	return c, tree, nil
}

// parseIdent reads "Name <email> 1700000000 +0200", the time in its own zone.
func parseIdent(s string) (name, email string, when time.Time) {
	lt, gt := strings.IndexByte(s, '<'), strings.LastIndexByte(s, '>')
	if lt < 0 || gt < lt {
		return strings.TrimSpace(s), "", time.Time{}
	}
	name, email = strings.TrimRight(s[:lt], gitSpace), s[lt+1:gt] // as git's %an: leading space kept
	f := strings.Fields(s[gt+1:])
	if len(f) < 1 {
		return name, email, time.Time{}
	}
	secs, err := strconv.ParseInt(f[0], 10, 64)
	if err != nil {
		return name, email, time.Time{}
	}
	when = time.Unix(secs, 0)
	if len(f) > 1 && len(f[1]) == 5 {
		hh, err1 := strconv.Atoi(f[1][1:3])
		mm, err2 := strconv.Atoi(f[1][3:5])
		if err1 == nil && err2 == nil {
			off := hh*3600 + mm*60
			if f[1][0] == '-' {
				off = -off
			}
			when = when.In(time.FixedZone("", off))
		}
	}
	return name, email, when
}

// resolveHead reads HEAD from files: the commit it names and its branch
// ("" when detached). Loose refs come first, then packed-refs.
func (r *Repo) resolveHead() (hash, branch string, err error) {
	// HEAD as readRefFile reads it: a symbolic link (maybe out of the
	// repository), or anything git may read otherwise, is git's.
	ref, kind := readRefFile(filepath.Join(r.GitDir, "HEAD"))
	switch kind {
	case refHash:
		return ref, "", nil
	case refSymbolic:
	default:
		return "", "", errors.New("unreadable HEAD")
	}
	hash, err = r.resolveRef(ref, 0)
	if err != nil {
		return "", "", err
	}
	branch, _ = strings.CutPrefix(ref, "refs/heads/")
	if branch == ref {
		branch = ""
	}
	return hash, branch, nil
}

// resolveRef follows a ref to a hash through loose and packed refs.
func (r *Repo) resolveRef(ref string, depth int) (string, error) {
	if h, ok := (&refFiles{r: r}).resolve(ref, depth); ok {
		return h, nil
	}
	return "", errors.New("ref not found: " + ref)
}
