package notes

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/git-convo/git-convo/pkg/atomicfile"
	"github.com/git-convo/git-convo/pkg/gitx"
	"github.com/git-convo/git-convo/pkg/link"
	"github.com/git-convo/git-convo/pkg/trace"
)

// A squash or rebase merge made on the server (GitHub's "Squash and merge")
// arrives as a new commit with no note. When its added lines are lines that
// shared notes' evidence says conversations wrote, it gets those
// conversations, with the reason "squash of <short shas>".

// squashMinLines is how many of a commit's added lines must match before a
// squash is recognised: one matching line is a coincidence.
const squashMinLines = 2

// squashScan bounds how many recent commits of a remote are examined.
const squashScan = 200

// evidenceKey is one line a conversation wrote in a commit.
type evidenceSource struct {
	commit, conv string
}

// Squashes finds the recent commits of remote's branches that have no note
// and whose added lines match other notes' evidence, and returns a record
// for each, attributing the matching lines to the conversations that wrote
// them. Nothing is written: the caller keeps or shares the records.
func (g Git) Squashes(ctx context.Context, remote string, o BuildOptions) (map[string]trace.Record, error) {
	return g.SquashesIn(ctx, []string{"--remotes=" + remote}, o)
}

// SquashesIn is Squashes for the commits git log selects with revs (after a
// pull, the range it brought). A repository without notes costs one git
// for-each-ref.
func (g Git) SquashesIn(ctx context.Context, revs []string, o BuildOptions) (map[string]trace.Record, error) {
	refs, err := g.SharedRefs(ctx)
	if err != nil {
		return nil, err
	}
	index, err := g.listNotes(ctx, refs)
	if err != nil || len(index) == 0 {
		return map[string]trace.Record{}, err
	}
	derived, _ := g.LoadDerived(ctx)
	args := append([]string{"log", "--no-merges", "-n", fmt.Sprint(squashScan), "--format=%H"}, revs...)
	out, err := g.run(ctx, nil, append(args, "--")...)
	if err != nil {
		return nil, err
	}
	var cands []string
	for _, h := range strings.Fields(string(out)) {
		if len(index[h]) == 0 && derived[h] == nil {
			cands = append(cands, h)
		}
	}
	if len(cands) == 0 {
		return map[string]trace.Record{}, nil
	}
	diffs, err := g.diffs(ctx, cands)
	if err != nil {
		return nil, err
	}
	// The candidates' added lines, hashed as evidence is.
	want := map[string]bool{}
	for _, d := range diffs {
		for _, ls := range d.added {
			for _, l := range ls {
				if link.Countable(l.Text) {
					want[trace.LineHash(l.Text)] = true
				}
			}
		}
	}
	if len(want) < squashMinLines {
		return map[string]trace.Record{}, nil
	}
	// The evidence that names them: line hash -> who wrote it where. git
	// grep finds the notes that mention one; only those are read.
	noted, err := g.notesMentioning(ctx, refs, want)
	if err != nil || len(noted) == 0 {
		return map[string]trace.Record{}, err
	}
	texts, err := g.Read(ctx, refs, noted)
	if err != nil {
		return nil, err
	}
	lines := map[string][]evidenceSource{}
	metas := map[string]trace.ConvMeta{}
	for c, t := range texts {
		rec, ok := Combine(Decode(t))
		if !ok {
			continue
		}
		m, _ := rec.Meta()
		for _, e := range m.Evidence {
			for _, h := range e.Lines {
				lines[h] = append(lines[h], evidenceSource{c, e.Conversation})
			}
			if cm, ok := m.Conversations[e.Conversation]; ok {
				if old, seen := metas[e.Conversation]; !seen || cm.Confidence > old.Confidence {
					metas[e.Conversation] = cm
				}
			}
		}
	}
	res := map[string]trace.Record{}
	for _, h := range cands {
		d := diffs[h]
		writers := map[string]map[int]string{}
		from := map[string]map[string]bool{} // conv -> source commits
		matched := 0
		for p, ls := range d.added {
			for _, l := range ls {
				if !link.Countable(l.Text) {
					continue
				}
				src := lines[trace.LineHash(l.Text)]
				if len(src) == 0 {
					continue
				}
				s := src[0]
				if writers[p] == nil {
					writers[p] = map[int]string{}
				}
				writers[p][l.Line] = s.conv
				if from[s.conv] == nil {
					from[s.conv] = map[string]bool{}
				}
				from[s.conv][s.commit] = true
				matched++
			}
		}
		if matched < squashMinLines {
			continue
		}
		in := trace.Input{Commit: h, Time: d.time, Added: d.added, Writers: writers, Root: o.Root, Home: o.Home,
			ToolVersion: o.ToolVersion, Writer: o.Writer}
		for conv, commits := range from {
			cm := metas[conv]
			var shas []string
			for c := range commits {
				shas = append(shas, c[:min(len(c), 7)])
			}
			sort.Strings(shas)
			in.Links = append(in.Links, trace.Link{ID: conv, Agent: cm.Agent, Model: cm.Model, Title: cm.Title,
				Summary: cm.Summary, Status: "auto", Reason: "squash of " + strings.Join(shas, ", "), Confidence: cm.Confidence,
				WrittenLines: countConv(writers, conv)})
		}
		sort.Slice(in.Links, func(i, j int) bool { return in.Links[i].ID < in.Links[j].ID })
		res[h] = trace.Build(in)
	}
	return res, nil
}

