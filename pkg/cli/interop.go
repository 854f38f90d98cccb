package cli

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/git-convo/git-convo/pkg/app"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/util/term"
)

// What other tools say of commits (docs/interop.md), as blame, show and
// log print it; app.Reader reads it.

// agentIn is the agent of conversation id among linked ("" unknown).
func (rc *readContext) agentIn(id string, linked []app.LinkedConversation) string {
	for _, lc := range linked {
		if lc.ConversationID == id {
			return rc.env.agentOrDefault(lc.Conv.Agent)
		}
	}
	return ""
}

// applyVerdict makes another tool's strongest claim the line's answer in
// blame's JSON, where git-convo had no agent edit for the line; every
// claim is carried, with its source.
func (obj *blameLineJSON) applyVerdict(v app.Verdict) {
	obj.Claims, obj.Sources = v.Claims, v.Phrase()
	b := v.Best
	if b.Commit && b.Source != app.SourceGitConvo && obj.Attribution == attrUnknown {
		obj.From = b.From // the commit names an agent; which lines, nobody knows
	}
	if b.Source == app.SourceGitConvo || b.Commit || b.Attribution == app.ClaimUnknown || obj.Attribution == attrAgent {
		return
	}
	obj.Attribution, obj.From = b.Attribution, b.From
	ev := b.Evidence
	obj.Evidence = &ev
	obj.WrittenBy, obj.Agent, obj.Prompt = nil, nil, nil
	if b.Attribution == app.ClaimAgent {
		tool := b.Tool
		obj.Agent = &tool
		if b.Conversation != "" {
			id := b.Conversation
			obj.WrittenBy = &id
		}
	}
}

// claimLabel is the blame column for a claim of another tool: its agent
// (or person) and where it comes from, "claude (git-ai)".
func claimLabel(c app.Claim) string {
	who := c.Tool
	switch {
	case c.Attribution == app.ClaimHuman && c.Person != "":
		who = c.Person
		if name, _, ok := strings.Cut(who, " <"); ok {
			who = name
		}
	case c.Attribution == app.ClaimHuman:
		who = "(by hand)"
	case who == "":
		who = "an agent"
	}
	src := map[string]string{app.SourceGitAI: "git-ai", app.SourceAgentTrace: "trace", app.SourceTrailer: "trailer"}[c.Source]
	if c.Commit {
		who += "?" // the commit names the agent, not which lines it wrote
	}
	return term.Line(who + " (" + src + ")")
}

// claimsSummary is the line blame prints at the end when other tools
// spoke: how many lines each source gave, and which lines two sources
// agree on or disagree about.
type claimsSummary struct {
	from    map[string]int
	phrases map[string][]int // "2 sources agree" -> lines
	any     bool
}

func (s *claimsSummary) add(line int, v app.Verdict) {
	if s.from == nil {
		s.from, s.phrases = map[string]int{}, map[string][]int{}
	}
	s.any = true
	if v.Best.Source != app.SourceGitConvo {
		s.from[v.Best.From]++
	}
	if p := v.Phrase(); p != "" {
		s.phrases[p] = append(s.phrases[p], line)
	}
}

func (s claimsSummary) String() string {
	if !s.any {
		return ""
	}
	var parts []string
	froms := make([]string, 0, len(s.from))
	for f := range s.from {
		froms = append(froms, f)
	}
	sort.Strings(froms)
	for _, f := range froms {
		parts = append(parts, fmt.Sprintf("%d line(s) from %s", s.from[f], f))
	}
	phrases := make([]string, 0, len(s.phrases))
	for p := range s.phrases {
		phrases = append(phrases, p)
	}
	sort.Strings(phrases)
	for _, p := range phrases {
		parts = append(parts, p+" on line(s) "+lineList(s.phrases[p]))
	}
	if len(parts) == 0 {
		return ""
	}
	return "# other tools: " + term.Line(strings.Join(parts, "; ")) + " (git convo blame --json lists every claim)\n"
}

