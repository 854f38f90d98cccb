// Package interop reads what other tools record about who wrote a line
// (git-ai's refs/notes/ai, other tools' Agent Trace records on
// refs/notes/agent-trace, commit trailers) as claims beside git-convo's
// own, and decides between them by issue 26's precedence
// (docs/interop.md).
package interop

import (
	"sort"
	"strconv"
)

// Rank orders evidence kinds: lower is stronger.
type Rank int

// The precedence, strongest first.
const (
	RankEdit    Rank = 1 // the agent's own edit matched the line (git-convo's capture, git-ai's checkpoint)
	RankRange   Rank = 2 // an Agent Trace range
	RankTrailer Rank = 3 // a commit trailer names the agent
	RankOverlap Rank = 4 // file overlap and recency (or no edit matched)
)

// Sources.
const (
	SourceGitConvo   = "git-convo"
	SourceGitAI      = "git-ai"
	SourceAgentTrace = "agent-trace"
	SourceTrailer    = "trailer"
)

// Attributions a claim makes of a line.
const (
	Agent   = "agent"
	Human   = "human"
	Unknown = "unknown" // mixed or unknown: someone was there, which lines is not known
)

// Claim is one source's answer for a line.
type Claim struct {
	Source      string `json:"source"`   // SourceGitConvo, SourceGitAI, SourceAgentTrace, SourceTrailer
	From        string `json:"from"`     // said to the user: "git-ai's notes", "compass's Agent Trace record"
	Evidence    string `json:"evidence"` // "agent edit", "git-ai checkpoint", "agent trace range", "commit trailer", …
	Rank        Rank   `json:"rank"`
	Attribution string `json:"attribution"`       // agent, human or unknown
	Tool        string `json:"tool,omitempty"`    // the agent: claude, cursor, codex, aider, …
	Model       string `json:"model,omitempty"`   // as the source spells it
	Session     string `json:"session,omitempty"` // the conversation in the agent's own terms
	// Conversation is git-convo's id for the conversation, when it is one
	// git-convo knows (same agent, same id).
	Conversation string `json:"conversation,omitempty"`
	Person       string `json:"person,omitempty"`      // a person's lines: who (git-ai's h_ keys)
	Commit       bool   `json:"commitLevel,omitempty"` // about the commit, not this line (trailers)
}

// Same reports whether two claims name the same writer: the same
// conversation, the same agent session, or the same person.
func Same(a, b Claim) bool {
	if a.Attribution != b.Attribution {
		return false
	}
	if a.Attribution == Human {
		return a.Person == "" || b.Person == "" || a.Person == b.Person
	}
	if a.Conversation != "" && b.Conversation != "" {
		return a.Conversation == b.Conversation
	}
	if a.Tool != "" && b.Tool != "" && a.Tool != b.Tool {
		return false
	}
	if a.Session != "" && b.Session != "" && a.Tool == b.Tool {
		return a.Session == b.Session
	}
	return a.Tool != "" && a.Tool == b.Tool
}

// Verdict is the answer for a line from all claims on it.
type Verdict struct {
	Best     Claim
	Claims   []Claim // every claim, strongest first
	Agree    int     // sources whose claim names Best's writer (Best's included)
	Disagree bool    // a source names another writer
}

// Decide picks the strongest claim: by Rank, then (one rank) git-convo's,
// git-ai's, Agent Trace's, in that order. A claim that knows no writer
// (Unknown) is never chosen over one that does, nor a claim about the
// whole commit (a trailer) over one about the line (git-convo's "no agent
// edit matched this line" included). ok is false for none.
func Decide(claims []Claim) (Verdict, bool) {
	if len(claims) == 0 {
		return Verdict{}, false
	}
	cs := append([]Claim(nil), claims...)
	sort.SliceStable(cs, func(i, j int) bool {
		a, b := cs[i], cs[j]
		if (a.Attribution == Unknown) != (b.Attribution == Unknown) {
			return b.Attribution == Unknown
		}
		if a.Commit != b.Commit {
			return b.Commit // about the commit, not the line: never above a line's claim
		}
		if a.Rank != b.Rank {
			return a.Rank < b.Rank
		}
		return sourceOrder(a.Source) < sourceOrder(b.Source)
	})
	v := Verdict{Best: cs[0], Claims: cs}
	agreeing := map[string]bool{}
	for _, c := range cs {
		switch {
		case c.Attribution == Unknown:
		case Same(c, v.Best):
			agreeing[c.Source+"\x00"+c.From] = true
		default:
			v.Disagree = true
		}
	}
	v.Agree = len(agreeing)
	return v, true
}

func sourceOrder(s string) int {
	switch s {
	case SourceGitConvo:
		return 0
	case SourceGitAI:
		return 1
	case SourceAgentTrace:
		return 2
	}
	return 3
}

// Phrase is what text output says of the sources: "2 sources agree",
// "sources disagree", or "" for a single source.
func (v Verdict) Phrase() string {
	switch {
	case v.Disagree:
		return "sources disagree"
	case v.Agree > 1:
		return strconv.Itoa(v.Agree) + " sources agree"
	}
	return ""
}
