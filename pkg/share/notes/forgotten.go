package notes

import (
	"context"
	"fmt"
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
	ctx      context.Context
	st       *store.Store
	recorded map[string]bool
	known    map[string]bool
	err      error
}

func (f *forgottenHere) forgot(commit string, ids []string) map[string]bool {
	out := map[string]bool{}
	var ask []string
	for _, id := range ids {
		if _, seen := f.known[id]; !seen {
			ask = append(ask, id)
		}
	}
	if len(ask) > 0 && f.err == nil {
		have, err := f.st.ConversationAgents(f.ctx, ask)
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
	m, _ := r.Meta()
	convs := make(map[string]trace.ConvMeta, len(ids))
	for id, c := range m.Conversations {
		if ids[id] {
			convs[id] = c
		}
	}
	m.Conversations = convs
	var ev []trace.Evidence
	for _, e := range m.Evidence {
		if ids[e.Conversation] {
			ev = append(ev, e)
		}
	}
	m.Evidence = ev
	files := make([]trace.File, 0, len(r.Files))
	for _, f := range r.Files {
		nf := trace.File{Path: f.Path, Conversations: []trace.Conversation{}}
		for _, c := range f.Conversations {
			if ids[trace.ConversationID(c.URL)] {
				nf.Conversations = append(nf.Conversations, c)
			}
		}
		if len(nf.Conversations) > 0 {
			files = append(files, nf)
		}
	}
	r.Files = files
	r.SetMeta(m)
	return r
}

// yieldLines takes out of built's lines given to no conversation (a
// person's, or unknown: a commit examined again without a forgotten
// conversation's lines) those kept gives to a conversation of ids: the
// note said who wrote them before the store forgot it.
func yieldLines(built, kept trace.Record, ids map[string]bool) trace.Record {
	claimed := map[string][]trace.Range{}
	for _, f := range kept.Files {
		for _, c := range f.Conversations {
			if ids[trace.ConversationID(c.URL)] {
				claimed[f.Path] = append(claimed[f.Path], c.Ranges...)
			}
		}
	}
	if len(claimed) == 0 {
		return built
	}
	files := make([]trace.File, 0, len(built.Files))
	for _, f := range built.Files {
		nf := trace.File{Path: f.Path, Conversations: make([]trace.Conversation, 0, len(f.Conversations))}
		for _, c := range f.Conversations {
			if c.URL == "" && len(claimed[f.Path]) > 0 {
				var rs []trace.Range
				for _, rg := range c.Ranges {
					rs = append(rs, outside(rg, claimed[f.Path])...)
				}
				if len(rs) == 0 {
					continue
				}
				c.Ranges = rs
			}
			nf.Conversations = append(nf.Conversations, c)
		}
		if len(nf.Conversations) > 0 {
			files = append(files, nf)
		}
	}
	built.Files = files
	return built
}

// outside is rg's lines that no range of claimed covers, as runs; the
// content hash stays only on a range kept whole. rg is one this clone
// built, of the commit's added lines; claimed's ranges are only compared.
func outside(rg trace.Range, claimed []trace.Range) []trace.Range {
	if rg.StartLine < 1 || rg.EndLine < rg.StartLine || rg.EndLine-rg.StartLine >= maxShiftLines {
		return []trace.Range{rg}
	}
	var out []trace.Range
	for n := rg.StartLine; n <= rg.EndLine; n++ {
		if covered(claimed, n) {
			continue
		}
		if k := len(out); k > 0 && out[k-1].EndLine == n-1 {
			out[k-1].EndLine = n
			continue
		}
		out = append(out, trace.Range{StartLine: n, EndLine: n})
	}
	if len(out) == 1 && out[0] == (trace.Range{StartLine: rg.StartLine, EndLine: rg.EndLine}) {
		out[0].ContentHash = rg.ContentHash
	}
	return out
}

func covered(rs []trace.Range, n int) bool {
	for _, r := range rs {
		if r.StartLine <= n && n <= r.EndLine {
			return true
		}
	}
	return false
}

// WithdrawOwn takes the conversation arg names (its id, or a prefix of it)
// out of this clone's record on commit, its lines left unknown: the link
// of a conversation the store no longer has, which refreshes keep
// (git convo unlink after forget). It returns the conversation's id, ""
// when this clone's record on commit names none. The next push shares it.
func (g Git) WithdrawOwn(ctx context.Context, commit, arg string) (string, error) {
	s, err := g.Settings(ctx)
	if err != nil || s.Writer == "" || arg == "" {
		return "", err
	}
	if tip, err := g.resolve(ctx, Ref); err != nil || tip == "" {
		return "", err
	}
	texts, err := g.Read(ctx, []string{Ref}, map[string]bool{commit: true})
	if err != nil {
		return "", err
	}
	var ids []string
	for _, r := range Decode(texts[commit]) {
		if m, _ := r.Meta(); m.Writer == s.Writer {
			ids = named(m, arg)
		}
	}
	switch len(ids) {
	case 0:
		return "", nil
	case 1:
	default:
		return "", fmt.Errorf("conversation %q is ambiguous in this clone's note on %s: %s", arg, gitx.ShortHash(commit), strings.Join(ids, ", "))
	}
	id := ids[0]
	_, err = g.write(ctx, map[string]*trace.Record{commit: nil}, s.Writer, "git-convo: withdraw a forgotten conversation", func(_ string, _, old *trace.Record) *trace.Record {
		if old == nil {
			return nil
		}
		r := withdraw(*old, map[string]bool{id: true}, false)
		if m, _ := r.Meta(); len(m.Conversations) == 0 && len(m.Withdrawn) == 0 {
			return nil // nothing left to say
		}
		return &r
	})
	return id, err
}

// named is the conversations of m that arg names: the one whose id it is,
// else those whose id starts with it, sorted.
func named(m trace.Meta, arg string) []string {
	if _, ok := m.Conversations[arg]; ok {
		return []string{arg}
	}
	var ids []string
	for id := range m.Conversations {
		if strings.HasPrefix(id, arg) {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	return ids
}
