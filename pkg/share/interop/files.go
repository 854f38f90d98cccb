package interop

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/git-convo/git-convo/pkg/attribution/link"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/interop/agenttrace"
	"github.com/git-convo/git-convo/pkg/share/notes"
)

// File is what other tools say of one file: per commit, the writers they
// name in its lines (and the trailers' agents); the commits only they
// name (beyond those the caller knows, newest first); and the writers over
// all those commits.
type File struct {
	ByCommit map[string][]Writer
	Extra    []string
	Writers  []Writer // line claims only, summed over the commits: most lines first
}

// ForFile reads what other tools say of path (repository-relative) in the
// commits hashes, and in the last limit commits that touched it (one git
// log, only when the repository has one of the refs). For get_file_context:
// the same reading as log and blame, limited to the file's lines.
func ForFile(ctx context.Context, repo *gitx.Repo, g notes.Git, path string, hashes []string, limit int, known Known) (File, []Skip) {
	out := File{ByCommit: map[string][]Writer{}}
	want := link.NormPath(path)
	all := append([]string(nil), hashes...)
	if len(Refs(ctx, g)) > 0 && limit > 0 {
		b, err := gitx.Command(ctx, g.Dir, g.Env, "-c", "log.showSignature=false", "log", "-n", strconv.Itoa(limit), "--format=%H", "--", path).Output()
		if err == nil {
			for _, h := range strings.Fields(string(b)) {
				if !slices.Contains(all, h) {
					all = append(all, h)
					out.Extra = append(out.Extra, h)
				}
			}
		}
	}
	said, skips := ReadCommits(ctx, repo, g, all, func(p string) bool { return link.NormPath(p) == want }, known)
	extra := out.Extra[:0]
	for _, h := range out.Extra {
		if len(said.Lines[h]) > 0 { // only a line claim on the file makes it the file's commit
			extra = append(extra, h)
		}
	}
	out.Extra = extra
	sum := map[string]map[int][]Claim{} // the file's lines over all commits, keyed apart per commit
	for _, h := range all {
		if ws := Writers(said.Lines[h], said.Commit[h]); len(ws) > 0 && (len(said.Lines[h]) > 0 || slices.Contains(hashes, h)) {
			out.ByCommit[h] = ws
		}
		for p, byLine := range said.Lines[h] {
			for n, cs := range byLine {
				k := h + "\x00" + p
				if sum[k] == nil {
					sum[k] = map[int][]Claim{}
				}
				sum[k][n] = cs
			}
		}
	}
	for _, w := range Writers(sum, nil) {
		w.Files = []string{path}
		out.Writers = append(out.Writers, w)
	}
	return out, skips
}

// Sessions are the agent sessions git-ai's notes name, by agent and
// session id, each with the commits whose lines it wrote (oldest note
// first, each commit once).
type Sessions map[[2]string][]string

// ReadSessions reads every git-ai note (at most ScanMax a ref) for the
// sessions they name: which commits a conversation's session wrote lines
// of, beyond those git-convo linked. Nothing is read without the refs.
func ReadSessions(ctx context.Context, repo *gitx.Repo, g notes.Git) (Sessions, []Skip) {
	return readSessions(ctx, repo, g, ScanMax)
}

// readSessions is ReadSessions reading at most max notes a ref: the rest
// is a Skip, so that the log says the sessions counted are not all.
func readSessions(ctx context.Context, repo *gitx.Repo, g notes.Git, max int) (Sessions, []Skip) {
	var refs []string
	for _, r := range Refs(ctx, g) {
		if r != agenttrace.Ref {
			refs = append(refs, r)
		}
	}
	if len(refs) == 0 {
		return nil, nil
	}
	if repo.CommonDir == "" {
		if r, ok := gitx.Discover(g.Dir, gitx.Getenv(g.Env)); ok {
			repo = r
		}
	}
	rd := NewReader(repo, g, refs)
	out := Sessions{}
	var skips []Skip
	noted := map[string]bool{} // one git-ai note a commit: the first ref's (CompareRefs)
	for _, ref := range rd.refs {
		over := map[string]bool{}
		if _, err := rd.notesByBlob(ctx, ref, nil, over); err != nil { // lists the ref's notes
			skips = append(skips, Skip{Ref: ref, Err: err})
			continue
		}
		commits := make([]string, 0, len(rd.index[ref]))
		for c := range rd.index[ref] {
			if !noted[c] {
				commits = append(commits, c)
			}
		}
		sort.Strings(commits)
		if len(commits) > max {
			skips = append(skips, Skip{Ref: ref, Err: fmt.Errorf("%d notes: the sessions of %d read, those of the other %d not counted", len(commits), max, len(commits)-max)})
			commits = commits[:max]
		}
		blobs, err := rd.notesByBlob(ctx, ref, commits, over)
		if err != nil {
			skips = append(skips, Skip{Ref: ref, Err: err})
			continue
		}
		for c := range over {
			noted[c] = true
		}
		for _, c := range commits {
			b, ok := blobs[c]
			if !ok {
				continue
			}
			noted[c] = true
			l, err := readGitAI(c, string(b)) // once: what addGitAI refuses, and the sessions
			if err != nil {
				skips = append(skips, Skip{Ref: ref, Commit: c, Err: err})
				continue
			}
			for _, f := range l.Files {
				for _, e := range f.Entries {
					if a, _ := l.Resolve(e.Key); a.IsAI() && a.Agent.ID != "" {
						k := [2]string{a.Agent.Tool, a.Agent.ID}
						if _, ok := out[k]; !ok { // kept: not a substring holding the whole note
							k = [2]string{strings.Clone(k[0]), strings.Clone(k[1])}
						}
						if !slices.Contains(out[k], c) {
							out[k] = append(out[k], c)
						}
					}
				}
			}
		}
	}
	return out, skips
}

// Commits are the commits git-ai's notes give to conversation id of agent
// that are not among have (those git-convo links).
func (s Sessions) Commits(agent, id string, have []string) []string {
	var out []string
	for _, c := range s[[2]string{agent, id}] {
		if !slices.Contains(have, c) {
			out = append(out, c)
		}
	}
	return out
}
