// Package autolink runs the scorer (package link) over the store: it links
// one recorded commit to the conversations that edited its files, or re-links
// every commit a conversation touched when late information arrives.
package autolink

import (
	"context"
	"fmt"
	"time"

	"github.com/git-convo/git-convo/pkg/attribution/link"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/util/mstime"
)

// Linker links commits already recorded in the store.
type Linker struct {
	Store *store.Store
	// Config returns the scorer settings for a repository (git config convo.*
	// of the work tree at repoPath); nil means the defaults.
	Config func(repoPath string) link.Config
	// AddOnly makes links without removing or lowering any existing one (an
	// import's promise); by default a commit's scorer-made links are replaced.
	AddOnly bool
}

// SkippedUnlinked is why a conversation unlinked from the commit by hand
// (git convo unlink) is not linked to it, whatever its score.
const SkippedUnlinked = "unlinked by hand (git convo unlink); git convo link takes it back"

// Decision is the scorer's verdict on one candidate, for `record -v` and tests.
type Decision struct {
	ConversationID string
	link.Result
}

func (l *Linker) config(repoPath string) link.Config {
	if l.Config == nil {
		return link.DefaultConfig()
	}
	return l.Config(repoPath)
}

// LinkCommit scores every candidate conversation of a recorded commit and
// stores the auto-links that qualify (source names why this ran: hook,
// relink). Manual links are never touched.
func (l *Linker) LinkCommit(ctx context.Context, hash, source string) ([]Decision, error) {
	return l.LinkCommitWhen(ctx, hash, source, nil)
}

// LinkCommitWhen is LinkCommit that looks up the candidates first and then
// calls ready (when not nil) before reading the commit's line evidence: record
// runs git's diff and the line attribution meanwhile.
func (l *Linker) LinkCommitWhen(ctx context.Context, hash, source string, ready func() error) ([]Decision, error) {
	c, err := l.Store.GetCommit(ctx, hash)
	if err != nil {
		return nil, err
	}
	if c == nil {
		return nil, fmt.Errorf("commit %s is not recorded", hash)
	}
	cfg := l.config(c.RepoPath)
	keys := c.FileKeys
	var cands []store.Candidate
	if len(keys) > 0 {
		since := c.CommittedAt.Add(-cfg.Window).UnixMilli()
		if cands, err = l.Store.Candidates(ctx, c.RepoKey, keys, since); err != nil {
			return nil, err
		}
	}
	commit := link.NewCommit(c.CommittedAt, keys, c.IsMerge())
	if c.MadeMs > 0 {
		commit.Made = time.UnixMilli(c.MadeMs)
	}
	display := displayPaths(c)
	if ready != nil {
		if err := ready(); err != nil {
			return nil, err
		}
	}
	added, written, positioned, _, err := l.Store.CommitLineEvidence(ctx, hash)
	if err != nil {
		return nil, err
	}
	commit.AddedLines = added
	// A conversation that wrote some of the commit's lines is a candidate
	// even when the lines ended up in a file it never edited (moved code).
	have := map[string]bool{}
	for _, cand := range cands {
		have[cand.ConversationID] = true
	}
	for id := range written {
		if have[id] {
			continue
		}
		conv, err := l.Store.GetConversation(ctx, id)
		if err != nil {
			return nil, err
		}
		if conv != nil {
			cands = append(cands, store.Candidate{ConversationID: id, FirstSeenMs: conv.FirstSeenMs, ActivityMs: conv.ActivityMs, Files: map[string]int64{}})
		}
	}
	withdrawn, err := l.Store.Withdrawn(ctx, hash)
	if err != nil {
		return nil, err
	}
	var decisions []Decision
	var links []store.Link
	// A commit recorded after the conversation went on (a queued commit
	// drained later) is scored on the activity as it was at commit time, as
	// if it had been recorded at once.
	asOf := c.CommittedAt.Add(cfg.Skew).UnixMilli()
	for i, cand := range cands {
		if cand.ActivityMs > asOf {
			if ms, err := l.Store.ActivityAsOf(ctx, cand.ConversationID, asOf); err == nil && ms > 0 {
				cands[i].ActivityMs = ms
			}
		}
	}
	for _, cand := range cands {
		conv := link.Conversation{
			FirstSeen: mstime.Time(cand.FirstSeenMs),
			Activity:  mstime.Time(cand.ActivityMs),
			Files:     make(map[string]time.Time, len(cand.Files)),
		}
		for k, ms := range cand.Files {
			conv.Files[k] = mstime.Time(ms)
		}
		conv.WrittenLines = written[cand.ConversationID]
		conv.PositionLines = positioned[cand.ConversationID]
		r := link.Score(cfg, commit, conv)
		if r.Linked && withdrawn[cand.ConversationID] {
			r.Linked, r.Skipped = false, SkippedUnlinked // the store would not link it either
		}
		decisions = append(decisions, Decision{ConversationID: cand.ConversationID, Result: r})
		if !r.Linked {
			continue
		}
		links = append(links, store.Link{
			ConversationID: cand.ConversationID,
			CommitHash:     hash,
			MatchedFiles:   display(r.Matched),
			Confidence:     r.Score,
			Reason:         r.Reason,
			Source:         source,
			WrittenLines:   conv.WrittenLines,
			PositionLines:  conv.PositionLines,
			AddedLines:     added,
		})
	}
	if l.AddOnly {
		return decisions, l.Store.AddAutoLinks(ctx, hash, links)
	}
	return decisions, l.Store.ReplaceAutoLinks(ctx, hash, links)
}

// RelinkConversation re-scores every recorded commit that changed a file the
// conversation edited, from when it started to a window after its last
// activity. It returns how many commits were re-scored.
func (l *Linker) RelinkConversation(ctx context.Context, convID string) (int, error) {
	conv, err := l.Store.GetConversation(ctx, convID)
	if err != nil || conv == nil {
		return 0, err
	}
	window := link.DefaultConfig().Window
	from := conv.FirstSeenMs - link.DefaultConfig().Skew.Milliseconds()
	to := conv.ActivityMs + window.Milliseconds()
	hashes, err := l.Store.CommitsTouchedBy(ctx, convID, from, to)
	if err != nil {
		return 0, err
	}
	for _, h := range hashes {
		if _, err := l.LinkCommit(ctx, h, store.LinkSourceRelink); err != nil {
			return 0, err
		}
	}
	return len(hashes), nil
}

// displayPaths returns a mapper from path keys back to the commit's own
// spelling of each path (built once per commit: it is called per candidate).
func displayPaths(c *store.Commit) func([]string) []string {
	byKey := make(map[string]string, len(c.Files))
	for i, k := range c.FileKeys {
		byKey[k] = c.Files[i]
	}
	return func(keys []string) []string {
		out := make([]string, len(keys))
		for i, k := range keys {
			if p, ok := byKey[k]; ok {
				out[i] = p
			} else {
				out[i] = k
			}
		}
		return out
	}
}
