package notes

import (
	"bufio"
	"bytes"
	"context"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/git-convo/git-convo/pkg/attribution/link"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/trace"
	"github.com/git-convo/git-convo/pkg/store"
)

// BuildOptions say what a record shares and how free text is cleaned.
type BuildOptions struct {
	Prompts     bool   // share each conversation's first prompt (redacted)
	Root, Home  string // the work tree and the home directory, hidden in free text
	ToolVersion string
	Writer      string // names this clone (convo.shareWriter)
}

// Build makes the Agent Trace record of every commit in hashes that this
// clone has and the store links to a conversation. Two git processes and a
// few queries, however many commits.
func (g Git) Build(ctx context.Context, st *store.Store, hashes []string, o BuildOptions) (map[string]trace.Record, error) {
	have, err := g.existing(ctx, hashes)
	if err != nil {
		return nil, err
	}
	return g.build(ctx, st, have, o)
}

// build is Build for hashes known to be commits of this repository.
func (g Git) build(ctx context.Context, st *store.Store, have []string, o BuildOptions) (map[string]trace.Record, error) {
	linked, err := st.ConversationsForCommits(ctx, have)
	if err != nil {
		return nil, err
	}
	var todo []string
	for _, h := range have {
		if len(linked[h]) > 0 {
			todo = append(todo, h)
		}
	}
	out := map[string]trace.Record{}
	if len(todo) == 0 {
		return out, nil
	}
	// git diffs the commits while the store reads their line writers: on
	// 20,000 commits, each of the two takes a third of share on's time.
	type diffsOf struct {
		diffs map[string]commitDiff
		err   error
	}
	done := make(chan diffsOf, 1)
	go func() {
		d, err := g.diffs(ctx, todo)
		done <- diffsOf{d, err}
	}()
	writers, examined, err := st.CommitLineWriters(ctx, todo)
	d := <-done
	if err != nil {
		return nil, err
	}
	if d.err != nil {
		return nil, d.err
	}
	diffs := d.diffs
	squashed := g.teammatesSquashed(ctx, todo, writers, examined, diffs, o)
	for _, h := range todo {
		in := trace.Input{
			Commit: h, Time: diffs[h].time, Added: diffs[h].added, Writers: map[string]map[int]string{}, Unexamined: !examined[h],
			Prompts: o.Prompts, Root: o.Root, Home: o.Home, ToolVersion: o.ToolVersion, Writer: o.Writer,
		}
		for p, lines := range writers[h] {
			in.Writers[p] = map[int]string{}
			for n, w := range lines {
				in.Writers[p][n] = w.ConversationID
				in.BlanksKnown = in.BlanksKnown || w.Evidence == store.EvidencePosition
			}
		}
		for _, lc := range linked[h] {
			in.Links = append(in.Links, trace.Link{
				ID: lc.ConversationID, Agent: lc.Conv.Agent, Model: lc.Conv.Model, Title: lc.Conv.Title,
				Summary: lc.Conv.Summary, FirstPrompt: lc.Conv.FirstPrompt, Status: lc.Status, Reason: lc.Reason,
				Confidence: lc.Confidence, MatchedFiles: lc.MatchedFiles, FirstSeenMs: lc.Conv.FirstSeenMs,
				ActivityMs: lc.Conv.ActivityMs, WrittenLines: lc.WrittenLines, AddedLines: lc.AddedLines, PositionLines: lc.PositionLines,
			})
		}
		if sq, ok := squashed[h]; ok {
			withSquashed(&in, sq)
		}
		out[h] = trace.Build(in)
	}
	return out, nil
}

// teammatesSquashed finds, among this clone's examined commits, those that
// reproduce teammates' noted lines (git reset --soft over their commits
// and a commit: a squash git reports as no rewrite), read as a squash
// merge is (Squashes), from the remotes' notes only. Its lines no
// conversation of this clone wrote are then no evidence of a person.
// A first share of a long history (more than squashScan such commits)
// is left as it was: the rule is for commits made now.
func (g Git) teammatesSquashed(ctx context.Context, todo []string, writers map[string]map[string]map[int]store.LineWriter,
	examined map[string]bool, diffs map[string]commitDiff, o BuildOptions) map[string]trace.Record {
	var cands []string
	for _, h := range todo {
		if examined[h] && unwritten(diffs[h].added, writers[h]) {
			cands = append(cands, h)
		}
	}
	if len(cands) == 0 || len(cands) > squashScan {
		return nil
	}
	all, err := g.SharedRefs(ctx)
	var refs []string
	for _, r := range all {
		if strings.HasPrefix(r, trackingPrefix) {
			refs = append(refs, r)
		}
	}
	if err != nil || len(refs) == 0 {
		return nil
	}
	// What squashesOf looks for first: the candidates' lines named in a
	// teammate's note. Where the kept hashes of those notes say none is,
	// there is nothing to read (mayMention: no git grep of every note).
	of := make(map[string]commitDiff, len(cands))
	for _, h := range cands {
		of[h] = diffs[h]
	}
	if want := lineHashesOf(of); len(want) < squashMinRun || !g.mayMention(ctx, refs, want) {
		return nil
	}
	recs, err := g.squashesOfDiffs(ctx, refs, cands, nil, of, o) // the lines asked of mayMention
	if err != nil {
		return nil // the record stays as this clone examined it
	}
	return recs
}

// unwritten reports a countable added line no local conversation wrote.
func unwritten(added map[string][]gitx.AddedLine, writers map[string]map[int]store.LineWriter) bool {
	for p, ls := range added {
		for _, l := range ls {
			if _, ok := writers[p][l.Line]; !ok && link.Countable(l.Text) {
				return true
			}
		}
	}
	return false
}

