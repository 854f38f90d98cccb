package notes

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"sort"
	"strings"
	"time"

	"github.com/git-convo/git-convo/pkg/attribution/link"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/trace"
)

// A squash merge's file is, byte for byte, the file at the tip of the
// branch it squashed, when main did not change that file meanwhile. Then
// every line the squash adds there is a line of the tip's file at the same
// number, and git blame of the tip names the commit that added it and its
// number there: when that commit's note gives that line to a conversation,
// the squash's line is the conversation's, by position. No line's text is
// weighed, so a function made of lines every file repeats is found whole,
// and a person's line of the same text stays the person's.
//
// The structural rules hold: the tip and the noted commit are neither
// ancestors nor descendants of the squash, and were committed at the same
// time or before it; the note's record is about its commit, its link is
// recorded, not derived.

// squashMaxTips bounds the branch tips with the squash's file that are
// checked (ancestry and blame) for one candidate.
const squashMaxTips = 4

// noteRanges is what one noted commit's record says its conversations
// wrote: path -> line in that commit -> conversation.
type noteRanges struct {
	writers map[string]map[int]string
	metas   map[string]trace.ConvMeta
	added   map[string][]gitx.AddedLine // the lines the commit adds
	time    time.Time                   // its committer time
}

// tipSquashes derives the records of the candidates whose files are those
// of a branch tip holding noted commits' lines.
func (g Git) tipSquashes(ctx context.Context, cands []string, notes map[string]noteRanges, diffs map[string]commitDiff, o BuildOptions) (map[string]trace.Record, error) {
	res := map[string]trace.Record{}
	if len(cands) == 0 || len(notes) == 0 {
		return res, nil
	}
	paths := map[string]bool{} // the files notes give lines in
	for _, n := range notes {
		for p := range n.writers {
			paths[p] = true
		}
	}
	out, err := g.run(ctx, nil, "for-each-ref", "--format=%(objectname) %(objecttype)", "refs/heads", "refs/remotes")
	if err != nil {
		return nil, err
	}
	tipSet := map[string]bool{}
	for _, l := range strings.Split(string(out), "\n") {
		if f := strings.Fields(l); len(f) == 2 && f[1] == "commit" {
			tipSet[f[0]] = true
		}
	}
	for c := range notes {
		tipSet[c] = true // a branch deleted after its push: its noted commits remain
	}
	tips := make([]string, 0, len(tipSet))
	for t := range tipSet {
		tips = append(tips, t)
	}
	sort.Strings(tips)
	// The blobs of the candidates' files that notes name, at the candidates
	// and at every tip: one git cat-file.
	var queries []string
	type file struct{ cand, path string }
	var files []file
	for _, h := range cands {
		for p, al := range diffs[h].added {
			if paths[p] && len(al) > 0 && !strings.ContainsAny(p, "\n") {
				files = append(files, file{h, p})
				queries = append(queries, h+":"+p)
				for _, t := range tips {
					queries = append(queries, t+":"+p)
				}
			}
		}
	}
	if len(files) == 0 {
		return res, nil
	}
	blobs, err := g.run(ctx, []byte(strings.Join(queries, "\n")+"\n"), "cat-file", "--batch-check=%(objectname)")
	if err != nil {
		return nil, err
	}
	ids := strings.Split(string(blobs), "\n")
	if len(ids) < len(queries) {
		return res, nil
	}
	sameAt := map[file][]string{} // the tips with the candidate's file, byte for byte
	for i, f := range files {
		at := i * (len(tips) + 1)
		want := strings.TrimSpace(ids[at])
		if strings.HasSuffix(want, " missing") {
			continue
		}
		for j, t := range tips {
			if t != f.cand && strings.TrimSpace(ids[at+1+j]) == want {
				sameAt[f] = append(sameAt[f], t)
			}
		}
	}
	related := map[[2]string]bool{} // {a, b} -> may b's lines reach candidate a
	fits := func(h, c string) bool {
		k := [2]string{h, c}
		if v, seen := related[k]; seen {
			return v
		}
		d, ok := diffs[h]
		t, err := g.commitTime(ctx, c)
		v := ok && err == nil && !t.After(d.time) && !g.ancestry(ctx, c, h)
		related[k] = v
		return v
	}
	for _, h := range cands {
		writers := map[string]map[int]string{}
		origins := map[string]map[string]bool{} // conversation -> noted commits
		for p, al := range diffs[h].added {
			f := file{h, p}
			var got map[int]string
			agree, checked := true, 0
			for _, t := range sameAt[f] {
				if checked == squashMaxTips {
					break
				}
				if !fits(h, t) {
					continue
				}
				checked++
				w, err := g.blameOwners(ctx, t, p, al, notes, func(c string) bool { return fits(h, c) }, origins)
				if err != nil {
					return nil, err
				}
				if got != nil && !maps.Equal(got, w) {
					agree = false // two tips disagree: no answer for this file
					break
				}
				got = w
			}
			if agree && len(got) > 0 {
				writers[p] = got
			}
		}
		if len(writers) == 0 {
			continue
		}
		if r, ok := buildDerived(h, diffs[h], writers, origins, notes, "squash of ", "the same file as the branch has it", o); ok {
			res[h] = r
		}
	}
	return res, nil
}

