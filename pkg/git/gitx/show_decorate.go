package gitx

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/git-convo/git-convo/pkg/git/odb"
	"github.com/go-git/go-git/v5/plumbing"
)

// Decorations as git show prints them on a terminal (log.decorate=auto,
// short names): "HEAD -> main, tag: v1, origin/main". git (2.39) decorates
// with the refs under refs/heads/, refs/tags/, refs/remotes/, refs/stash
// and HEAD, last ref name first, HEAD before all; HEAD that names a branch
// here prints as "HEAD -> branch" in HEAD's place, the branch left out. A
// ref to an annotated tag decorates the commit the tag names, as "tag: ".

// decoratedRef is one ref git's default decoration filter takes.
func decoratedRef(name string) bool {
	return strings.HasPrefix(name, "refs/heads/") || strings.HasPrefix(name, "refs/tags/") ||
		strings.HasPrefix(name, "refs/remotes/") || name == "refs/stash"
}

// Decoration is one of a commit's decorations and git's color slot for it
// (color.decorate.<slot>): HEAD, branch, remoteBranch, tag or stash.
// "HEAD -> main" is two: HEAD's "HEAD -> " and the branch's "main".
type Decoration struct {
	Slot, Text string
}

// refSlot is git's decoration color slot for a ref (log-tree.c).
func refSlot(name string) string {
	switch {
	case strings.HasPrefix(name, "refs/tags/"):
		return "tag"
	case strings.HasPrefix(name, "refs/remotes/"):
		return "remoteBranch"
	case name == "refs/stash":
		return "stash"
	}
	return "branch"
}

// JoinDecorations is the decorations as git prints them, without the
// parentheses.
func JoinDecorations(ds []Decoration) string {
	var b strings.Builder
	for i, d := range ds {
		if i > 0 && !strings.HasSuffix(ds[i-1].Text, "-> ") {
			b.WriteString(", ")
		}
		b.WriteString(d.Text)
	}
	return b.String()
}

// decorations returns git's decorations of commit (none: empty); ok is
// false where git might decorate otherwise (a decoration filter set, refs
// the files cannot tell).
func (r *Repo) decorations(st *odb.Store, s *Settings, commit string) ([]Decoration, bool) {
	for _, k := range []string{"log.excludedecoration", "log.initialdecorationset"} {
		if isSet(s, k) {
			return nil, false
		}
	}
	refs, ok := r.allRefs()
	if !ok {
		return nil, false
	}
	names := make([]string, 0, len(refs))
	for name := range refs {
		if decoratedRef(name) {
			names = append(names, name)
		}
	}
	sort.Sort(sort.Reverse(sort.StringSlice(names)))
	var out []Decoration
	headRef, ok := r.headRefName()
	if !ok {
		return nil, false
	}
	current := "" // the branch HEAD names, when it decorates this commit
	if head, _, err := r.resolveHead(); err == nil && head == commit {
		if headRef != "" && strings.HasPrefix(headRef, "refs/heads/") && refs[headRef].hash == commit {
			current = headRef
			out = append(out, Decoration{"HEAD", "HEAD -> "}, Decoration{"branch", shortRefName(headRef)})
		} else {
			out = append(out, Decoration{"HEAD", "HEAD"})
		}
	}
	for _, name := range names {
		ref := refs[name]
		switch {
		case name == current:
		case ref.hash == commit:
			if strings.HasPrefix(name, "refs/tags/") {
				out = append(out, Decoration{"tag", "tag: " + shortRefName(name)})
			} else {
				out = append(out, Decoration{refSlot(name), shortRefName(name)})
			}
		default:
			peeled, ok := ref.peeled, ref.peeledKnown
			if !ok {
				if peeled, ok = peelTag(st, ref.hash); !ok {
					return nil, false
				}
			}
			if peeled == commit {
				out = append(out, Decoration{"tag", "tag: " + shortRefName(name)})
			}
		}
	}
	return out, true
}

// headRefName is the ref HEAD names at the end of its chain of symbolic
// refs (git's resolve_ref_unsafe("HEAD")), "" for a detached HEAD. ok is
// false where a file in the chain is git's to read.
func (r *Repo) headRefName() (string, bool) {
	name, kind := readRefFile(filepath.Join(r.GitDir, "HEAD"))
	if kind == refHash {
		return "", true
	}
	for range 5 {
		if kind != refSymbolic {
			return "", false
		}
		next, k := "", refAbsent
		for _, dir := range []string{r.GitDir, r.CommonDir} {
			if next, k = readRefFile(filepath.Join(dir, filepath.FromSlash(name))); k != refAbsent {
				break
			}
		}
		switch k {
		case refAbsent, refHash:
			return name, true // packed, unborn, or a hash
		case refOdd:
			return "", false
		}
		name, kind = next, k
	}
	return "", false
}

