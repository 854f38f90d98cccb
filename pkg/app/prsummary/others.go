package prsummary

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/git-convo/git-convo/pkg/attribution/link"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/interop"
	"github.com/git-convo/git-convo/pkg/share/notes"
	"github.com/git-convo/git-convo/pkg/store"
)

// Other tools' records (docs/interop.md): git-ai's notes, other tools'
// Agent Trace records, commit trailers. Where git-convo's own edit evidence
// names a line's writer, that answer stands; elsewhere the strongest
// claim by the precedence answers, and every claim is kept with its source.

// OtherWriter is a writer another tool's record names: an agent session,
// or a person git-ai saw typing, with the lines its claim answers for.
// Conversation is set when the session is a conversation git-convo knows.
type OtherWriter struct {
	interop.Claim
	Commit string `json:"commit,omitempty"` // in a hunk: the commit its claim is about
	Lines  int    `json:"lines"`            // added lines it is the answer for (0: a trailer, which lines is not known)
}

// ClaimCount is one claim made on a hunk's added lines, by any source
// (git-convo's own among them), where other tools spoke.
type ClaimCount struct {
	interop.Claim
	Commit string `json:"commit"`
	Lines  int    `json:"lines"`  // of the hunk's added lines it claims
	Answer int    `json:"answer"` // of those, the lines it is the strongest claim on
}

// SourceGitConvo names git-convo's own records in BySource.
const SourceGitConvo = "git-convo"

// others is what other tools said of the range's commits.
type others struct {
	said interop.Said
	own  map[string]bool // commits git-convo's own records cover
}

// readOthers reads other tools' records of hashes; the notes it skipped
// go to the log (doctor counts them).
func (in Input) readOthers(ctx context.Context, hashes []string) interop.Said {
	said, skips := interop.ReadCommits(ctx, in.Repo, notes.Git{Dir: in.Repo.TopLevel}, hashes, nil, interop.KnownIn(ctx, in.Store, in.defaultAgent()))
	for _, s := range skips {
		in.Log("other tools' notes, skipped: %s", s.Error())
	}
	for _, byPath := range said.Lines {
		for _, byLine := range byPath {
			for _, cs := range byLine {
				for i := range cs {
					in.clean(&cs[i])
				}
			}
		}
	}
	for _, cs := range said.Commit {
		for i := range cs {
			in.clean(&cs[i])
		}
	}
	return said
}

// defaultAgent is the agent of a conversation recorded with none.
func (in Input) defaultAgent() string { return in.DefaultAgent }

// clean redacts a claim's outside text as every other text of the summary.
func (in Input) clean(c *interop.Claim) {
	c.Tool, c.Model, c.Session, c.Person, c.From = in.text(c.Tool), in.text(c.Model), in.text(c.Session), in.text(c.Person), in.text(c.From)
}

// cover marks the commits other tools' line claims cover that
// git-convo's records do not, and counts them by source; it returns the
// uncovered commits' reason when only a trailer names an agent.
func (o others) cover(commits []gitx.Commit, covered map[string]bool) (bySource []Count, trailerOnly map[string]string) {
	n := map[string]int{}
	bySource, trailerOnly = []Count{}, map[string]string{} // none is [] in JSON, never null
	for _, c := range commits {
		if covered[c.Hash] {
			continue
		}
		if byPath := o.said.Lines[c.Hash]; len(byPath) > 0 {
			covered[c.Hash] = true
			from := map[string]bool{}
			for _, byLine := range byPath {
				for _, cs := range byLine {
					for _, cl := range cs {
						from[cl.From] = true
					}
				}
			}
			for f := range from {
				n[f]++
			}
			continue
		}
		if cs := o.said.Commit[c.Hash]; len(cs) > 0 {
			trailerOnly[c.Hash] = "only " + cs[0].From + " (" + orUnknown(cs[0].Tool) + "): which lines is not known"
		}
	}
	for f, k := range n {
		bySource = append(bySource, Count{Name: f, Lines: k})
	}
	sortCounts(bySource)
	return bySource, trailerOnly
}