// blameOwners blames path at tip on the lines the candidate adds (same
// numbers: the file is the same) and returns those whose origin is a
// noted commit that fits and whose note gives that line to a conversation.
func (g Git) blameOwners(ctx context.Context, tip, path string, added []gitx.AddedLine, notes map[string]noteRanges,
	fits func(string) bool, origins map[string]map[string]bool) (map[int]string, error) {
	args := []string{"-c", "blame.ignoreRevsFile=", "blame", "--porcelain", "--no-progress"}
	for _, r := range lineRuns(added) {
		args = append(args, "-L", fmt.Sprintf("%d,%d", r[0], r[1]))
	}
	out, err := g.run(ctx, nil, append(args, tip, "--", path)...)
	if err != nil {
		return nil, nil // the file is not blamable there: nothing from this tip
	}
	lines, err := gitx.ParseBlame(bytes.NewReader(out))
	if err != nil {
		return nil, nil
	}
	w := map[int]string{}
	for _, l := range lines {
		n, ok := notes[l.Commit]
		if !ok {
			continue
		}
		conv := n.writers[link.NormPath(l.Filename)][l.OrigLine]
		if conv == "" || !fits(l.Commit) {
			continue
		}
		w[l.Line] = conv
		if origins[conv] == nil {
			origins[conv] = map[string]bool{}
		}
		origins[conv][l.Commit] = true
	}
	return w, nil
}

// lineRuns folds added lines (in order) into runs of consecutive numbers.
func lineRuns(added []gitx.AddedLine) [][2]int {
	var out [][2]int
	for _, l := range added {
		if n := len(out); n > 0 && out[n-1][1]+1 == l.Line {
			out[n-1][1] = l.Line
			continue
		}
		out = append(out, [2]int{l.Line, l.Line})
	}
	return out
}

// notedRead is the notes of the noted commits and the added lines of those
// this clone has: one read for every rule.
type notedRead struct {
	texts map[string][]byte
	diffs map[string]commitDiff
}

// readNoted reads the notes of noted on refs, and the diffs of the commits
// this clone has (evidence about a commit it lacks cannot be checked).
func (g Git) readNoted(ctx context.Context, refs []string, noted map[string]bool) (notedRead, error) {
	texts, err := g.Read(ctx, refs, noted)
	if err != nil {
		return notedRead{}, err
	}
	list := make([]string, 0, len(texts))
	for c := range texts {
		list = append(list, c)
	}
	sort.Strings(list)
	have, err := g.existing(ctx, list)
	if err != nil || len(have) == 0 {
		return notedRead{texts: texts, diffs: map[string]commitDiff{}}, err
	}
	diffs, err := g.diffs(ctx, have)
	return notedRead{texts: texts, diffs: diffs}, err
}

