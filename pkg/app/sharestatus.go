package app

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/fetchwatch"
	"github.com/git-convo/git-convo/pkg/share/notes"
	"github.com/git-convo/git-convo/pkg/util/mstime"
)

// What is shared, and how sharing fares: share status and doctor.

// ShareStatus is what the repository shares (git convo share status, and
// its --json).
type ShareStatus struct {
	On        bool           `json:"on"`
	Prompts   bool           `json:"prompts"`
	Remote    string         `json:"remote"`
	Notes     int            `json:"notes"`
	Fetched   map[string]int `json:"fetched"`
	Fields    []string       `json:"fields"`
	LastPush  string         `json:"lastPush,omitempty"`
	PushError string         `json:"lastPushError,omitempty"`
	LastFetch string         `json:"lastFetch,omitempty"`
	// FetchedAt is when each remote's notes were last fetched, by git
	// convo fetch or a plain git fetch.
	FetchedAt  map[string]string `json:"fetchedAt"`
	FetchSetUp bool              `json:"fetchSetUp"`
	// FetchDeleted is, per remote, how many notes its last notes fetch
	// deleted (only remotes where it deleted some).
	FetchDeleted map[string]int `json:"fetchDeleted,omitempty"`
}

// ShareStatus says what the repository of dir shares: its settings, its
// notes and each remote's fetched ones, the kinds of field a note holds,
// the last push and fetch. Like a read, it first recognises the squash
// merges a plain fetch brought.
func (a *App) ShareStatus(ctx context.Context, dir string) (ShareStatus, error) {
	g, s, err := notesOf(ctx, dir)
	if err != nil {
		return ShareStatus{}, err
	}
	a.SquashesAfterFetch(ctx, dir) // and it notes when a plain fetch brought notes
	st := ShareStatus{On: s.On, Prompts: s.Prompts, Remote: s.Remote, Fetched: map[string]int{}, FetchedAt: map[string]string{}}
	if st.Notes, err = g.Count(ctx, notes.Ref); err != nil {
		return st, err
	}
	refs, err := g.SharedRefs(ctx)
	if err != nil {
		return st, err
	}
	state, _ := g.LoadState(ctx)
	last := state.LastFetch // git convo fetch's, whatever the remote
	fetchedAt := a.notesFetched(dir, refs)
	for _, r := range refs {
		if r == notes.Ref {
			continue
		}
		n, err := g.Count(ctx, r)
		if err != nil {
			return st, err
		}
		remote := strings.TrimSuffix(strings.TrimPrefix(r, notes.TrackingPrefix), notes.TrackingSuffix)
		st.Fetched[remote] = n
		st.FetchedAt[remote] = mstime.ISOTime(fetchedAt[r])
		if prev, _ := g.Tip(ctx, r+"@{1}"); prev != "" { // the reflog: any fetch, git convo's or git's
			if d, err := g.Deleted(ctx, prev, r); err == nil && d > 0 {
				if st.FetchDeleted == nil {
					st.FetchDeleted = map[string]int{}
				}
				st.FetchDeleted[remote] = d
			}
		}
		if fetchedAt[r].After(last) {
			last = fetchedAt[r]
		}
	}
	st.Fields = []string{"conversation id", "agent", "model", "title", "summary", "confidence", "status", "reason",
		"matched files", "line ranges", "line hashes"}
	if s.Prompts {
		st.Fields = append(st.Fields, "first prompt")
	}
	st.LastPush, st.LastFetch, st.PushError = mstime.ISOTime(state.LastPush), mstime.ISOTime(last), state.LastPushError
	if v, _ := g.Config(ctx, "remote."+s.Remote+".fetch"); v != "" {
		out, _ := (notes.Git{Dir: g.Dir}).Config(ctx, "notes.rewriteRef")
		st.FetchSetUp = out != ""
	}
	return st, nil
}

// NoteBounds is what every read skips of the shared notes for their size
// or their number of records (docs/reliability.md, "Bounds").
type NoteBounds = notes.Over

// SharingHealth is how sharing fares in a repository (doctor).
type SharingHealth struct {
	On, Prompts bool
	Remote      string
	// Notes on refs/notes/convo, and NoRemote: the sharing remote is not
	// one of git remote's (then notes are never pushed); both read only
	// when sharing is on.
	Notes    int
	NoRemote bool
	// LastFetch counts a plain git fetch too.
	LastPush, LastFetch time.Time
	LastPushError       string
	Bounds              NoteBounds
}

// SharingHealth reads how sharing fares in repo (opened from dir): its
// settings (an error when they cannot be read), the last push and fetch and
// the last push's error, and what the notes' bounds skip.
func (a *App) SharingHealth(ctx context.Context, dir string, repo *gitx.Repo) (SharingHealth, error) {
	g := NotesGit(repo)
	s, err := g.Settings(ctx)
	if err != nil {
		return SharingHealth{}, err
	}
	state, _ := g.LoadState(ctx)
	h := SharingHealth{On: s.On, Prompts: s.Prompts, Remote: s.Remote, LastPush: state.LastPush, LastPushError: state.LastPushError,
		LastFetch: a.lastFetched(ctx, dir, g, state)}
	if refs, err := g.SharedRefs(ctx); err == nil && len(refs) > 0 {
		h.Bounds, _ = g.Bounds(ctx, refs)
	}
	if s.On {
		h.Notes, _ = g.Count(ctx, notes.Ref)
		if remotes, err := g.Remotes(ctx); err == nil && !slices.Contains(remotes, s.Remote) {
			h.NoRemote = true
		}
	}
	return h, nil
}

// lastFetched is when teammates' notes were last fetched from any remote:
// by git convo fetch (its state) or a plain git fetch (notesFetched).
func (a *App) lastFetched(ctx context.Context, dir string, g notes.Git, state notes.State) time.Time {
	last := state.LastFetch
	refs, _ := g.SharedRefs(ctx)
	for r, t := range a.notesFetched(dir, refs) {
		if r != notes.Ref && t.After(last) { // this clone's own notes move notes.Ref
			last = t
		}
	}
	return last
}

// notesFetched says when each of refs was last fetched, by git convo fetch
// or a plain git fetch alike: its reflog's newest entry, or, where reflogs
// are off, when the fetch watch saw a fetch move it (the fetch's time); the
// later of the two.
func (a *App) notesFetched(dir string, refs []string) map[string]time.Time {
	out := map[string]time.Time{}
	common, ok := fetchwatch.Locate(dir, a.cfg.Getenv)
	if !ok {
		return out
	}
	seen := fetchwatch.NotesFetched(common)
	for _, r := range refs {
		out[r] = gitx.LastMoved(common, r)
		if seen[r].After(out[r]) {
			out[r] = seen[r]
		}
	}
	return out
}
