package notes

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/git-convo/git-convo/pkg/share/trace"
)

// Derived records are links no clone recorded: a squash or rebase merge
// recognised from other notes' evidence. They can be listed (doctor
// --derived), withdrawn one by one (unlink) and, when an older rule made
// them, cleaned (share clean): a withdrawal is a record too, so it travels
// with the notes and every reader honours it (claims).

// DerivedLink is one derived link, as a note or this clone's derived file
// holds it.
type DerivedLink struct {
	Commit       string  `json:"commit"`
	Conversation string  `json:"conversation"`
	Title        string  `json:"title,omitempty"`
	Confidence   float64 `json:"confidence"`
	Reason       string  `json:"reason"`
	Writer       string  `json:"writer,omitempty"`
	// Shared is true for a link on a notes ref, false for one kept in this
	// clone only (git-convo-derived.jsonl).
	Shared bool `json:"shared"`
	// OldRule is true for a link written before links were marked derived
	// (the line-hash rule of format 1, weaker evidence).
	OldRule bool `json:"oldRule"`
	// Stale is true when today's rules would not make the link.
	Stale bool `json:"stale"`
	// Unchecked is true when the commits its reason names are not in this
	// clone (a branch deleted before it was fetched): the link can be
	// neither made again nor judged stale here.
	Unchecked bool `json:"unchecked,omitempty"`
}

// DerivedLinks lists the derived links of the notes refs and this clone's
// derived file that readers still believe (withdrawn ones are left out),
// and says of each whether today's rules would make it again. One git grep
// finds the notes that hold one.
func (g Git) DerivedLinks(ctx context.Context, o BuildOptions) ([]DerivedLink, error) {
	refs, err := g.SharedRefs(ctx)
	if err != nil {
		return nil, err
	}
	var texts map[string][]byte
	if len(refs) > 0 {
		noted, err := g.grepNotes(ctx, refs, []string{`"derived":"squash"`, `"reason":"squash of `})
		if err != nil {
			return nil, err
		}
		if texts, err = g.Read(ctx, refs, noted); err != nil {
			return nil, err
		}
	}
	derived, _ := g.LoadDerived(ctx)
	commits := map[string]bool{}
	for c := range texts {
		commits[c] = true
	}
	for c := range derived {
		commits[c] = true
	}
	var out []DerivedLink
	var cands []string
	for c := range commits {
		local := map[string]bool{}
		for _, r := range Decode(derived[c]) {
			local[r.ID] = true
		}
		found := false
		for _, r := range claims(c, append(Decode(texts[c]), Decode(derived[c])...)) {
			m, _ := r.Meta()
			for id, cm := range m.Conversations {
				if !cm.IsDerived() {
					continue
				}
				found = true
				out = append(out, DerivedLink{Commit: c, Conversation: id, Title: cm.Title, Confidence: cm.Confidence,
					Reason: cm.Reason, Writer: m.Writer, Shared: !local[r.ID], OldRule: cm.Derived == ""})
			}
		}
		if found {
			cands = append(cands, c)
		}
	}
	sort.Strings(cands)
	again, err := g.squashesOf(ctx, refs, cands, nil, o)
	if err != nil {
		return nil, err
	}
	var named []string
	for _, l := range out {
		named = append(named, squashedShas(l.Reason)...)
	}
	have, err := g.existing(ctx, named)
	if err != nil {
		return nil, err
	}
	present := map[string]bool{}
	for _, h := range have {
		present[h] = true
	}
	for i, l := range out {
		r := again[l.Commit]
		m, _ := r.Meta()
		if _, ok := m.Conversations[l.Conversation]; ok {
			continue
		}
		out[i].Stale = true
		for _, sha := range squashedShas(l.Reason) {
			if !present[sha] {
				out[i].Stale, out[i].Unchecked = false, true
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Commit != out[j].Commit {
			return out[i].Commit < out[j].Commit
		}
		return out[i].Conversation+out[i].Writer < out[j].Conversation+out[j].Writer
	})
	return out, nil
}

// squashedShas is the commits a "squash of <sha>, <sha>[: …]" or "copy of
// <sha>: …" reason names.
func squashedShas(reason string) []string {
	rest, ok := strings.CutPrefix(reason, "squash of ")
	if !ok {
		if rest, ok = strings.CutPrefix(reason, copyReason); !ok {
			return nil
		}
	}
	rest, _, _ = strings.Cut(rest, ":")
	rest, _, _ = strings.Cut(rest, " (")
	var out []string
	for _, f := range strings.Split(rest, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// Withdraw withdraws the derived link of conversation conv on commit:
// with sharing on (s.On), in this clone's record on Ref, shared on the next
// push; else in this clone's derived file. It takes the link out of this
// clone's own record, and records the withdrawal so that the same link in
// anyone's note, and any later derivation of it, is ignored.
func (g Git) Withdraw(ctx context.Context, commit, conv, reason string, s Settings) error {
	w, err := g.CloneWriter(ctx)
	if err != nil {
		return err
	}
	at, err := g.commitTime(ctx, commit)
	if err != nil {
		return err
	}
	add := func(_ string, _ *trace.Record, olds []trace.Record) *trace.Record {
		old := lastOf(olds)
		var r trace.Record
		if old != nil {
			r = withdraw(*old, map[string]bool{conv: true}, false)
		} else {
			r = trace.Build(trace.Input{Commit: commit, Time: at, Writer: w})
		}
		m, _ := r.Meta()
		m.Writer = w
		for _, x := range m.Withdrawn {
			if x.Conversation == conv {
				return &r
			}
		}
		m.Withdrawn = append(m.Withdrawn, trace.Withdrawal{Conversation: conv, Reason: reason})
		r.SetMeta(m)
		return &r
	}
	if s.On {
		_, err = g.write(ctx, map[string]*trace.Record{commit: nil}, w, "git-convo: withdraw a derived link", add)
		return err
	}
	have, _ := g.LoadDerived(ctx)
	return g.SaveDerived(ctx, map[string]trace.Record{commit: *add(commit, nil, Decode(have[commit]))})
}

// commitTime is a commit's committer time (a withdrawal record's timestamp).
func (g Git) commitTime(ctx context.Context, commit string) (time.Time, error) {
	out, err := g.run(ctx, nil, "-c", "log.showSignature=false", "show", "-s", "--format=%ct", commit, "--")
	if err != nil {
		return time.Time{}, err
	}
	secs, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("the time of %s: %w", commit, err)
	}
	return time.Unix(secs, 0), nil
}
