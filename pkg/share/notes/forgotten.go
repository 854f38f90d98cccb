package notes

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/trace"
	"github.com/git-convo/git-convo/pkg/store"
)

// Forget is local (docs/sharing.md): a conversation the store forgot stays
// in this clone's notes as they named it until the user withdraws it
// (unlink, or git notes remove), whatever else rewrites them.

// forgottenHere tells the conversations this clone's note on a commit names
// that the store forgot (forget is local): it does not have the
// conversation, or knows nothing of the commit (forget --repo). The store
// is asked once per conversation.
type forgottenHere struct {
	st       *store.Store
	recorded map[string]bool
	known    map[string]bool
	err      error
}

func (f *forgottenHere) forgot(ctx context.Context, commit string, ids []string) map[string]bool {
	out := map[string]bool{}
	var ask []string
	for _, id := range ids {
		if _, seen := f.known[id]; !seen {
			ask = append(ask, id)
		}
	}
	if len(ask) > 0 && f.err == nil {
		have, err := f.st.ConversationAgents(ctx, ask)
		if err != nil {
			f.err = err
		}
		for _, id := range ask {
			if err == nil {
				_, f.known[id] = have[id]
			}
		}
	}
	for _, id := range ids {
		known, asked := f.known[id]
		// Not asked (the store failed): kept, as forgotten would be; the
		// error is reported and nothing withdrawn unasked.
		out[id] = !f.recorded[commit] || !asked || !known
	}
	return out
}

// only is r with no conversation but those in ids: their entries, their
// files' lines and their evidence.
func only(r trace.Record, ids map[string]bool) trace.Record {
	return sift(r, func(id string) bool { return !ids[id] }, false)
}

// keptBeside is the forgotten conversations' entries of kept (ids) as a
// refresh with options o keeps them beside built: their lines cut to those
// built gives to no conversation (a line built gives one is built's), the
// content hash of a range cut and the evidence of a file cut dropped (they
// spoke of lines no longer claimed), their text as o shares it now.
func keptBeside(built, kept trace.Record, ids map[string]bool, o BuildOptions) trace.Record {
	taken := claimedRanges(built, func(c trace.Conversation) bool { return c.URL != "" })
	kept, cut := cutLines(kept, taken, func(c trace.Conversation) bool { return ids[trace.ConversationID(c.URL)] })
	m, _ := kept.Meta()
	dropCut(&m, kept, cut)
	reshare(&m, ids, o)
	kept.SetMeta(m)
	return kept
}

// dropCut takes out of m, r's meta, the evidence of each file and
// conversation that lost lines (cut): it spoke of lines r no longer
// gives it; and caps their written lines (capWritten).
func dropCut(m *trace.Meta, r trace.Record, cut map[[2]string]bool) {
	var ev []trace.Evidence
	for _, e := range m.Evidence {
		if !cut[[2]string{e.Path, e.Conversation}] {
			ev = append(ev, e)
		}
	}
	m.Evidence = ev
	capWritten(m, r, cut)
}

// capWritten bounds the written lines of each conversation of m that lost
// lines (cut) by the lines r still gives it: a count is never more than
// what the record claims (of the lines written by text, which is not
// known of the lines cut, the most that can be left).
func capWritten(m *trace.Meta, r trace.Record, cut map[[2]string]bool) {
	lost := map[string]bool{}
	for k := range cut {
		lost[k[1]] = true
	}
	if len(lost) == 0 {
		return
	}
	left := map[string]int{}
	for _, f := range r.Files {
		for _, c := range f.Conversations {
			for _, rg := range c.Ranges {
				left[trace.ConversationID(c.URL)] += max(0, rg.EndLine-rg.StartLine+1)
			}
		}
	}
	convs := make(map[string]trace.ConvMeta, len(m.Conversations))
	for id, c := range m.Conversations {
		if lost[id] {
			c.WrittenLines = min(c.WrittenLines, left[id])
			c.PositionLines = min(c.PositionLines, c.WrittenLines)
		}
		convs[id] = c
	}
	m.Conversations = convs
}

// reshare makes the entries of m's conversations in ids (forgotten here,
// kept as an earlier share wrote them) what o shares now: no first prompt
// unless prompts are shared, and free text redacted again. It only takes
// text away.
func reshare(m *trace.Meta, ids map[string]bool, o BuildOptions) {
	in := trace.Input{Prompts: o.Prompts, Root: o.Root, Home: o.Home}
	convs := make(map[string]trace.ConvMeta, len(m.Conversations))
	for id, c := range m.Conversations {
		if ids[id] {
			c = in.Reshared(c)
		}
		convs[id] = c
	}
	m.Conversations = convs
}

// claimedRanges is the ranges of each file of r that the entries which
// picks give, sorted by first line.
func claimedRanges(r trace.Record, which func(trace.Conversation) bool) map[string][]trace.Range {
	out := map[string][]trace.Range{}
	for _, f := range r.Files {
		for _, c := range f.Conversations {
			if which(c) {
				out[f.Path] = append(out[f.Path], c.Ranges...)
			}
		}
	}
	for _, rs := range out {
		sort.Slice(rs, func(i, j int) bool { return rs[i].StartLine < rs[j].StartLine })
	}
	return out
}