// shortRefName is git's prettify_refname.
func shortRefName(name string) string {
	for _, p := range []string{"refs/heads/", "refs/tags/", "refs/remotes/"} {
		if rest, ok := strings.CutPrefix(name, p); ok {
			return rest
		}
	}
	return name
}

// refValue is a ref's object and, when packed-refs says, what it peels to
// ("" for an object that is no tag).
type refValue struct {
	hash        string
	peeled      string
	peeledKnown bool
}

// readPackedRefs reads packed-refs: each ref's object and, where the file
// says, what it peels to. A missing file is no refs; ok is false for a file
// that cannot be read or holds a line git would not write (what it could
// read is returned all the same).
func readPackedRefs(commonDir string) (refs map[string]refValue, ok bool) {
	refs = map[string]refValue{}
	data, err := os.ReadFile(filepath.Join(commonDir, "packed-refs"))
	if err != nil {
		return refs, os.IsNotExist(err)
	}
	// git dies on a line it cannot parse, an unterminated last line, and a
	// "#" line other than the header: ok is false for each.
	body, ended := strings.CutSuffix(string(data), "\n")
	ok = ended || len(data) == 0
	if len(data) == 0 {
		return refs, true
	}
	lines := strings.Split(body, "\n")
	if strings.HasPrefix(lines[0], "#") {
		ok = ok && strings.HasPrefix(lines[0], "# pack-refs with:")
		lines = lines[1:]
	}
	last := ""
	for _, line := range lines {
		switch {
		case line == "" || line[0] == '#':
			ok, last = false, ""
		case line[0] == '^':
			if last == "" || len(line) != 41 || !isLowerHex(line[1:]) {
				ok = false
				continue
			}
			v := refs[last]
			v.peeled, v.peeledKnown = line[1:], true
			refs[last] = v
		default:
			h, name, found := strings.Cut(line, " ")
			if !found || len(h) != 40 || !isLowerHex(h) || !validRefName(name) {
				ok, last = false, ""
				continue
			}
			// Only a "^" line is taken for a peel: git decorates from the
			// objects themselves, whatever "fully-peeled" says of the rest.
			refs[name], last = refValue{hash: h}, name
		}
	}
	return refs, ok
}

// allRefs reads every ref from packed-refs and the loose ref files (a loose
// ref wins), symbolic refs resolved. ok is false for a ref it cannot read.
func (r *Repo) allRefs() (map[string]refValue, bool) {
	refs, ok := readPackedRefs(r.CommonDir)
	if !ok {
		return nil, false
	}
	files := refFiles{r: r}
	root := filepath.Join(r.CommonDir, "refs")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(r.CommonDir, p)
		if err != nil {
			return err
		}
		name := filepath.ToSlash(rel)
		if !decoratedRef(name) {
			return nil
		}
		if !validRefName(name) {
			return fs.ErrInvalid // a *.lock, an editor's "v1~": git skips them, or warns
		}
		v, kind := readRefFile(p)
		switch kind {
		case refSymbolic:
			h, ok := files.resolve(v, 1)
			if files.doubt {
				return fs.ErrInvalid
			}
			if !ok {
				return nil // a dangling symbolic ref: git skips it
			}
			v = h
		case refHash:
		default:
			return fs.ErrInvalid
		}
		refs[name] = refValue{hash: v}
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		return nil, false
	}
	return refs, true
}

// peelTag follows annotated tags from h: the object they name at last, ""
// for an object that is no tag. ok is false for an object it cannot read.
func peelTag(st *odb.Store, h string) (string, bool) {
	t, err := st.Type(plumbing.NewHash(h))
	if err != nil {
		return "", false
	}
	if t != plumbing.TagObject {
		return "", true
	}
	for range 10 {
		_, data, err := st.Object(plumbing.NewHash(h))
		if err != nil {
			return "", false
		}
		line, _, _ := bytes.Cut(data, []byte("\n"))
		obj, ok := bytes.CutPrefix(line, []byte("object "))
		if !ok || !IsFullHash(string(obj)) {
			return "", false
		}
		h = string(obj)
		if t, err = st.Type(plumbing.NewHash(h)); err != nil {
			return "", false
		}
		if t != plumbing.TagObject {
			return h, true
		}
	}
	return "", false
}
