package app

import (
	"context"
	"strconv"
	"strings"

	"github.com/git-convo/git-convo/pkg/attribution/link"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/interop"
	"github.com/git-convo/git-convo/pkg/share/notes"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/util/term"
)

// What other tools say of the commits a read command shows
// (docs/interop.md): their notes' claims on lines, and the agents commit
// trailers name. Notes a read skips go to the log (doctor counts them).

// A claim of one source on a line or a commit, and the answer for a line
// from every source (interop.Decide's precedence).
type (
	Claim   = interop.Claim
	Verdict = interop.Verdict
)

// A claim's source, attribution and rank.
const (
	SourceGitConvo   = interop.SourceGitConvo
	SourceGitAI      = interop.SourceGitAI
	SourceAgentTrace = interop.SourceAgentTrace
	SourceTrailer    = interop.SourceTrailer
	ClaimAgent       = interop.Agent
	ClaimHuman       = interop.Human
	ClaimUnknown     = interop.Unknown
)

// Decide is the answer among claims on one line: the strongest, and
// whether the sources agree (ok false: no claim).
func Decide(cs []Claim) (Verdict, bool) { return interop.Decide(cs) }

// OtherClaims is what other tools say of a read's commits.
type OtherClaims struct {
	lines  interop.Lines
	commit map[string][]Claim // trailers: about the commit
}

// Any reports whether other tools said anything of these commits.
func (oc OtherClaims) Any() bool { return len(oc.lines) > 0 || len(oc.commit) > 0 }

// OfCommit lists what other tools say of commit h, per writer.
func (oc OtherClaims) OfCommit(h string) []OtherWriter {
	return interop.Writers(oc.lines[h], oc.commit[h])
}

// LineEvidence names how a line's writer is known (store.LineEvidence).
func LineEvidence(w LineWriter) string {
	return store.LineEvidence(w)
}

// LineVerdict is the answer for one blamed line from every source:
// git-convo's own (w, attr: ClaimAgent, ClaimHuman or ClaimUnknown; agent,
// the writer's agent) and the others'. ok is false when only git-convo
// speaks (its answer stands as it is).
func (oc OtherClaims) LineVerdict(l gitx.BlameLine, w LineWriter, attr string, linked []LinkedConversation, agent string) (Verdict, bool) {
	others := append([]Claim(nil), oc.lines[l.Commit][l.Filename][l.OrigLine]...)
	if p := link.NormPath(l.Filename); p != l.Filename {
		others = append(others, oc.lines[l.Commit][p][l.OrigLine]...)
	}
	others = append(others, oc.commit[l.Commit]...)
	if len(others) == 0 {
		return Verdict{}, false
	}
	own := Claim{Source: interop.SourceGitConvo, From: "git-convo"}
	switch {
	case attr == ClaimAgent:
		own.Rank, own.Attribution, own.Evidence = interop.RankEdit, interop.Agent, LineEvidence(w)
		own.Tool, own.Conversation, own.Session = agent, w.ConversationID, w.ConversationID
	case attr == ClaimHuman:
		own.Rank, own.Attribution, own.Evidence = interop.RankOverlap, interop.Human, "no agent edit matched the line"
	case len(linked) > 0:
		own.Rank, own.Attribution, own.Evidence, own.Commit = interop.RankOverlap, interop.Unknown, linked[0].Evidence(), true
		own.Conversation = linked[0].ConversationID
	}
	if own.Attribution != "" {
		others = append([]Claim{own}, others...)
	}
	return interop.Decide(others)
}

// OtherClaims reads other tools' notes on hashes (paths: only those
// files' lines, by link.NormPath; nil: all) and the trailers of their
// messages (msgs: hash -> message, those the command read already). With
// none of the refs it costs the ref lookup and, per commit, the in-process
// read of its message. A claim whose agent and session git-convo knows
// names that conversation.
func (r *Reader) OtherClaims(ctx context.Context, hashes []string, paths map[string]bool, msgs map[string]string) OtherClaims {
	repo, g := r.discovered()
	var want func(string) bool
	if paths != nil {
		want = func(p string) bool { return paths[link.NormPath(p)] }
	}
	said, skips := interop.ReadCommitsKnowing(ctx, repo, g, hashes, msgs, want, nil)
	r.logSkips(skips, nil)
	oc := OtherClaims{lines: said.Lines, commit: said.Commit}
	if r.Ready() == nil && r.store != nil {
		interop.Said{Lines: oc.lines, Commit: oc.commit}.Name(r.a.Known(ctx, r.store))
	}
	return oc
}

// logSkips sends to the log (doctor counts them) the notes a read of
// other tools' notes skipped, and its error.
func (r *Reader) logSkips(skips []interop.Skip, err error) {
	if err != nil {
		r.a.Log().Printf("interop", "reading other tools' notes: %v", err)
	}
	for _, s := range skips {
		r.a.Log().Printf("interop", "skipped: %s", term.Line(s.Error()))
	}
}

// otherReader reads other tools' notes refs (nil when there are none:
// nothing to read).
func otherReader(repo *gitx.Repo, g notes.Git, refs []string) *interop.Reader {
	if len(refs) == 0 {
		return nil
	}
	return interop.NewReader(repo, g, refs)
}

// otherFileStats adds to stats' per-file counts, for commits git-convo
// has no line evidence of (local or shared), the lines other tools' notes
// give an agent: a commit's added lines from one git log --numstat, the
// agent's of them by the precedence (a trailer counts none: which lines
// is not known). It returns how many commits each source gave.
func (r *Reader) otherFileStats(ctx context.Context, hashes []string, local []FileStat) ([]FileStat, map[string]int) {
	repo, g := r.discovered()
	or := otherReader(repo, g, interop.Refs(ctx, g))
	if or.Empty() {
		return local, nil
	}
	need := without(hashes, local)
	lines, skips, err := or.Read(ctx, need, nil)
	r.logSkips(skips, err)
	if len(lines) == 0 {
		return local, nil
	}
	var noted []string
	for _, h := range need {
		if lines[h] != nil {
			noted = append(noted, h)
		}
	}
	args := append([]string{"-c", "log.showSignature=false", "log", "--no-walk=unsorted", "--no-renames", "--numstat", "-z", "--format=%x01%H"}, noted...)
	out, err := gitx.Command(ctx, g.Dir, g.Env, args...).Output()
	if err != nil {
		r.a.Log().Printf("interop", "counting the lines of commits git-ai noted: %v", err)
		return local, nil
	}
	sources := map[string]int{}
	for chunk := range strings.SplitSeq(string(out), "\x01") {
		h, rest, ok := strings.Cut(chunk, "\x00")
		if !ok || lines[h] == nil {
			continue
		}
		from := map[string]bool{}
		for entry := range strings.SplitSeq(strings.TrimPrefix(rest, "\n"), "\x00") {
			f := strings.SplitN(entry, "\t", 3)
			if len(f) != 3 {
				continue
			}
			added, err := strconv.Atoi(f[0])
			if err != nil || added == 0 { // "-": a binary file
				continue
			}
			fs := FileStat{CommitHash: h, Path: f[2], Added: added}
			for _, cs := range lines[h][f[2]] {
				if v, ok := interop.Decide(cs); ok && v.Best.Attribution == interop.Agent && !v.Best.Commit {
					fs.Agent++
					from[v.Best.From] = true
				}
			}
			fs.Agent = min(fs.Agent, fs.Added)
			local = append(local, fs)
		}
		for f := range from {
			sources[f]++
		}
	}
	return local, sources
}