// noteRangesOf keeps, per noted commit this clone has, the lines each
// recorded (not derived) conversation wrote, limited to lines the commit
// adds.
func noteRangesOf(rd notedRead) map[string]noteRanges {
	texts, diffs := rd.texts, rd.diffs
	out := map[string]noteRanges{}
	for c, t := range texts {
		rec, ok := Combine(decodeClaims(c, t))
		if _, have := diffs[c]; !ok || !have {
			continue
		}
		m, _ := rec.Meta()
		n := noteRanges{writers: map[string]map[int]string{}, metas: map[string]trace.ConvMeta{}, added: diffs[c].added, time: diffs[c].time}
		for _, f := range rec.Files {
			p := link.NormPath(f.Path)
			added := map[int]bool{}
			for _, l := range diffs[c].added[p] {
				added[l.Line] = true
			}
			for _, cv := range f.Conversations {
				id := trace.ConversationID(cv.URL)
				cm, ok := m.Conversations[id]
				if id == "" || !ok || cm.IsDerived() || cv.Contributor == nil || cv.Contributor.Type != "ai" {
					continue
				}
				for _, r := range cv.Ranges {
					for k := r.StartLine; k <= r.EndLine; k++ {
						if !added[k] {
							continue // a line the commit does not add: not its evidence
						}
						if n.writers[p] == nil {
							n.writers[p] = map[int]string{}
						}
						n.writers[p][k] = id
						cm.SharedBy = Sharer(cm, m)
						n.metas[id] = cm
					}
				}
			}
		}
		if len(n.writers) > 0 {
			out[c] = n
		}
	}
	return out
}

// buildDerived makes a candidate's record from the lines carried to it by
// position (writers), naming per conversation the noted commits they came
// from (reason: prefix, those commits, how); the links keep the noted
// links' confidence.
func buildDerived(h string, d commitDiff, writers map[string]map[int]string, origins map[string]map[string]bool,
	notes map[string]noteRanges, prefix, how string, o BuildOptions) (trace.Record, bool) {
	in := trace.Input{Commit: h, Time: d.time, Added: d.added, Writers: writers, Root: o.Root, Home: o.Home,
		ToolVersion: o.ToolVersion, Writer: o.Writer}
	written := map[string]int{}
	for p, ls := range writers {
		texts := map[int]string{}
		for _, l := range d.added[p] {
			texts[l.Line] = l.Text
		}
		for n, conv := range ls {
			if link.Countable(texts[n]) {
				written[conv]++
			}
		}
	}
	for conv, cs := range origins {
		if written[conv] == 0 {
			continue
		}
		var shas []string
		var cm trace.ConvMeta
		for c := range cs {
			shas = append(shas, c[:min(len(c), 7)])
			if m := notes[c].metas[conv]; m.Confidence > cm.Confidence || cm.Agent == "" && cm.Title == "" {
				cm = m
			}
		}
		sort.Strings(shas)
		in.Links = append(in.Links, trace.Link{ID: conv, Agent: cm.Agent, Model: cm.Model, Title: cm.Title,
			Summary: cm.Summary, Status: "auto", Confidence: cm.Confidence,
			Reason:       fmt.Sprintf("%s%s: %s, %d lines carried by position", prefix, strings.Join(shas, ", "), how, written[conv]),
			WrittenLines: written[conv], PositionLines: min(written[conv], cm.PositionLines), Derived: DerivedSquash, SharedBy: cm.SharedBy})
	}
	if len(in.Links) == 0 {
		return trace.Record{}, false
	}
	sort.Slice(in.Links, func(i, j int) bool { return in.Links[i].ID < in.Links[j].ID })
	return trace.Build(in), true
}