// claimsOn is every claim on a line: git-convo's own (w, when its edit
// wrote the line), then the others'. ok is false when no other tool spoke.
func (b *builder) claimsOn(bl gitx.BlameLine, w store.LineWriter, wrote bool) (interop.Verdict, bool) {
	lines := b.others.said.Lines[bl.Commit]
	cs := append([]interop.Claim(nil), lines[bl.Filename][bl.OrigLine]...)
	if p := link.NormPath(bl.Filename); p != bl.Filename {
		cs = append(cs, lines[p][bl.OrigLine]...)
	}
	cs = append(cs, b.others.said.Commit[bl.Commit]...)
	if len(cs) == 0 {
		return interop.Verdict{}, false
	}
	own := interop.Claim{Source: interop.SourceGitConvo, From: SourceGitConvo}
	switch {
	case wrote:
		own.Rank, own.Attribution, own.Evidence = interop.RankEdit, interop.Agent, store.LinkEvidenceText
		if w.Evidence == store.EvidencePosition {
			own.Evidence = store.LinkEvidencePosition
		}
		own.Conversation, own.Session = w.ConversationID, w.ConversationID
		if c := b.convs[w.ConversationID]; c != nil {
			own.Tool = orElse(c.Agent, b.in.defaultAgent())
		}
	case b.others.own[bl.Commit]:
		own.Rank, own.Attribution, own.Evidence = interop.RankOverlap, interop.Human, "no agent edit matched the line"
	case len(b.linked[bl.Commit]) > 0:
		lc := b.linked[bl.Commit][0]
		own.Rank, own.Attribution, own.Evidence, own.Commit = interop.RankOverlap, interop.Unknown, lc.Evidence(), true
		own.Conversation = lc.ConversationID
	}
	if own.Attribution != "" {
		cs = append([]interop.Claim{own}, cs...)
	}
	return interop.Decide(cs)
}

// tally keeps values by key, in the order keys were first seen.
type tally[K comparable, V any] struct {
	m     map[K]*V
	order []K
}

// at is k's value, made by mk when k is new.
func (t *tally[K, V]) at(k K, mk func() V) *V {
	if t.m == nil {
		t.m = map[K]*V{}
	}
	v := t.m[k]
	if v == nil {
		nv := mk()
		v = &nv
		t.m[k] = v
		t.order = append(t.order, k)
	}
	return v
}

// values are the values in first-seen order.
func (t *tally[K, V]) values() []V {
	out := make([]V, 0, len(t.order))
	for _, k := range t.order {
		out = append(out, *t.m[k])
	}
	return out
}

// hunkClaims gathers a hunk's claims and the writers other tools name.
type hunkClaims struct {
	claims tally[claimKey, ClaimCount]
	ws     tally[claimKey, OtherWriter]
	agree  int
	differ int
}

type claimKey struct {
	c      interop.Claim
	commit string
}

// note records a line's verdict: each claim, and which one answers.
func (h *hunkClaims) note(commit string, v interop.Verdict) {
	for i, c := range v.Claims {
		cc := h.claims.at(claimKey{c, commit}, func() ClaimCount { return ClaimCount{Claim: c, Commit: commit} })
		cc.Lines++
		if i == 0 {
			cc.Answer++
		}
	}
	if v.Disagree {
		h.differ++
	} else if v.Agree > 1 {
		h.agree++
	}
}

// writer counts a line another tool's claim answers for.
func (h *hunkClaims) writer(commit string, c interop.Claim) {
	h.ws.at(claimKey{c, commit}, func() OtherWriter { return OtherWriter{Claim: c, Commit: commit} }).Lines++
}

// other answers for a line git-convo's edits did not write, from other
// tools' claims: an agent's line, or a person's as git-ai attests. ok is
// false when no other tool's line claim is the answer (the line is then
// git-convo's "no recorded edit", or has no record).
func (b *builder) other(ctx context.Context, hc *hunkClaims, f *File, bl gitx.BlameLine, out *Hunk) bool {
	v, spoke := b.claimsOn(bl, store.LineWriter{}, false)
	if !spoke {
		return false
	}
	hc.note(bl.Commit, v)
	best := v.Best
	if best.Source == interop.SourceGitConvo || best.Commit || best.Attribution == interop.Unknown {
		return false
	}
	hc.writer(bl.Commit, best)
	b.bySource[best.From]++
	if best.Attribution == interop.Human {
		out.Person++
		b.otherLine(best, f)
		return true
	}
	out.Agent++
	b.agents[orUnknown(best.Tool)]++
	b.models[orUnknown(best.Model)]++
	if best.Conversation != "" { // a session git-convo knows: that conversation's line
		b.knownConv(ctx, bl.Commit, best).Lines++
		f.conversation(best.Conversation)
	}
	b.otherLine(best, f)
	return true
}

// knownConv is the conversation another tool's claim names, as the
// summary lists it (linked to the commit, or from the local database).
func (b *builder) knownConv(ctx context.Context, commit string, c interop.Claim) *Conversation {
	if conv := b.convs[c.Conversation]; conv != nil {
		return conv
	}
	if lc, ok := b.linkOf(commit, c.Conversation); ok {
		return b.conv(lc)
	}
	conv := &Conversation{ID: c.Conversation, Agent: c.Tool, Model: c.Model, Evidence: c.Evidence, Origin: "local"}
	if sc, err := b.in.Store.GetConversation(ctx, c.Conversation); err == nil && sc != nil {
		conv.Title, conv.Model = b.in.text(titleOf(*sc)), b.in.text(orElse(sc.Model, c.Model))
	}
	b.convs[c.Conversation] = conv
	return conv
}

