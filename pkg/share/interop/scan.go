package interop

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/interop/agenttrace"
	"github.com/git-convo/git-convo/pkg/share/interop/gitai"
	"github.com/git-convo/git-convo/pkg/share/notes"
)

// ScanMax bounds how many notes of a ref Scan reads (doctor's time).
const ScanMax = 5000

// Report is what Scan found on other tools' refs.
type Report struct {
	Notes   map[string]int // ref -> notes on it
	Checked map[string]int // ref -> notes read (at most ScanMax)
	Skipped []Skip         // notes (or records) every read skips, and why
}

// Scan reads every note on refs as the read commands would, and also
// checks each git-ai log's ranges against its files at the commit: the
// notes and records the readers skip, for doctor. A git-ai note's copy on
// a later ref (CompareRefs) is counted, but read by no command: not checked.
func Scan(ctx context.Context, repo *gitx.Repo, g notes.Git, refs []string) (Report, error) {
	return scan(ctx, repo, g, refs, ScanMax)
}

// scan is Scan reading at most max notes a ref.
func scan(ctx context.Context, repo *gitx.Repo, g notes.Git, refs []string, max int) (Report, error) {
	rep := Report{Notes: map[string]int{}, Checked: map[string]int{}}
	noted := map[string]bool{} // commits whose git-ai note is read: a copy on a later ref is read by none
	for _, ref := range slices.SortedFunc(slices.Values(refs), CompareRefs) {
		out, err := gitx.Command(ctx, g.Dir, g.Env, "ls-tree", "-r", "-z", "--full-tree", ref).Output()
		if err != nil {
			continue // a vanished ref: the others still answer
		}
		var paths []string
		of := map[string]string{}
		for _, entry := range bytes.Split(out, []byte{0}) {
			meta, path, ok := bytes.Cut(entry, []byte{'\t'})
			if f := strings.Fields(string(meta)); ok && len(f) == 3 && f[1] == "blob" {
				if rep.Notes[ref]++; len(paths) < max {
					paths = append(paths, string(path))
					of[string(path)] = strings.ReplaceAll(string(path), "/", "")
				}
			}
		}
		blobs, err := repo.FilesAt(ctx, ref, paths)
		if err != nil {
			return rep, err
		}
		rep.Checked[ref] = len(blobs)
		var read []string
		for p, b := range blobs {
			commit := of[p]
			if ref == agenttrace.Ref {
				rep.Skipped = append(rep.Skipped, addAgentTrace(Lines{}.add, ref, commit, b, none)...)
				continue
			}
			if noted[commit] {
				continue
			}
			read = append(read, commit)
			if err := checkGitAI(ctx, repo, commit, b); err != nil {
				rep.Skipped = append(rep.Skipped, Skip{Ref: ref, Commit: commit, Err: err})
			}
		}
		for _, c := range read {
			noted[c] = true // marked after the ref: one ref's own notes never shadow each other
		}
	}
	return rep, nil
}

// none keeps no file's lines: a check that holds no claim.
func none(string) bool { return false }

// checkGitAI is addGitAI's refusal, and ranges past a file's end.
func checkGitAI(ctx context.Context, repo *gitx.Repo, commit string, b []byte) error {
	if err := addGitAI(Lines{}.add, commit, string(b), none); err != nil {
		return err
	}
	l, _ := gitai.Parse(b)
	var paths []string
	for _, f := range l.Files {
		paths = append(paths, f.Path)
	}
	files, err := repo.FilesAt(ctx, commit, paths)
	if err != nil {
		return fmt.Errorf("the commit's files cannot be read: %v", err)
	}
	return l.CheckLines(func(p string) (int, bool) {
		c, ok := files[p]
		if !ok {
			return 0, false
		}
		n := bytes.Count(c, []byte{'\n'})
		if len(c) > 0 && c[len(c)-1] != '\n' {
			n++
		}
		return n, true
	})
}