// notesMentioning returns the commits whose note on one of refs holds one
// of the line hashes in want, as a JSON string: one git grep over the notes
// trees, so that a large history's notes are not all read and decoded.
func (g Git) notesMentioning(ctx context.Context, refs []string, want map[string]bool) (map[string]bool, error) {
	f, err := os.CreateTemp("", "git-convo-hashes-*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	for h := range want {
		fmt.Fprintf(f, "\"%s\"\n", h)
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	args := append([]string{"grep", "-l", "-z", "-F", "--no-color", "-f", f.Name()}, refs...)
	out, err := g.run(ctx, nil, append(args, "--")...)
	if exitCode(err) == 1 {
		return nil, nil // no note mentions one
	}
	if err != nil {
		return nil, err
	}
	noted := map[string]bool{}
	for _, name := range bytes.Split(out, []byte{0}) {
		for _, ref := range refs {
			if path, ok := bytes.CutPrefix(name, []byte(ref+":")); ok {
				noted[strings.ReplaceAll(string(path), "/", "")] = true
				break
			}
		}
	}
	return noted, nil
}

func countConv(writers map[string]map[int]string, conv string) int {
	n := 0
	for _, ls := range writers {
		for _, c := range ls {
			if c == conv {
				n++
			}
		}
	}
	return n
}

// derivedFile holds the records a clone that does not share derived, in
// the git common dir.
const derivedFile = "git-convo-derived.jsonl"

// derivedPath is where a clone that does not share keeps the records it
// derived (squash merges): beside its git data, on no ref.
func (g Git) derivedPath(ctx context.Context) (string, error) {
	// Found without running git when it can be (every read command asks).
	if abs, err := filepath.Abs(g.Dir); err == nil && os.Getenv("GIT_DIR") == "" {
		if loc, ok := gitx.FindRepoForPath(abs); ok {
			return filepath.Join(loc.CommonDir, derivedFile), nil
		}
	}
	_, common, err := g.where(ctx)
	if err != nil {
		return "", err
	}
	return filepath.Join(common, derivedFile), nil
}

// LoadDerived reads the records this clone derived, by commit.
func (g Git) LoadDerived(ctx context.Context) (map[string][]byte, error) {
	p, err := g.derivedPath(ctx)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return map[string][]byte{}, nil
	}
	out := map[string][]byte{}
	for _, r := range Decode(b) {
		if r.VCS != nil {
			out[r.VCS.Revision] = Encode([]trace.Record{r})
		}
	}
	return out, nil
}

// SaveDerived adds records to the derived file.
func (g Git) SaveDerived(ctx context.Context, recs map[string]trace.Record) error {
	if len(recs) == 0 {
		return nil
	}
	p, err := g.derivedPath(ctx)
	if err != nil {
		return err
	}
	have, _ := g.LoadDerived(ctx)
	var all []trace.Record
	for c, t := range have {
		if _, replaced := recs[c]; !replaced {
			all = append(all, Decode(t)...)
		}
	}
	for _, r := range recs {
		all = append(all, r)
	}
	return atomicfile.Write(p, Encode(all), 0o644)
}