// withSquashed adds to in, a commit of this clone's, what sq (its reading
// as a squash of teammates' commits) gives their conversations: the lines
// no conversation of this clone wrote, as derived links, when sq may be
// shared (Shareable). The commit's other lines are unknown, not a
// person's, unless sq placed every line by position (its record names no
// unknown line) and is shared. Conversations this clone shared itself
// (its own notes, fetched back) are left to its database: a rewrite of
// its own commits is read by copy, and an unlink stands.
func withSquashed(in *trace.Input, sq trace.Record) {
	m, _ := sq.Meta()
	own := map[string]bool{}
	for _, l := range in.Links {
		own[l.ID] = true
	}
	theirs := false
	for id, cm := range m.Conversations {
		if cm.SharedBy == in.Writer {
			own[id] = true
		} else if !own[id] {
			theirs = true
		}
	}
	if !theirs {
		return
	}
	if !Shareable(sq) {
		in.Unexamined = true
		return
	}
	in.Unexamined = in.Unexamined || HasUnknown(sq)
	written := map[string]int{}
	for _, f := range sq.Files {
		for _, c := range f.Conversations {
			id := trace.ConversationID(c.URL)
			if id == "" || own[id] || c.Contributor == nil || c.Contributor.Type != "ai" {
				continue
			}
			for _, r := range c.Ranges {
				for n := r.StartLine; n <= r.EndLine; n++ {
					if in.Writers[f.Path] == nil {
						in.Writers[f.Path] = map[int]string{}
					}
					if in.Writers[f.Path][n] == "" {
						in.Writers[f.Path][n] = id
						written[id]++
					}
				}
			}
		}
	}
	ids := make([]string, 0, len(written))
	for id := range written {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		cm, n := m.Conversations[id], written[id]
		in.Links = append(in.Links, trace.Link{ID: id, Agent: cm.Agent, Model: cm.Model, Title: cm.Title, Summary: cm.Summary,
			Status: cm.Status, Reason: cm.Reason, Confidence: cm.Confidence, WrittenLines: n,
			PositionLines: min(n, cm.PositionLines), Derived: DerivedSquash, SharedBy: cm.SharedBy})
	}
}

// existing keeps the hashes that name commits in this repository (a store
// shared by clones knows commits this one never had), in order.
func (g Git) existing(ctx context.Context, hashes []string) ([]string, error) {
	if len(hashes) == 0 {
		return nil, nil
	}
	out, err := g.run(ctx, []byte(strings.Join(hashes, "\n")+"\n"), "cat-file", "--batch-check=%(objectname) %(objecttype)")
	if err != nil {
		return nil, err
	}
	var have []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for i := 0; sc.Scan() && i < len(hashes); i++ {
		if f := strings.Fields(sc.Text()); len(f) == 2 && f[1] == "commit" {
			have = append(have, hashes[i])
		}
	}
	return have, sc.Err()
}

type commitDiff struct {
	time  time.Time
	added map[string][]gitx.AddedLine
}

// commitChunks splits what diffs' git log printed into its commits' parts:
// each starts with the \x01 of its format at the start of a line. An added
// line holding a \x01 (after its '+') starts none: splitting at every \x01
// cut a commit's diff there and filed the rest under a made-up commit.
func commitChunks(out []byte) [][]byte {
	var chunks [][]byte
	start := -1
	for i, c := range out {
		if c != 1 || i > 0 && out[i-1] != '\n' {
			continue
		}
		if start >= 0 {
			chunks = append(chunks, out[start:i])
		}
		start = i + 1
	}
	if start >= 0 {
		chunks = append(chunks, out[start:])
	}
	return chunks
}

// diffOptions pin what git log -p prints, whatever the user configured.
var diffOptions = []string{"-c", "core.quotePath=false", "-c", "diff.noprefix=false", "-c", "diff.mnemonicPrefix=false",
	"-c", "log.showSignature=false"}

// diffs reads the added lines and committer time of commits with one git
// log (a merge shows no diff of its own, a root commit adds every line).
// With paths (from the top, taken literally), only their diffs are read: a commit
// that changes none of them has no entry.
func (g Git) diffs(ctx context.Context, hashes []string, paths ...string) (map[string]commitDiff, error) {
	args := append(append([]string{}, diffOptions...), "log", "--no-walk=unsorted", "--stdin", "-p", "-U0", "--no-color",
		"--no-renames", "--no-ext-diff", "--no-textconv", "--format=%x01%H %ct")
	if len(paths) > 0 {
		args = append(args, "--")
		for _, p := range paths {
			args = append(args, ":(top,literal)"+p)
		}
	}
	out, err := g.run(ctx, []byte(strings.Join(hashes, "\n")+"\n"), args...)
	if err != nil {
		return nil, err
	}
	res := map[string]commitDiff{}
	for _, chunk := range commitChunks(out) {
		head, body, _ := bytes.Cut(chunk, []byte{'\n'})
		f := strings.Fields(string(head))
		if len(f) != 2 || !gitx.IsFullHash(f[0]) {
			continue
		}
		secs, _ := strconv.ParseInt(f[1], 10, 64)
		added, err := gitx.ParseAddedLines(bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		norm := map[string][]gitx.AddedLine{}
		for p, l := range added {
			norm[link.NormPath(p)] = l
		}
		res[f[0]] = commitDiff{time: time.Unix(secs, 0), added: norm}
	}
	return res, nil
}
