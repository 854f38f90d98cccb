package interop

import (
	"context"
	"strings"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/notes"
	"github.com/git-convo/git-convo/pkg/store"
)

// Said is what other tools say of some commits: their notes' claims on
// lines, and their trailers' claims on each commit as a whole.
type Said struct {
	Lines  Lines
	Commit map[string][]Claim // commit -> trailers' claims (Commit set)
}

// Any reports whether other tools said anything of these commits.
func (s Said) Any() bool { return len(s.Lines) > 0 || len(s.Commit) > 0 }

// Known names git-convo's conversation for an agent's session ("" none).
type Known func(tool, session string) string

// KnownIn is Known over the local database: the conversation whose id is
// the session's and whose agent is the tool (a conversation recorded with
// no agent is defaultAgent's). A git-ai session naming it is that
// conversation, not a second one. Answers are kept: one query per session
// not asked before (a KnownBatch primed with a batch's sessions asks once).
func KnownIn(ctx context.Context, st *store.Store, defaultAgent string) Known {
	if st == nil {
		return nil
	}
	return NewKnownBatch(ctx, st, defaultAgent).Known
}

// KnownBatch is KnownIn that looks up many sessions in one query (Prime).
type KnownBatch struct {
	ctx          context.Context
	st           *store.Store
	defaultAgent string
	agents       map[string]string // session -> its conversation's agent; absent: not asked; "\x00": no conversation
}

// NewKnownBatch is a KnownBatch over st (not nil).
func NewKnownBatch(ctx context.Context, st *store.Store, defaultAgent string) *KnownBatch {
	return &KnownBatch{ctx: ctx, st: st, defaultAgent: defaultAgent, agents: map[string]string{}}
}

// noConversation marks a session asked about that is no conversation here.
const noConversation = "\x00"

// Prime looks up, in one query, the sessions of claims not asked before.
func (k *KnownBatch) Prime(claims []*Claim) {
	var ids []string
	for _, c := range claims {
		if c.Tool != "" && c.Session != "" && c.Conversation == "" {
			if _, ok := k.agents[c.Session]; !ok {
				k.agents[strings.Clone(c.Session)] = noConversation // kept: not a substring holding a whole note
				ids = append(ids, c.Session)
			}
		}
	}
	if len(ids) == 0 {
		return
	}
	got, err := k.st.ConversationAgents(k.ctx, ids)
	if err != nil {
		for _, id := range ids {
			delete(k.agents, id) // asked again, one by one
		}
		return
	}
	for id, agent := range got {
		k.agents[id] = agent
	}
}

// Known is git-convo's conversation for tool's session ("" none).
func (k *KnownBatch) Known(tool, session string) string {
	agent, ok := k.agents[session]
	if !ok {
		k.Prime([]*Claim{{Tool: tool, Session: session}})
		if agent, ok = k.agents[session]; !ok {
			return ""
		}
	}
	if agent == noConversation {
		return ""
	}
	if agent == "" {
		agent = k.defaultAgent
	}
	if agent != tool {
		return ""
	}
	return session
}

// ReadCommits reads what other tools say of hashes: their notes on the refs
// the repository has (want: which files' lines are kept, nil all) and the
// trailers of their messages, read in process. known (nil: none) names
// git-convo's conversations among the sessions. With none of the refs it
// costs the ref lookup and the messages' read. The notes it skipped are
// returned for the caller's log (doctor counts them).
func ReadCommits(ctx context.Context, repo *gitx.Repo, g notes.Git, hashes []string, want func(string) bool, known Known) (Said, []Skip) {
	return ReadCommitsKnowing(ctx, repo, g, hashes, nil, want, known)
}

// ReadCommitsKnowing is ReadCommits for a caller that has read some of the
// commits' messages already (msgs: hash -> message, as
// gitx.Commit.Message gives it): only the others are read.
func ReadCommitsKnowing(ctx context.Context, repo *gitx.Repo, g notes.Git, hashes []string, msgs map[string]string, want func(string) bool, known Known) (Said, []Skip) {
	said := Said{Lines: Lines{}, Commit: map[string][]Claim{}}
	if len(hashes) == 0 {
		return said, nil
	}
	if repo.CommonDir == "" {
		if r, ok := gitx.Discover(g.Dir, gitx.Getenv(g.Env)); ok {
			repo = r
		}
	}
	var skips []Skip
	if refs := Refs(ctx, g); len(refs) > 0 {
		var err error
		said.Lines, skips, err = NewReader(repo, g, refs).Read(ctx, hashes, want)
		if err != nil {
			skips = append(skips, Skip{Ref: "other tools' notes", Err: err})
		}
	}
	var unread []string
	for _, h := range hashes {
		if _, ok := msgs[h]; !ok {
			unread = append(unread, h)
		}
	}
	read := map[string]string{}
	if len(unread) > 0 {
		read, _ = repo.MessagesInProcess(unread) // not readable in process: no trailers
	}
	for _, h := range hashes {
		m, ok := msgs[h]
		if !ok {
			m, ok = read[h]
		}
		if cs := TrailerClaims(m); ok && len(cs) > 0 {
			said.Commit[h] = cs
		}
	}
	said.Name(known)
	return said, skips
}

// Name sets Conversation on each claim whose tool and session are a
// conversation known names.
func (s Said) Name(known Known) {
	if known == nil {
		return
	}
	name := func(cs []Claim) {
		for i := range cs {
			if c := &cs[i]; c.Tool != "" && c.Session != "" && c.Conversation == "" {
				c.Conversation = known(c.Tool, c.Session)
			}
		}
	}
	for _, byPath := range s.Lines {
		for _, byLine := range byPath {
			for _, cs := range byLine {
				name(cs)
			}
		}
	}
	for _, cs := range s.Commit {
		name(cs)
	}
}
