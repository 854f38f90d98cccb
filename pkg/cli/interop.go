package cli

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/git-convo/git-convo/pkg/attribution/link"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/interop"
	"github.com/git-convo/git-convo/pkg/share/notes"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/util/term"
)

// otherClaims is what other tools say of the commits a read command
// shows (docs/interop.md): their notes' claims on lines, and the agents
// commit trailers name.
type otherClaims struct {
	lines  interop.Lines
	commit map[string][]interop.Claim // trailers: about the commit
}

// readOtherClaims reads other tools' notes on hashes (paths: only those
// files' lines; nil: all) and the trailers of their messages. With none of
// the refs it costs the ref lookup and, per commit, the in-process read of
// its message. Notes it skips go to the log (doctor counts them).
func (rc *readContext) readOtherClaims(ctx context.Context, hashes []string, paths map[string]bool) otherClaims {
	return rc.readOtherClaimsKnowing(ctx, hashes, paths, nil)
}

// readOtherClaimsKnowing is readOtherClaims for a caller that has read
// some of the commits' messages (msgs: hash -> gitx.Commit.Message).
func (rc *readContext) readOtherClaimsKnowing(ctx context.Context, hashes []string, paths map[string]bool, msgs map[string]string) otherClaims {
	repo, g := rc.discovered()
	var want func(string) bool
	if paths != nil {
		want = func(p string) bool { return paths[link.NormPath(p)] }
	}
	said, skips := interop.ReadCommitsKnowing(ctx, repo, g, hashes, msgs, want, nil)
	for _, s := range skips {
		rc.env.log().Printf("interop", "skipped: %s", term.Line(s.Error()))
	}
	oc := otherClaims{lines: said.Lines, commit: said.Commit}
	rc.knownConversations(ctx, &oc)
	return oc
}

// otherReader reads refs (nil when there are none: nothing to read).
func (rc *readContext) otherReader(repo *gitx.Repo, g notes.Git, refs []string) *interop.Reader {
	if len(refs) == 0 {
		return nil
	}
	return interop.NewReader(repo, g, refs)
}

// readOtherNotes is the notes' part of readOtherClaims (r nil: none).
func (rc *readContext) readOtherNotes(ctx context.Context, r *interop.Reader, hashes []string, want func(string) bool) otherClaims {
	oc := otherClaims{commit: map[string][]interop.Claim{}}
	if r.Empty() {
		return oc
	}
	lines, skips, err := r.Read(ctx, hashes, want)
	rc.logSkips(skips, err)
	oc.lines = lines
	return oc
}

// logSkips sends to the log (doctor counts them) the notes a read of
// other tools' notes skipped, and its error.
func (rc *readContext) logSkips(skips []interop.Skip, err error) {
	if err != nil {
		rc.env.log().Printf("interop", "reading other tools' notes: %v", err)
	}
	for _, s := range skips {
		rc.env.log().Printf("interop", "skipped: %s", term.Line(s.Error()))
	}
}

// discovered is repo with its git dirs, which the in-process readers need
// (found from files when repo was made without them), and its notes.Git.
func discovered(repo *gitx.Repo) (*gitx.Repo, notes.Git) {
	g := notesGit(repo)
	if repo.CommonDir == "" {
		if r, ok := gitx.Discover(g.Dir, gitx.Getenv(g.Env)); ok {
			return r, g
		}
	}
	return repo, g
}

// knownConversations names git-convo's conversation on a claim whose agent
// and session are one git-convo knows (git-ai's agent_id: same tool, same
// id): it is that conversation, not a second one.
func (rc *readContext) knownConversations(ctx context.Context, oc *otherClaims) {
	if rc.ready() != nil || rc.store == nil {
		return
	}
	interop.Said{Lines: oc.lines, Commit: oc.commit}.Name(interop.KnownIn(ctx, rc.store, rc.env.Agents.Default()))
}

// conversationResolver names, on each writer of a batch, git-convo's
// conversation with the writer's agent and session, the batch's sessions
// looked up at once (nil when the store cannot tell).
func (rc *readContext) conversationResolver(ctx context.Context) func(map[string][]otherTool) {
	if rc.ready() != nil || rc.store == nil {
		return nil
	}
	known := interop.NewKnownBatch(ctx, rc.store, rc.env.Agents.Default())
	return func(batch map[string][]otherTool) {
		var claims []*interop.Claim
		for _, ws := range batch {
			for i := range ws {
				claims = append(claims, &ws[i].Claim)
			}
		}
		known.Prime(claims)
		for _, c := range claims {
			if c.Session != "" && c.Tool != "" && c.Conversation == "" {
				c.Conversation = known.Known(c.Tool, c.Session)
			}
		}
	}
}