// lineList is "3-5, 9".
func lineList(ns []int) string {
	var b strings.Builder
	for i := 0; i < len(ns); {
		j := i
		for j+1 < len(ns) && ns[j+1] == ns[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		if j > i {
			fmt.Fprintf(&b, "%d-%d", ns[i], ns[j])
		} else {
			fmt.Fprintf(&b, "%d", ns[i])
		}
		i = j + 1
	}
	return b.String()
}

// otherColumn is blame's column for a line other tools spoke of: the
// strongest claim's, when it is another tool's and git-convo had no agent
// edit for the line (col: git-convo's own column otherwise).
func (rc *readContext) otherColumn(oc app.OtherClaims, l gitx.BlameLine, w app.LineWriter, attr string, lcs []app.LinkedConversation, col string, summary *claimsSummary) string {
	v, ok := oc.LineVerdict(l, w, attr, lcs, rc.agentIn(w.ConversationID, lcs))
	if !ok {
		return col
	}
	summary.add(l.Line, v)
	b := v.Best
	if b.Source == app.SourceGitConvo || attr == attrAgent || b.Attribution == app.ClaimUnknown || b.Commit && len(lcs) > 0 {
		return col
	}
	p := rc.io.Palette()
	if b.Conversation != "" {
		title := term.Line(b.Conversation)
		for _, lc := range lcs {
			if lc.ConversationID == b.Conversation {
				title = displayTitle(lc.Conv, lc.ConversationID)
			}
		}
		return p.Key(b.Conversation, padRight(oneLine(title, blameTitleWidth), blameTitleWidth))
	}
	label := padRight(oneLine(term.Line(claimLabel(b)), blameTitleWidth), blameTitleWidth) // another tool's names: outside text
	if b.Attribution == app.ClaimHuman {
		return p.Dim(label)
	}
	return p.Key(b.Source+"\x00"+b.Tool+"\x00"+b.Session, label)
}

// printOtherTools prints what other tools say of a commit, under show's
// conversations: each writer, its lines, and where it comes from.
func (rc *readContext) printOtherTools(tools []app.OtherWriter) {
	if len(tools) == 0 {
		return
	}
	p := rc.io.Palette()
	w := rc.io.Out
	fmt.Fprintln(w, p.Dim("    other tools:"))
	for _, t := range tools {
		who := t.Tool
		switch {
		case t.Attribution == app.ClaimHuman && t.Person != "":
			who = t.Person + ", a person"
		case t.Attribution == app.ClaimHuman:
			who = "a person"
		case t.Attribution == app.ClaimUnknown:
			who = "someone (" + t.Tool + ")"
		}
		if t.Model != "" {
			who += " (" + t.Model + ")"
		}
		if t.Conversation != "" {
			who += ", conversation " + t.Conversation
		} else if t.Session != "" {
			who += ", session " + t.Session
		}
		lines := "which lines is not known"
		if !t.Commit {
			lines = fmt.Sprintf("%d line(s) in %s", t.Lines, strings.Join(t.Files, ", "))
		}
		fmt.Fprintf(w, "      %s %s: %s %s\n", p.Key(t.Source+t.Tool+t.Session+t.Person, "●"), term.Line(who), term.Line(lines),
			p.Dim("(from "+term.Line(t.From)+"; "+term.Line(t.Evidence)+")"))
	}
}

// printLogOthers is log's line per writer other tools name in a commit.
func (rc *readContext) printLogOthers(tools []app.OtherWriter) {
	p := rc.io.Palette()
	for _, t := range tools {
		who := t.Tool
		if t.Attribution == app.ClaimHuman {
			who = "a person"
			if t.Person != "" {
				who = t.Person
			}
		}
		if t.Model != "" {
			who += " (" + t.Model + ")"
		}
		lines := strconv.Itoa(t.Lines) + " line(s)"
		if t.Commit { // a trailer: the commit names the agent, not its lines
			lines = "which lines is not known; " + t.Evidence
		}
		rc.io.Out.WriteString("        " + p.Key(t.Source+t.Tool+t.Session+t.Person, "○") + " " + term.Line(who) + " " +
			p.Dim("("+lines+", from "+term.Line(t.From)+")") + "\n")
	}
}
