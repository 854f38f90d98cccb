package app

import (
	"context"
	"strings"
	"sync"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/interop"
	"github.com/git-convo/git-convo/pkg/share/notes"
)

// LogSession is what log reads beside git log's stream of commits, batch
// by batch: the links of each batch merged with the shared notes, and the
// writers other tools name. It is made while git starts, so that its
// questions (is anything linked? which notes refs exist?) are answered
// while git runs.
type LogSession struct {
	r      *Reader
	inline bool // the shared notes (or another tool's) come from git log's %N
	// linked: whether anything is linked at all, asked while git runs
	// (waited for once): with no link, batches query nothing.
	linked      func() bool
	ahead       *linksAhead // nil until Ahead
	aheadFull   bool        // ahead reads every field (Ahead's full): Links asked otherwise queries itself
	sharedRefs  []string
	otherInline string // the other tool's ref git log's %N prints, if any
	others      *interop.Reader
	resolve     func() func(map[string][]OtherWriter)
	// oidx: links.sqlite's index of other tools' notes, brought up to
	// date while git runs (indexed says whether it can answer); fromIndex
	// is it once known to answer: then no note is read.
	oidx       *OthersIndex
	indexed    chan bool
	indexKnown bool
	fromIndex  *OthersIndex
	// links: the shared notes' links file, up to date (nil: git log
	// prints the notes, %N).
	links *notes.LinksIndex
	// plain: git's commit times are the stored objects' (gitTimesPlain).
	plainOnce sync.Once
	plain     bool
}

// LogSessionOptions say how log reads.
type LogSessionOptions struct {
	// InlineNotes: git log prints the notes (%N) of LogSession.Notes; false
	// where the user's own notes option changes what %N prints.
	InlineNotes bool
	// Many: more commits than the first batch may come (no -n, or a large
	// one): other tools' notes are listed at once.
	Many bool
}

// Log starts log's session over this read (opened with InlineNotes).
func (r *Reader) Log(ctx context.Context, opts LogSessionOptions) *LogSession {
	l := &LogSession{r: r, inline: opts.InlineNotes}
	anyLinks := make(chan bool, 1)
	go func() {
		has := true
		if r.Ready() == nil {
			if h, err := r.store.HasLinks(ctx); err == nil {
				has = h
			}
		}
		anyLinks <- has
	}()
	l.linked = sync.OnceValue(func() bool { return <-anyLinks })
	// Other tools' notes (docs/interop.md): a ref lookup from files; read
	// per batch, in process, only where the refs exist.
	repo, g := r.discovered()
	otherRefs := interop.Refs(ctx, g)
	l.others = otherReader(repo, g, otherRefs)
	if opts.Many {
		l.others.ExpectMany()
	}
	// With a links.sqlite, their writers come from its index of the notes,
	// brought up to date while git runs: no note is read (docs/interop.md).
	if l.oidx = r.a.OthersIndexFor(repo, otherRefs); l.oidx != nil {
		l.indexed = make(chan bool, 1)
		go func() { l.indexed <- r.Ready() == nil && l.oidx.Update(ctx, r.store, l.others) }()
	}
	// Shared notes come with the commits, from git log itself (%N): no
	// process per batch, nor one to list the notes. Where there are none,
	// another tool's notes come so instead (git's zlib, not a listing of
	// the notes and Go's inflate of each): %N joins the notes of every
	// ref it is given, so only one ref's notes can come that way.
	if l.inline {
		if l.sharedRefs = r.shared.Refs(); len(l.sharedRefs) == 0 && len(otherRefs) > 0 && l.oidx == nil {
			l.otherInline = otherRefs[0]
		}
	}
	// The shared notes' links from the file that keeps them
	// (docs/sharing.md): git reads no note, and a quarter of each is decoded.
	if len(l.sharedRefs) > 0 {
		x, err := r.shared.LinksIndex(ctx)
		if err != nil {
			r.a.Log().Printf("share", "the notes' links file: %v (git log reads the notes)", err)
		}
		l.links = x
	}
	// Without it, this clone's records on a tracking ref it has not merged
	// cannot be told in %N from the live ref's (a plain git fetch moved it
	// since an unlink): then the notes are read per batch.
	if l.links == nil && opts.InlineNotes && r.shared.OwnFromLive() {
		l.inline = false
	}
	// Other tools' sessions git-convo knows, looked up once per log.
	l.resolve = sync.OnceValue(func() func(map[string][]OtherWriter) { return r.conversationResolver(ctx) })
	return l
}

