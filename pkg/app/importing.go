package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/write/ingest"
)

// Import: the agents' past conversations of a repository brought in and
// linked to its past commits (git convo import).

// ImportRequest is what an import asks.
type ImportRequest struct {
	// DryRun computes the import on a throwaway copy of links.sqlite.
	DryRun bool
	Limit  int // conversations imported in this run, over all agents (0: all)
	// Range gives the git log arguments of the commits to link; it is
	// asked once the conversations are in, and its error is returned as is.
	Range    func() ([]string, error)
	Progress ImportProgress
}

// ImportProgress hears how an import goes (every field may be nil).
type ImportProgress struct {
	// Listing: an agent's conversations are being looked for in where
	// ("" when it cannot be located); agent is its display name.
	Listing func(agent, where string)
	// Step: the agent's i-th of n conversations is imported (i is 0 once
	// before the first).
	Step func(agent string, i, n int)
	// Listed: every agent's conversations are in.
	Listed func()
	// Commits: the i-th of n relevant commits is being linked.
	Commits func(i, n int)
}

// NewLink is a link an import made (or, dry, would make).
type NewLink = ingest.NewLink

// Imported is what an import did.
type Imported struct {
	Conversations, Imported int            // found; imported in this run
	Via                     map[string]int // found per association
	Scanned, Relevant       int            // commits in the range; those sharing a file with the conversations
	New                     []NewLink
}

// Import records every agent's conversations of the repository of dir (any
// of its work trees), then links them to the commits req.Range selects
// with the usual scorer, and rewrites the notes of those commits when
// sharing is on. Ctrl-C (ctx) leaves the store consistent, and the error
// says how far it got.
func (a *App) Import(ctx context.Context, dir string, req ImportRequest) (Imported, error) {
	var out Imported
	p := req.Progress
	repo, err := gitx.Open(ctx, dir, false)
	if err != nil {
		return out, err
	}
	s, cleanup, err := a.importStore(ctx, dir, req.DryRun)
	if err != nil {
		return out, err
	}
	defer cleanup()
	w := a.Writer(ctx, s)
	found, err := w.ImportAll(ctx, a.cfg.Agents.All(a.cfg.Getenv), workTrees(ctx, repo), req.Limit, ingest.ImportProgress{
		Listing: func(src source.Source) {
			if p.Listing != nil {
				where, _ := a.cfg.Agents.Where(src.Name(), a.cfg.Getenv) // "" when it cannot be located
				p.Listing(a.cfg.Agents.Display(src.Name()), where)
			}
		},
		Step: func(src source.Source, i, n int) {
			if p.Step != nil {
				p.Step(a.cfg.Agents.Display(src.Name()), i, n)
			}
		},
	})
	if err != nil {
		return out, importError(err)
	}
	if p.Listed != nil {
		p.Listed()
	}
	out.Conversations, out.Imported, out.Via = len(found.IDs), found.Imported, found.Via
	args, err := req.Range()
	if err != nil {
		return out, err
	}
	// Earlier runs' conversations count too (resume): found holds every
	// conversation found, imported now or not.
	past, err := w.LinkPast(ctx, repo, found.IDs, args, func(i, n int) {
		if p.Commits != nil {
			p.Commits(i, n)
		}
	})
	if err != nil {
		return out, importError(err)
	}
	out.Scanned, out.Relevant, out.New = past.Scanned, len(past.Relevant), past.New
	a.ShareAfter(ctx, repo.TopLevel, s, past.Relevant...)
	return out, nil
}

// workTrees are the roots of repo's work trees, this one first: the
// conversations in any of them belong to the repository.
func workTrees(ctx context.Context, repo *gitx.Repo) []string {
	roots := []string{repo.TopLevel}
	if trees, err := repo.Worktrees(ctx); err == nil {
		for _, t := range trees {
			if t != repo.TopLevel {
				roots = append(roots, t)
			}
		}
	}
	return roots
}

// importStore is the links database, or for a dry run a throwaway copy of
// it (VACUUM INTO), so the dry run computes exactly what the import would
// do. The spooled events and queued commits of dir's repository go in first.
func (a *App) importStore(ctx context.Context, dir string, dryRun bool) (*Store, func(), error) {
	a.BeforeRead(ctx, dir, readWait)
	if !dryRun {
		s, err := a.OpenStore(ctx, false)
		return s, func() {
			if s != nil {
				s.Close()
			}
		}, err
	}
	tmp, err := os.MkdirTemp("", "git-convo-dry-run-")
	if err != nil {
		return nil, nil, err
	}
	copyPath := filepath.Join(tmp, "links.sqlite")
	// A dry run creates nothing: with no database yet, it starts from an
	// empty one of its own.
	if p, perr := a.DBPath(); perr != nil || fileExists(p) {
		s, err := a.OpenStore(ctx, true)
		if err == nil {
			err = s.CopyTo(ctx, copyPath)
			s.Close()
		}
		if err != nil {
			os.RemoveAll(tmp)
			return nil, nil, err
		}
	}
	c, err := store.Open(ctx, copyPath, store.Options{Now: a.cfg.Now})
	if err != nil {
		os.RemoveAll(tmp)
		return nil, nil, err
	}
	return c, func() { c.Close(); os.RemoveAll(tmp) }, nil
}

// importError is err as import reports it: work Ctrl-C stopped part way
// (ingest.Interrupted) says how far it got and how to finish.
func importError(err error) error {
	var ie ingest.Interrupted
	if errors.As(err, &ie) {
		return ImportInterrupted(ie.Err, ie.What)
	}
	return err
}

// ImportInterrupted is an import stopped by err after what: Ctrl-C
// (context.Canceled) says the database is consistent and how to finish.
func ImportInterrupted(err error, what string) error {
	if err == context.Canceled {
		return fmt.Errorf("interrupted after %s; the database is consistent: run git convo import again to finish", what)
	}
	return err
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
