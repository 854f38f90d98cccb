package ingest

import (
	"context"
	"fmt"

	"github.com/git-convo/git-convo/pkg/attribution/link"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/store/repokey"
	"github.com/git-convo/git-convo/pkg/write/autolink"
)

// Interrupted is work that ctx ended (Ctrl-C) part way, after What; what
// was written is consistent, and running it again finishes it.
type Interrupted struct {
	Err  error // ctx's error
	What string
}

func (e Interrupted) Error() string { return fmt.Sprintf("interrupted after %s: %v", e.What, e.Err) }

func (e Interrupted) Unwrap() error { return e.Err }

// PastLinks is what LinkPast went through and linked.
type PastLinks struct {
	Scanned  int      // commits the range holds
	Relevant []string // those sharing an edited file with the conversations
	New      []NewLink
}

// NewLink is a link LinkPast made.
type NewLink struct {
	Hash, Subject, ConversationID string
	Score                         float64
	Reason                        string
}

// LinkPast links the past commits of repo that logArgs select (git log
// arguments) and that share a file with what the conversations ids edited,
// with the usual scorer and source "import". It never duplicates, lowers or
// removes a link. Commits not recorded yet are recorded, with their added
// lines attributed when the store holds line evidence for the repository.
// step, when given, is called before each relevant commit (1-based); when
// ctx ends it stops with Interrupted.
func (w Writer) LinkPast(ctx context.Context, repo *gitx.Repo, ids, logArgs []string, step func(i, n int)) (PastLinks, error) {
	var out PastLinks
	s := w.Store
	key := repokey.Of(repo.CommonDir)
	edited := map[string]bool{}
	for _, id := range ids {
		files, err := s.ConversationFiles(ctx, id)
		if err != nil {
			return out, err
		}
		for _, f := range files {
			if f.RepoKey == key && hasEditSource(f.Sources) {
				edited[repokey.PathKey(f.Path)] = true
			}
		}
	}
	var relevant []gitx.Commit
	err := repo.StreamLog(ctx, logArgs, gitx.LogOptions{Files: true}, func(c gitx.Commit) bool {
		out.Scanned++
		for _, f := range c.Files {
			if edited[repokey.PathKey(f)] {
				relevant = append(relevant, c)
				break
			}
		}
		return ctx.Err() == nil
	})
	if err != nil {
		return out, err
	}
	for _, c := range relevant {
		out.Relevant = append(out.Relevant, c.Hash)
	}
	linker := &autolink.Linker{Store: s, Config: w.Config, AddOnly: true}
	// Line-level evidence (Cursor's own diffs, or earlier hooks) needs each
	// commit's diff; skip that work when there is none for this repository.
	withLines, err := s.HasEditLines(ctx, key)
	if err != nil {
		return out, err
	}
	rec := &Recorder{Writer: w, Repo: repo, Linker: linker}
	for i, c := range relevant {
		if ctx.Err() == nil && step != nil {
			step(i+1, len(relevant))
		}
		newLinks, err := w.linkPast(ctx, rec, linker, key, withLines, c)
		if ctx.Err() != nil { // Ctrl-C, before this commit or during it
			return out, Interrupted{Err: ctx.Err(), What: fmt.Sprintf("%d of %d commits linked", i, len(relevant))}
		}
		if err != nil {
			return out, err
		}
		out.New = append(out.New, newLinks...)
	}
	return out, nil
}

// linkPast records a past commit when it is not recorded yet and links it,
// returning the links it made.
func (w Writer) linkPast(ctx context.Context, rec *Recorder, linker *autolink.Linker, key string, withLines bool, c gitx.Commit) ([]NewLink, error) {
	if err := w.recordPast(ctx, rec, key, withLines, c); err != nil {
		return nil, err
	}
	before, err := w.Store.ConversationsForCommits(ctx, []string{c.Hash})
	if err != nil {
		return nil, err
	}
	had := map[string]bool{}
	for _, lc := range before[c.Hash] {
		had[lc.ConversationID] = true
	}
	decisions, err := linker.LinkCommit(ctx, c.Hash, store.LinkSourceImport)
	if err != nil {
		return nil, err
	}
	var out []NewLink
	for _, d := range decisions {
		if d.Linked && !had[d.ConversationID] {
			out = append(out, NewLink{Hash: c.Hash, Subject: c.Subject, ConversationID: d.ConversationID, Score: d.Score, Reason: d.Reason})
		}
	}
	return out, nil
}

// recordPast records a past commit that is not recorded yet, attributing
// its added lines when withLines.
func (w Writer) recordPast(ctx context.Context, rec *Recorder, key string, withLines bool, c gitx.Commit) error {
	recorded, err := w.Store.RecordedCommits(ctx, []string{c.Hash})
	if err != nil || recorded[c.Hash] {
		return err
	}
	sc := store.Commit{Hash: c.Hash, RepoPath: rec.Repo.TopLevel, RepoKey: key, Author: c.Author, Message: c.Subject,
		CommittedAt: c.CommitTime, ObjectTime: rec.objectTimes(), ParentCount: len(c.Parents)}
	for _, f := range c.Files {
		sc.Files = append(sc.Files, link.NormPath(f))
		sc.FileKeys = append(sc.FileKeys, repokey.PathKey(f))
	}
	if err := w.Store.UpsertCommit(ctx, sc); err != nil {
		return err
	}
	if !withLines {
		return nil
	}
	added, err := rec.Repo.AddedLines(ctx, &c)
	if err != nil {
		return err
	}
	return rec.AttributeLines(ctx, added, sc)
}

// hasEditSource: one of a file's sources says the conversation edited it.
func hasEditSource(sources []string) bool {
	for _, s := range sources {
		if s == store.SourceHook || s == store.SourceTool || s == store.SourceCursorEdit {
			return true
		}
	}
	return false
}
