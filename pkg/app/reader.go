package app

import (
	"context"

	"github.com/git-convo/git-convo/pkg/app/prsummary"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/notes"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/write/hookrun"
)

// A read command's data (log, blame, show, stats, conversations, search,
// pr): links.sqlite opened while the command's git runs, teammates' shared
// notes, other tools' records. The command prints; the Reader answers.

// The store's model the read commands print, as the store gives it.
type (
	LineWriter = store.LineWriter
	FileStat   = store.FileStat
	Commit     = store.Commit
	Link       = store.Link
)

const (
	EvidencePosition     = store.EvidencePosition
	LinkEvidencePosition = store.LinkEvidencePosition
	LinkEvidenceText     = store.LinkEvidenceText
	LinkSourceRelink     = store.LinkSourceRelink
	// SourceNotes is a link's source when a teammate's note gave it.
	SourceNotes = notes.SourceNotes
	// NotesRef is where git-convo's shared notes live; MaxNoteBytes and
	// MaxNoteRecords bound what one note may hold.
	NotesRef       = notes.Ref
	MaxNoteBytes   = notes.MaxNoteBytes
	MaxNoteRecords = notes.MaxNoteRecords
)

// NotesTrackingRef is where a remote's fetched shared notes are kept.
func NotesTrackingRef(remote string) string { return notes.TrackingRef(remote) }

// SchemaVersion is the links database's schema version.
func SchemaVersion() int { return store.SchemaVersion() }

// Reader is one read command's session in a work tree: the store, opened
// in the background after the drains (the queued commits recorded) while
// the command starts git, and the shared notes, listed once drained. The
// command closes it.
type Reader struct {
	a    *App
	dir  string
	repo *gitx.Repo // the command's repository, as it was given
	// found: the repository with its git dirs, once the command found it
	// from its files (show): the in-process readers do not look again.
	found *gitx.Repo

	opened  chan struct{} // closed when the store is open (or failed to)
	store   *Store
	hint    string
	openErr error
	shared  *notes.Reader
}

// ReaderOptions say how a read command reads.
type ReaderOptions struct {
	// InlineNotes: the command takes the shared notes' text from git log
	// itself (%N, LogSession.Notes): the reader starts no git for them.
	InlineNotes bool
}

// OpenReader starts a read of the repository repo (at dir, the current
// directory's "."): the drains, then the store and the shared notes, all
// in the background. Each answer waits for what it needs.
func (a *App) OpenReader(ctx context.Context, repo *gitx.Repo, dir string, opts ReaderOptions) *Reader {
	// Notes are listed once the queue is drained: draining a pull may
	// attribute squash merges (a stat when nothing is queued).
	drained := make(chan struct{})
	newNotes := notes.NewReaderAfter
	if opts.InlineNotes {
		newNotes = notes.NewInlineReaderAfter
	}
	r := &Reader{a: a, dir: dir, repo: repo, opened: make(chan struct{}), shared: newNotes(ctx, dir, drained)}
	// Open the store while the command starts git: on log -n 1000 the
	// overlap is a tenth of the run.
	go func() {
		defer close(r.opened)
		a.BeforeRead(ctx, dir, hookrun.ReadDrainWait) // answer with the queued commits recorded
		close(drained)
		r.store, r.hint, r.openErr = a.OpenReadStore(ctx)
	}()
	return r
}

// Ready waits for the store; its error is the read's.
func (r *Reader) Ready() error {
	<-r.opened
	return r.openErr
}

// Store is links.sqlite, once Ready returned nil (an empty store in
// memory before there is a database).
func (r *Reader) Store() *Store {
	<-r.opened
	return r.store
}

// Found tells the reader the repository with its git dirs, found from its
// files by the command (show), so that it is not looked for again.
func (r *Reader) Found(repo *gitx.Repo) { r.found = repo }

// Close closes the shared notes and the store. hint, for a person at a
// terminal, says why nothing is linked when there is no database yet.
func (r *Reader) Close() (hint string) {
	r.shared.Close()
	if r.Ready() == nil {
		r.store.Close()
		return r.hint
	}
	return ""
}

