package app

import (
	"context"
	"strings"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/interop"
	"github.com/git-convo/git-convo/pkg/share/notes"
	"github.com/git-convo/git-convo/pkg/share/trace"
)

// Commits' Agent Trace records for other tools (git convo trace).

// TraceRecord is one commit's Agent Trace record.
type TraceRecord struct {
	Hash   string
	Record trace.Record
}

// GitAI is the record as a git-ai authorship log (docs/interop.md).
func (t TraceRecord) GitAI() ([]byte, error) { return interop.ToGitAI(t.Hash, t.Record) }

// Traced is what Trace found: how many commits the revisions selected, and
// the records of those with a linked conversation, in the same order.
type Traced struct {
	Commits int
	Records []TraceRecord
}

// Trace is the Agent Trace record of each commit revs select in the
// repository of dir (a range is walked; plain revisions are taken as
// given, in order; none is HEAD): what this clone knows, merged with what
// teammates shared in notes, whether or not sharing is on. prompts also
// shares first prompts, as sharing with --prompts does.
func (a *App) Trace(ctx context.Context, dir string, revs []string, prompts bool) (Traced, error) {
	var out Traced
	repo, err := gitx.Open(ctx, dir, false)
	if err != nil {
		return out, err
	}
	g := NotesGit(repo)
	hashes, err := traceCommits(ctx, repo, revs)
	if err != nil {
		return out, err
	}
	out.Commits = len(hashes)
	settings, err := g.Settings(ctx)
	if err != nil {
		return out, err
	}
	settings.Prompts = settings.Prompts || prompts
	recs := map[string]trace.Record{}
	a.BeforeRead(ctx, dir, readWait) // the spooled events and queued commits first
	if s, err := a.OpenStore(ctx, true); err == nil {
		o, err := g.Options(ctx, settings, a.cfg.Version)
		if err == nil {
			recs, err = g.Build(ctx, s, hashes, o)
		}
		s.Close()
		if err != nil {
			return out, err
		}
	}
	rd := notes.NewReader(ctx, g.Dir)
	defer rd.Close()
	shared, err := rd.ClippedRecords(ctx, hashes) // a note's ranges, cut to the lines each commit added
	if err != nil {
		return out, err
	}
	for _, h := range hashes {
		r, ok := recs[h]
		if sr, has := shared[h]; has {
			r, ok = mergeOr(r, ok, sr), true
		}
		if ok {
			out.Records = append(out.Records, TraceRecord{Hash: h, Record: r})
		}
	}
	return out, nil
}

// traceCommits lists the commits revs select: a range walked, else the
// revisions themselves in the order given.
func traceCommits(ctx context.Context, repo *gitx.Repo, revs []string) ([]string, error) {
	args := revs
	if len(args) == 0 {
		args = []string{"HEAD"}
	}
	walk := false
	for _, a := range args {
		walk = walk || strings.Contains(a, "..") || strings.HasPrefix(a, "^")
	}
	if !walk {
		hashes, err := repo.RevParse(ctx, args...)
		if err != nil {
			return nil, err
		}
		args = append([]string{"--no-walk=unsorted"}, hashes...)
	}
	var hashes []string
	err := repo.StreamLog(ctx, args, gitx.LogOptions{}, func(gc gitx.Commit) bool {
		hashes = append(hashes, gc.Hash)
		return true
	})
	return hashes, err
}

// mergeOr merges a shared record into the local one, if there is one.
func mergeOr(local trace.Record, ok bool, shared trace.Record) trace.Record {
	if !ok {
		return shared
	}
	r := trace.Merge(local, shared)
	r.VCS = local.VCS
	return r
}