// Notes is the notes refs git log is to print with each commit (%N), and
// the bound of one note's bytes; none without InlineNotes.
func (l *LogSession) Notes() (refs []string, maxBytes int) {
	if !l.inline || l.links != nil {
		return nil, 0
	}
	if l.otherInline != "" {
		return []string{l.otherInline}, notes.MaxNoteBytes
	}
	return l.sharedRefs, notes.MaxNoteBytes
}

// Links is the conversations linked to the commits of batch (hashes,
// theirs in order), local and shared. full: every field (JSON); else the
// few a line per conversation needs.
func (l *LogSession) Links(ctx context.Context, batch []gitx.Commit, hashes []string, full bool) (map[string][]LinkedConversation, error) {
	r := l.r
	if err := r.Ready(); err != nil {
		return nil, err
	}
	linked := map[string][]LinkedConversation{}
	missing := hashes
	var err error
	if l.ahead != nil && l.aheadFull == full {
		if linked, missing, err = l.ahead.take(hashes); err != nil {
			return nil, err
		}
	}
	if len(missing) > 0 && l.linked() {
		var secs []int64
		if l.gitTimesPlain() {
			secs = commitSecs(batch, missing)
		}
		got, err := l.query(full)(ctx, missing, secs)
		if err != nil {
			return nil, err
		}
		for h, lcs := range got {
			linked[h] = lcs
		}
	}
	if l.links != nil {
		rest := r.shared.MergeLinkedIndexed(hashes, l.links, linked)
		notes.LocalTitles(ctx, linked, r.localConversation)
		if rest != nil {
			r.mergeShared(ctx, rest, linked)
		}
	} else if !l.inline {
		r.mergeShared(ctx, hashes, linked)
	} else if len(l.sharedRefs) > 0 {
		text := make(map[string]string, len(batch))
		var over []string // notes too long to take inline: read note by note
		for _, c := range batch {
			if c.NotesOver {
				over = append(over, c.Hash)
			} else if c.Notes != "" {
				text[c.Hash] = c.Notes
			}
		}
		over = append(over, r.shared.MergeLinkedText(hashes, text, linked)...)
		notes.LocalTitles(ctx, linked, r.localConversation)
		if over != nil {
			r.mergeShared(ctx, over, linked) // each note within its own bound
		}
	}
	return linked, nil
}

// query is the links query of Links: asked once the store is ready, with
// the commits' times (seconds) where known (log's lean query finds links
// by them).
func (l *LogSession) query(full bool) func(context.Context, []string, []int64) (map[string][]LinkedConversation, error) {
	return func(ctx context.Context, hashes []string, secs []int64) (map[string][]LinkedConversation, error) {
		if full {
			return l.r.store.ConversationsForCommits(ctx, hashes)
		}
		return l.r.store.LogLinksForCommits(ctx, hashes, secs)
	}
}

// gitTimesPlain says whether the commit times git log prints here are
// those of the objects as stored, which the recorder read (links.commitMs):
// not where replace refs or grafts change what git shows. Asked once, only
// where git walks (the walk in process reads no other repository).
func (l *LogSession) gitTimesPlain() bool {
	l.plainOnce.Do(func() {
		repo, _ := l.r.discovered()
		l.plain = repo.PlainObjects(l.r.a.Getenv)
	})
	return l.plain
}