// discovered is the repository with its git dirs, which the in-process
// readers need (found from files when it was made without them), and its
// notes.Git.
func (r *Reader) discovered() (*gitx.Repo, notes.Git) {
	g := NotesGit(r.repo)
	if r.found != nil {
		return r.found, g
	}
	if r.repo.CommonDir == "" {
		if found, ok := gitx.Discover(g.Dir, gitx.Getenv(g.Env)); ok {
			return found, g
		}
	}
	return r.repo, g
}

// localConversation looks a conversation up in the local database, when
// there is one.
func (r *Reader) localConversation(ctx context.Context, id string) (*Conversation, error) {
	if r.Ready() != nil || r.store == nil {
		return nil, nil
	}
	return r.store.GetConversation(ctx, id)
}

// keepShared keeps the shared notes read for a second merge of the same
// commits (blame merges links, then lines).
func (r *Reader) keepShared() { r.shared.Keep() }

// mergeShared adds what shared notes say about hashes to the local links
// (App.MergeShared, as the MCP tools do), with the local titles.
func (r *Reader) mergeShared(ctx context.Context, hashes []string, linked map[string][]LinkedConversation) {
	r.a.MergeShared(ctx, r.shared, hashes, linked, r.localConversation)
}

// mergeSharedLines adds shared notes' line attribution in the files names
// (git's names) for commits the local database has none of (blame).
func (r *Reader) mergeSharedLines(ctx context.Context, hashes, names []string, writers map[string]map[string]map[int]LineWriter, recorded map[string]bool) {
	if err := r.shared.MergeLineWritersIn(ctx, hashes, names, writers, recorded); err != nil {
		r.a.Log().Printf("share", "reading shared notes: %v", err)
	}
}

// without is hashes less the commits local has counts of.
func without(hashes []string, local []FileStat) []string {
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
	return need
}

// sharedConversations adds to conversations' list the conversations only
// shared notes know (App.SharedConversations).
func (r *Reader) sharedConversations(ctx context.Context, list []ConversationSummary, f ConversationFilter) []ConversationSummary {
	return r.a.SharedConversations(ctx, r.shared, list, f)
}

// sharedSearchDocs adds to search's candidates the conversations only
// shared notes know (App.SharedSearchDocs); shared says which those are.
func (r *Reader) sharedSearchDocs(ctx context.Context, docs []SearchDoc, words []string, f ConversationFilter) ([]SearchDoc, map[string]bool) {
	return r.a.SharedSearchDocs(ctx, r.shared, docs, words, f)
}

// Summary is App.Summary on this read's store and shared notes.
func (r *Reader) Summary(ctx context.Context, req SummaryRequest) (*prsummary.Summary, error) {
	if err := r.Ready(); err != nil {
		return nil, err
	}
	req.Notes = r.shared
	return r.a.Summary(ctx, r.store, req)
}

// Unfetched is the remotes with shared notes this clone has not fetched
// (show's hint), for the work tree at dir.
func Unfetched(ctx context.Context, dir string) []string { return notes.Git{Dir: dir}.Unfetched(ctx) }

// Hint is Close's hint, once the store is open ("" when it failed).
func (r *Reader) Hint() string {
	if r.Ready() != nil {
		return ""
	}
	return r.hint
}

// CommitLinks is the conversations linked to hashes, local and shared
// (show): with no links database, no SQLite is asked.
func (r *Reader) CommitLinks(ctx context.Context, hashes []string) (map[string][]LinkedConversation, error) {
	if err := r.Ready(); err != nil {
		return nil, err
	}
	linked := map[string][]LinkedConversation{}
	if !r.store.Blank() { // no links database: nothing is linked, and no SQLite is opened to say so
		var err error
		if linked, err = r.store.ConversationsForCommits(ctx, hashes); err != nil {
			return nil, err
		}
	}
	r.mergeShared(ctx, hashes, linked)
	return linked, nil
}

// BlameEvidence is what blame knows of its lines' commits, local and shared.
type BlameEvidence struct {
	Linked map[string][]LinkedConversation
	// Writers: commit -> path -> line -> the conversation that wrote it.
	Writers map[string]map[string]map[int]LineWriter
	// Recorded: the commits whose lines are known (examined here, or a
	// shared note's): a line no agent wrote there is a person's, not
	// unknown. Lines left of a commit a forgotten conversation wrote lines
	// of do not make it one.
	Recorded map[string]bool
}