// otherLine counts a line another tool's claim answers for in the file's
// and the range's lists of other tools' writers.
func (b *builder) otherLine(c interop.Claim, f *File) {
	mk := func() OtherWriter { return OtherWriter{Claim: c} }
	b.otherWs.at(c, mk).Lines++
	if b.fileOthers == nil {
		b.fileOthers = map[*File]*tally[interop.Claim, OtherWriter]{}
	}
	if b.fileOthers[f] == nil {
		b.fileOthers[f] = &tally[interop.Claim, OtherWriter]{}
	}
	b.fileOthers[f].at(c, mk).Lines++
}

// finish puts a hunk's claims and other tools' writers in it: the line
// claims' writers, then the trailers of its commits (which lines is not
// known, so none counted).
func (hc *hunkClaims) finish(out *Hunk, commits []string, said interop.Said) {
	if len(hc.claims.order) > 0 {
		out.Claims = hc.claims.values()
	}
	out.OtherTools = append(out.OtherTools, hc.ws.values()...)
	sort.SliceStable(out.OtherTools, func(i, j int) bool { return out.OtherTools[i].Lines > out.OtherTools[j].Lines })
	for _, commit := range commits {
		for _, c := range said.Commit[commit] {
			out.OtherTools = append(out.OtherTools, OtherWriter{Claim: c, Commit: commit})
		}
	}
	out.SourcesAgree, out.SourcesDisagree = hc.agree, hc.differ
}

// finishOthers fills the headline's and the files' lists of other tools'
// writers, most lines first.
func (b *builder) finishOthers() {
	b.s.Headline.OtherTools = append(b.s.Headline.OtherTools, b.otherWs.values()...)
	sortWriters(b.s.Headline.OtherTools)
	for f, ws := range b.fileOthers {
		f.OtherTools = append(f.OtherTools, ws.values()...)
		sortWriters(f.OtherTools)
	}
	for name, n := range b.bySource {
		b.s.Headline.BySource = append(b.s.Headline.BySource, Count{Name: name, Lines: n})
	}
	sortCounts(b.s.Headline.BySource)
}

func sortWriters(ws []OtherWriter) {
	sort.SliceStable(ws, func(i, j int) bool {
		if ws[i].Lines != ws[j].Lines {
			return ws[i].Lines > ws[j].Lines
		}
		return ws[i].From+ws[i].Tool+ws[i].Person+ws[i].Session < ws[j].From+ws[j].Tool+ws[j].Person+ws[j].Session
	})
}

func orElse(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// wrote reports whether another tool's record gives lines of the hunk in
// commit to conversation id.
func (h *hunkClaims) wrote(commit, id string) bool {
	for k, w := range h.ws.m {
		if k.commit == commit && w.Conversation == id && w.Lines > 0 {
			return true
		}
	}
	return false
}

// othersSaid is the message's word on other tools' records: how many of
// the lines they answer for ("" when none).
func (b *builder) othersSaid() string {
	var parts []string
	n := 0
	for _, c := range b.s.Headline.BySource {
		if c.Name != SourceGitConvo {
			n += c.Lines
			parts = append(parts, fmt.Sprintf("%s %d", c.Name, c.Lines))
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" %d line(s) answered by other tools' records (%s), %d of them a person's.", n, strings.Join(parts, ", "), b.s.Headline.Person)
}

// OtherName is how the reports name a writer of another tool's record:
// git-convo's conversation where the session is one it knows, else the
// agent with its model and session, or the person. Outside text, to be
// escaped by the report.
func (s *Summary) OtherName(w OtherWriter) string {
	if w.Conversation != "" {
		return convName(s.conv(w.Conversation))
	}
	switch {
	case w.Attribution == interop.Human && w.Person != "":
		return w.Person + ", a person"
	case w.Attribution == interop.Human:
		return "a person"
	}
	who := orElse(w.Tool, "an agent")
	if w.Model != "" {
		who += " (" + w.Model + ")"
	}
	if w.Session != "" {
		who += ", session " + w.Session
	}
	return who
}

// OtherWhat is a writer's lines, as the reports say them.
func OtherWhat(w OtherWriter) string {
	if w.Commit != "" && w.Lines == 0 || w.Claim.Commit {
		return "which lines is not known"
	}
	return fmt.Sprintf("%d line%s", w.Lines, plural(w.Lines))
}

// OtherSource is where a writer comes from: "from git-ai's notes; git-ai
// checkpoint".
func OtherSource(w OtherWriter) string { return "from " + w.From + "; " + w.Evidence }

// SourcesSaid is a hunk's word on sources that agree or disagree ("").
func SourcesSaid(h Hunk) string {
	var parts []string
	if h.SourcesDisagree > 0 {
		parts = append(parts, fmt.Sprintf("sources disagree on %d line%s", h.SourcesDisagree, plural(h.SourcesDisagree)))
	}
	if h.SourcesAgree > 0 {
		parts = append(parts, fmt.Sprintf("2 or more sources agree on %d line%s", h.SourcesAgree, plural(h.SourcesAgree)))
	}
	return strings.Join(parts, "; ")
}