// any reports whether other tools said anything of these commits.
func (oc otherClaims) any() bool { return len(oc.lines) > 0 || len(oc.commit) > 0 }

// agentIn is the agent of conversation id among linked ("" unknown).
func (rc *readContext) agentIn(id string, linked []store.LinkedConversation) string {
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
func (obj *blameLineJSON) applyVerdict(v interop.Verdict) {
	obj.Claims, obj.Sources = v.Claims, v.Phrase()
	b := v.Best
	if b.Commit && b.Source != interop.SourceGitConvo && obj.Attribution == attrUnknown {
		obj.From = b.From // the commit names an agent; which lines, nobody knows
	}
	if b.Source == interop.SourceGitConvo || b.Commit || b.Attribution == interop.Unknown || obj.Attribution == attrAgent {
		return
	}
	obj.Attribution, obj.From = b.Attribution, b.From
	ev := b.Evidence
	obj.Evidence = &ev
	obj.WrittenBy, obj.Agent, obj.Prompt = nil, nil, nil
	if b.Attribution == interop.Agent {
		tool := b.Tool
		obj.Agent = &tool
		if b.Conversation != "" {
			id := b.Conversation
			obj.WrittenBy = &id
		}
	}
}

// lineVerdict is the answer for one blamed line from every source:
// git-convo's own (w, attr) and the others'. ok is false when only
// git-convo speaks (its answer stands as it is).
func (oc otherClaims) lineVerdict(l gitx.BlameLine, w store.LineWriter, attr string, linked []store.LinkedConversation, agent string) (interop.Verdict, bool) {
	others := append([]interop.Claim(nil), oc.lines[l.Commit][l.Filename][l.OrigLine]...)
	if p := link.NormPath(l.Filename); p != l.Filename {
		others = append(others, oc.lines[l.Commit][p][l.OrigLine]...)
	}
	others = append(others, oc.commit[l.Commit]...)
	if len(others) == 0 {
		return interop.Verdict{}, false
	}
	own := interop.Claim{Source: interop.SourceGitConvo, From: "git-convo"}
	switch {
	case attr == attrAgent:
		own.Rank, own.Attribution, own.Evidence = interop.RankEdit, interop.Agent, lineEvidence(w)
		own.Tool, own.Conversation, own.Session = agent, w.ConversationID, w.ConversationID
	case attr == attrHuman:
		own.Rank, own.Attribution, own.Evidence = interop.RankOverlap, interop.Human, "no agent edit matched the line"
	case len(linked) > 0:
		own.Rank, own.Attribution, own.Evidence, own.Commit = interop.RankOverlap, interop.Unknown, linked[0].Evidence(), true
		own.Conversation = linked[0].ConversationID
	}
	if own.Attribution != "" {
		others = append([]interop.Claim{own}, others...)
	}
	return interop.Decide(others)
}

// claimLabel is the blame column for a claim of another tool: its agent
// (or person) and where it comes from, "claude (git-ai)".
func claimLabel(c interop.Claim) string {
	who := c.Tool
	switch {
	case c.Attribution == interop.Human && c.Person != "":
		who = c.Person
		if name, _, ok := strings.Cut(who, " <"); ok {
			who = name
		}
	case c.Attribution == interop.Human:
		who = "(by hand)"
	case who == "":
		who = "an agent"
	}
	src := map[string]string{interop.SourceGitAI: "git-ai", interop.SourceAgentTrace: "trace", interop.SourceTrailer: "trailer"}[c.Source]
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

func (s *claimsSummary) add(line int, v interop.Verdict) {
	if s.from == nil {
		s.from, s.phrases = map[string]int{}, map[string][]int{}
	}
	s.any = true
	if v.Best.Source != interop.SourceGitConvo {
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
func (rc *readContext) otherColumn(oc otherClaims, l gitx.BlameLine, w store.LineWriter, attr string, lcs []store.LinkedConversation, col string, summary *claimsSummary) string {
	v, ok := oc.lineVerdict(l, w, attr, lcs, rc.agentIn(w.ConversationID, lcs))
	if !ok {
		return col
	}
	summary.add(l.Line, v)
	b := v.Best
	if b.Source == interop.SourceGitConvo || attr == attrAgent || b.Attribution == interop.Unknown || b.Commit && len(lcs) > 0 {
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
	if b.Attribution == interop.Human {
		return p.Dim(label)
	}
	return p.Key(b.Source+"\x00"+b.Tool+"\x00"+b.Session, label)
}

// otherTool is one writer another tool names in a commit.
type otherTool = interop.Writer

// ofCommit lists what other tools say of commit h, per writer.
func (oc otherClaims) ofCommit(h string) []otherTool {
	return interop.Writers(oc.lines[h], oc.commit[h])
}

// printOtherTools prints what other tools say of a commit, under show's
// conversations: each writer, its lines, and where it comes from.
func (rc *readContext) printOtherTools(tools []otherTool) {
	if len(tools) == 0 {
		return
	}
	p := rc.io.Palette()
	w := rc.io.Out
	fmt.Fprintln(w, p.Dim("    other tools:"))
	for _, t := range tools {
		who := t.Tool
		switch {
		case t.Attribution == interop.Human && t.Person != "":
			who = t.Person + ", a person"
		case t.Attribution == interop.Human:
			who = "a person"
		case t.Attribution == interop.Unknown:
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
func (rc *readContext) printLogOthers(tools []otherTool) {
	p := rc.io.Palette()
	for _, t := range tools {
		who := t.Tool
		if t.Attribution == interop.Human {
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

// setupGitAI adds the fetch of the sharing remote's refs/notes/ai when the
// remote has it (install): bounded, with no credential prompt, never
// failing install.
func setupGitAI(ctx context.Context, env *Env, g notes.Git, bound time.Duration) {
	s, err := g.Settings(ctx)
	if err != nil || bound <= 0 {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	g.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
	added, err := interop.SetupGitAI(ctx, g, s.Remote)
	if err != nil {
		env.log().Printf("interop", "git-ai's notes of %s at install: %v", s.Remote, err)
	}
	if added {
		fmt.Fprintf(env.Stdout, "%s has git-ai's notes (refs/notes/ai): git fetch brings them, read-only, for blame, show, log, stats and pr\n", term.Line(s.Remote))
	}
}

// otherFileStats adds to stats' per-file counts, for commits git-convo
// has no line evidence of (local or shared), the lines other tools' notes
// give an agent: a commit's added lines from one git log --numstat, the
// agent's of them by the precedence (a trailer counts none: which lines
// is not known). It returns how many commits each source gave.
func (rc *readContext) otherFileStats(ctx context.Context, hashes []string, local []store.FileStat) ([]store.FileStat, map[string]int) {
	repo, g := discovered(rc.repo)
	r := rc.otherReader(repo, g, interop.Refs(ctx, g))
	if r.Empty() {
		return local, nil
	}
	have := map[string]bool{}
	for _, fs := range local {
		have[fs.CommitHash] = true
	}
	var need []string
	for _, h := range hashes {
		if !have[h] {
			need = append(need, h)
		}
	}
	oc := rc.readOtherNotes(ctx, r, need, nil)
	if len(oc.lines) == 0 {
		return local, nil
	}
	var noted []string
	for _, h := range need {
		if oc.lines[h] != nil {
			noted = append(noted, h)
		}
	}
	args := append([]string{"log", "--no-walk=unsorted", "--no-renames", "--numstat", "-z", "--format=%x01%H"}, noted...)
	out, err := gitx.Command(ctx, g.Dir, g.Env, args...).Output()
	if err != nil {
		rc.env.log().Printf("interop", "counting the lines of commits git-ai noted: %v", err)
		return local, nil
	}
	sources := map[string]int{}
	for chunk := range strings.SplitSeq(string(out), "\x01") {
		h, rest, ok := strings.Cut(chunk, "\x00")
		if !ok || oc.lines[h] == nil {
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
			fs := store.FileStat{CommitHash: h, Path: f[2], Added: added}
			for _, cs := range oc.lines[h][f[2]] {
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

// withSessionCommits adds to each conversation's commit count the commits
// git-ai's notes give to its session (same agent, same id) that git-convo
// does not link, as list_conversation_commits lists them. Without
// git-ai's refs it reads nothing.
func (rc *readContext) withSessionCommits(ctx context.Context, list []store.ConversationSummary) []store.ConversationSummary {
	if rc.repo == nil || len(list) == 0 {
		return list
	}
	repo, g := discovered(rc.repo)
	sessions, skips := interop.ReadSessions(ctx, repo, g)
	for _, s := range skips {
		rc.env.log().Printf("interop", "skipped: %s", term.Line(s.Error()))
	}
	if len(sessions) == 0 {
		return list
	}
	var shared map[string][]store.LinkedConversation
	if recs, err := rc.shared.All(ctx); err == nil {
		shared = notes.ByConversation(recs)
	}
	for i := range list {
		cs := &list[i]
		var have []string
		if lcs, err := rc.store.CommitsForConversation(ctx, cs.ID); err == nil {
			for _, lc := range lcs {
				have = append(have, lc.CommitHash)
			}
		}
		for _, lc := range shared[cs.ID] {
			have = append(have, lc.CommitHash)
		}
		cs.Commits += len(sessions.Commits(rc.env.agentOrDefault(cs.Agent), cs.ID, have))
	}
	return list
}