// yieldLines takes out of built's lines given to no conversation (a
// person's, or unknown: a commit examined again without a forgotten
// conversation's lines) those kept gives to a conversation of ids: the
// note said who wrote them before the store forgot it. kept's lines are
// those built gives no conversation (keptBeside).
func yieldLines(built, kept trace.Record, ids map[string]bool) trace.Record {
	claimed := claimedRanges(kept, func(c trace.Conversation) bool { return ids[trace.ConversationID(c.URL)] })
	if len(claimed) == 0 {
		return built
	}
	built, _ = cutLines(built, claimed, func(c trace.Conversation) bool { return c.URL == "" })
	return built
}

// cutLines is r with the ranges of the entries pick chooses cut to the
// lines no range of claimed (by path, sorted by first line) covers, an
// entry left none gone; cut names the path and conversation of each entry
// that lost a line.
func cutLines(r trace.Record, claimed map[string][]trace.Range, pick func(trace.Conversation) bool) (_ trace.Record, cut map[[2]string]bool) {
	cut = map[[2]string]bool{}
	r.Files = mapRanges(r.Files, func(path string, c trace.Conversation) ([]trace.Range, bool) {
		if !pick(c) || len(claimed[path]) == 0 {
			return c.Ranges, true
		}
		rs := outsideAll(c.Ranges, claimed[path])
		if !slices.Equal(rs, c.Ranges) {
			cut[[2]string{path, trace.ConversationID(c.URL)}] = true
		}
		return rs, len(rs) > 0
	})
	return r, cut
}

// outsideAll is the lines of rs that no range of claimed (sorted by first
// line) covers, as runs (outside).
func outsideAll(rs, claimed []trace.Range) []trace.Range {
	var out []trace.Range
	for _, rg := range rs {
		out = append(out, outside(rg, claimed)...)
	}
	return out
}

// outside is rg's lines that no range of claimed (sorted by first line)
// covers, as runs; the content hash stays only on a range kept whole.
// Range arithmetic: a range of any length costs the claimed ranges once.
func outside(rg trace.Range, claimed []trace.Range) []trace.Range {
	if rg.StartLine < 1 || rg.EndLine < rg.StartLine {
		return []trace.Range{rg}
	}
	var out []trace.Range
	next := rg.StartLine // the first line not yet placed
	for _, c := range claimed {
		if c.StartLine > rg.EndLine {
			break
		}
		if c.EndLine < next || c.EndLine < c.StartLine {
			continue
		}
		if c.StartLine > next {
			out = append(out, trace.Range{StartLine: next, EndLine: c.StartLine - 1})
		}
		if c.EndLine >= rg.EndLine {
			next = rg.EndLine + 1
			break
		}
		next = c.EndLine + 1
	}
	if next <= rg.EndLine {
		out = append(out, trace.Range{StartLine: next, EndLine: rg.EndLine})
	}
	if len(out) == 1 && out[0].StartLine == rg.StartLine && out[0].EndLine == rg.EndLine {
		out[0].ContentHash = rg.ContentHash
	}
	return out
}

// WithdrawOwn takes the conversation arg names out of this clone's record
// on commit, its lines left unknown: an unlink, which a later refresh must
// not undo by keeping the link as forgotten (the store may never have had
// the conversation, or forget it later), and the unlink of a conversation
// forgotten here. arg is the conversation's id, or with prefix a prefix of
// it. It returns the conversation's id, "" when this clone's record on
// commit names none, and whether sharing is on (the next push shares the
// change). It writes whether sharing is on or off.
func (g Git) WithdrawOwn(ctx context.Context, commit, arg string, prefix bool) (id string, shared bool, err error) {
	s, err := g.Settings(ctx)
	if err != nil || s.Writer == "" || arg == "" {
		return "", s.On, err
	}
	if tip, err := g.resolve(ctx, Ref); err != nil || tip == "" {
		return "", s.On, err
	}
	texts, err := g.Read(ctx, []string{Ref}, map[string]bool{commit: true})
	if err != nil {
		return "", s.On, err
	}
	var ids []string
	for _, r := range Decode(texts[commit]) {
		if m, _ := r.Meta(); m.Writer == s.Writer {
			if _, ok := m.Conversations[arg]; ok || prefix {
				ids = Named(m, arg, nil)
			}
		}
	}
	switch len(ids) {
	case 0:
		return "", s.On, nil
	case 1:
	default:
		return "", s.On, fmt.Errorf("conversation %q is ambiguous in this clone's note on %s: %s", arg, gitx.ShortHash(commit), strings.Join(ids, ", "))
	}
	id = ids[0]
	_, err = g.write(ctx, map[string]*trace.Record{commit: nil}, s.Writer, "git-convo: withdraw a conversation", func(_ string, _ *trace.Record, olds []trace.Record) *trace.Record {
		old := lastOf(olds)
		if old == nil {
			return nil
		}
		r := withdraw(*old, map[string]bool{id: true}, false)
		if m, _ := r.Meta(); len(m.Conversations) == 0 && len(m.Withdrawn) == 0 {
			return nil // nothing left to say
		}
		return &r
	})
	return id, s.On, err
}

// Named is the conversations of m that arg names, of those which accepts
// (nil: all): the one whose id it is, else those whose id starts with it,
// sorted.
func Named(m trace.Meta, arg string, which func(trace.ConvMeta) bool) []string {
	if c, ok := m.Conversations[arg]; ok && (which == nil || which(c)) {
		return []string{arg}
	}
	var ids []string
	for id, c := range m.Conversations {
		if strings.HasPrefix(id, arg) && (which == nil || which(c)) {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	return ids
}