// commitSecs is the committer time of each of hashes that batch holds, in
// seconds (0 where batch has none).
func commitSecs(batch []gitx.Commit, hashes []string) []int64 {
	at := make(map[string]int64, len(batch))
	for _, c := range batch {
		if !c.CommitTime.IsZero() {
			at[c.Hash] = c.CommitTime.Unix()
		}
	}
	secs := make([]int64, len(hashes))
	for i, h := range hashes {
		secs[i] = at[h]
	}
	return secs
}

// Ahead is the function for gitx.LogOptions.Ahead: the links of the
// commits it is handed are read on a goroutine of their own, for Links
// (full as Links is asked) to take. Close stops it.
func (l *LogSession) Ahead(ctx context.Context, full bool) func(hashes []string, secs []int64) {
	if l.ahead == nil {
		l.ahead, l.aheadFull = newLinksAhead(ctx, func() bool { return l.r.Ready() == nil && l.linked() }, l.query(full)), full
	}
	return l.ahead.add
}

// Close ends what the session reads ahead, and lets the notes' links
// file go: call it before the store is closed.
func (l *LogSession) Close() {
	if l.ahead != nil {
		l.ahead.stop()
	}
	l.links.Close()
}

// Others is, per commit of batch, the writers other tools name: their
// notes' (counted per range, read only where the refs exist), then the
// agents its trailers name (evidence "commit trailer", as show reads
// them) from the bodies git log printed, no process more. Each writer
// whose agent and session git-convo knows is that conversation. The
// commits' bodies are let go (printed nowhere).
//
// The notes of the ref inline, if any, are those git log printed (%N);
// with the index, the notes' writers are the index's, and no note is read.
func (l *LogSession) Others(ctx context.Context, batch []gitx.Commit, hashes []string) map[string][]OtherWriter {
	out := map[string][]OtherWriter{}
	if l.oidx != nil && !l.indexKnown {
		if l.indexKnown = true; <-l.indexed {
			l.fromIndex = l.oidx
		}
	}
	others := l.others
	if l.fromIndex != nil {
		if ws, skips, err := l.fromIndex.Writers(ctx, l.r.store, hashes); err == nil {
			l.r.logSkips(skips, nil)
			out, others = ws, nil
		}
	}
	if !others.Empty() {
		var given map[string]interop.Given
		if l.otherInline != "" {
			g := interop.Given{Notes: make(map[string]string, len(batch)), Over: map[string]bool{}}
			for _, c := range batch {
				if c.NotesOver {
					g.Over[c.Hash] = true
				} else if c.Notes != "" {
					g.Notes[c.Hash] = c.Notes
				}
			}
			given = map[string]interop.Given{l.otherInline: g}
		}
		ws, skips, err := others.ReadWriters(ctx, hashes, given)
		l.r.logSkips(skips, err)
		out = ws
	}
	for i := range batch {
		c := &batch[i]
		if strings.IndexByte(c.Body, ':') >= 0 { // no colon, no trailer
			if cs := interop.TrailerClaims(c.Subject + "\n\n" + c.Body); len(cs) > 0 {
				out[c.Hash] = append(out[c.Hash], interop.Writers(nil, cs)...)
			}
		}
		c.Body = "" // printed nowhere: not held past the batch
	}
	if len(out) == 0 {
		return out
	}
	if resolve := l.resolve(); resolve != nil {
		resolve(out)
	}
	return out
}

// conversationResolver names, on each writer of a batch, git-convo's
// conversation with the writer's agent and session, the batch's sessions
// looked up at once (nil when the store cannot tell).
func (r *Reader) conversationResolver(ctx context.Context) func(map[string][]OtherWriter) {
	if r.Ready() != nil || r.store == nil {
		return nil
	}
	known := interop.NewKnownBatch(ctx, r.store, r.a.AgentOf(""))
	return func(batch map[string][]OtherWriter) {
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