// BlameEvidence reads the links of hashes, and their line evidence in the
// blamed file only (paths: its names by link.NormPath; names: as git names
// them): a commit's other files can hold far more lines than the one
// blamed. Shared notes add both for the commits the local data lacks.
func (r *Reader) BlameEvidence(ctx context.Context, hashes, paths, names []string) (BlameEvidence, error) {
	var ev BlameEvidence
	if err := r.Ready(); err != nil {
		return ev, err
	}
	linked, err := r.store.ConversationsForCommits(ctx, hashes)
	if err != nil {
		return ev, err
	}
	writers, recorded, err := r.store.CommitLineWritersIn(ctx, hashes, paths)
	if err != nil {
		return ev, err
	}
	r.keepShared() // both merges read the same notes
	if r.canKeep() {
		r.shared.UseAddedCache(r.store) // the clip's diffs, kept in links.sqlite
	}
	r.mergeShared(ctx, hashes, linked)
	if err := r.shared.OpenRewrites(ctx, hashes, recorded, r.store.RecordedCommits); err != nil {
		r.a.Log().Printf("share", "reading the rewritten commits: %v", err)
	}
	// The commits this clone examined itself: a teammate's squash made here
	// by git reset --soft and a commit (a rewrite git does not report) is
	// one; its derived reading in the shared notes answers for the lines
	// no local conversation wrote.
	examined := make([]string, 0, len(recorded))
	for _, h := range hashes {
		if recorded[h] {
			examined = append(examined, h)
		}
	}
	r.mergeSharedLines(ctx, hashes, names, writers, recorded)
	if err := r.shared.MergeDerivedLinesIn(ctx, examined, names, writers, recorded); err != nil {
		r.a.Log().Printf("share", "reading shared notes: %v", err)
	}
	return BlameEvidence{Linked: linked, Writers: writers, Recorded: recorded}, nil
}

// canKeep says whether the read may keep what it derived in links.sqlite
// (blame: the lines the clip's diffs added): a database file exists (a
// read never creates one) and its modes let it be written. Otherwise the
// read derives it again, as before.
func (r *Reader) canKeep() bool {
	if r.store == nil || r.store.InMemory() {
		return false
	}
	p, err := r.a.DBPath()
	if err != nil {
		return false
	}
	cause, _ := store.WriteFix(p)
	return cause == ""
}

// FileStats is stats' per-file counts of hashes: the local database's,
// then shared notes' and other tools' for the commits it lacks; sources
// counts the commits each other tool gave.
func (r *Reader) FileStats(ctx context.Context, hashes []string) (stats []FileStat, sources map[string]int, err error) {
	if err := r.Ready(); err != nil {
		return nil, nil, err
	}
	if stats, err = r.store.CommitFileStats(ctx, hashes); err != nil {
		return nil, nil, err
	}
	stats = r.openedFileStats(ctx, hashes, stats)  // rewritten here from a teammate's: as blame and pr read them
	stats = r.derivedFileStats(ctx, hashes, stats) // a squash of teammates' commits made here: the same
	stats = r.sharedFileStats(ctx, hashes, stats)
	stats, sources = r.otherFileStats(ctx, hashes, stats)
	return stats, sources, nil
}

// Conversations is conversations' list under f: the local database's,
// those only shared notes know, and each one's commits with those git-ai's
// notes give its session (docs/interop.md).
func (r *Reader) Conversations(ctx context.Context, f ConversationFilter) ([]ConversationSummary, error) {
	if err := r.Ready(); err != nil {
		return nil, err
	}
	list, err := r.store.ListConversations(ctx, f)
	if err != nil {
		return nil, err
	}
	list = r.sharedConversations(ctx, list, f)
	return r.withSessionCommits(ctx, list), nil
}

// SearchDocs is search's candidates for words under f, local and shared;
// shared says which only shared notes know.
func (r *Reader) SearchDocs(ctx context.Context, words []string, f ConversationFilter) ([]SearchDoc, map[string]bool, error) {
	if err := r.Ready(); err != nil {
		return nil, nil, err
	}
	docs, err := r.store.SearchCandidates(ctx, words, f)
	if err != nil {
		return nil, nil, err
	}
	docs, shared := r.sharedSearchDocs(ctx, docs, words, f)
	return docs, shared, nil
}
