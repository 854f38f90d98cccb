package app

import (
	"context"
	"slices"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/notes"
)

// StillShared is what shared notes say of conversations this database no
// longer has, on commits it records: forget is local, so a conversation
// forgotten here stays named in every note already written (this clone's
// until it is withdrawn, a teammate's until its writer withdraws it).
type StillShared struct {
	Conversations []string // their ids, sorted
	Commits       []string // the recorded commits whose notes name them, sorted
	Own           []string // of Commits, those whose note this clone wrote (its writer's record)
}

type notesLink struct {
	commit string
	own    bool // this clone's record names it
}

// StillShared reads every shared note of repo (this clone's and the fetched
// ones) and keeps the conversations they name on commits s records that s
// does not have. A conversation only a teammate's commits name is theirs,
// not one forgotten here: it is left out.
func (a *App) StillShared(ctx context.Context, s *Store, repo *gitx.Repo) (StillShared, error) {
	var out StillShared
	g := NotesGit(repo)
	rd := notes.NewReader(ctx, g.Dir)
	defer rd.Close()
	byConv, err := rd.Conversations(ctx)
	if err != nil || len(byConv) == 0 {
		return out, err
	}
	var hashes []string
	for _, links := range byConv {
		for _, lc := range links {
			hashes = append(hashes, lc.CommitHash)
		}
	}
	recorded, err := s.RecordedCommits(ctx, hashes)
	if err != nil {
		return out, err
	}
	settings, _ := g.Settings(ctx)
	commits, own := map[string]bool{}, map[string]bool{}
	for id, links := range byConv {
		var here []notesLink
		for _, lc := range links {
			if recorded[lc.CommitHash] {
				here = append(here, notesLink{lc.CommitHash, settings.Writer != "" && (lc.SharedBy == settings.Writer || lc.DerivedBy == settings.Writer)})
			}
		}
		if len(here) == 0 {
			continue
		}
		if c, err := s.GetConversation(ctx, id); err != nil || c != nil {
			if err != nil {
				return out, err
			}
			continue // known here
		}
		out.Conversations = append(out.Conversations, id)
		for _, l := range here {
			commits[l.commit] = true
			own[l.commit] = own[l.commit] || l.own
		}
	}
	for h := range commits {
		out.Commits = append(out.Commits, h)
		if own[h] {
			out.Own = append(out.Own, h)
		}
	}
	slices.Sort(out.Conversations)
	slices.Sort(out.Commits)
	slices.Sort(out.Own)
	return out, nil
}
