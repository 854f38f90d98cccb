// Package ingest is git-convo's write path for agents' activity: what a
// hook event, a conversation read from its agent and an import record in
// the store, for any source.Source. pkg/cli parses flags and prints around
// it; it knows no agent's format.
package ingest

import (
	"context"
	"fmt"
	"github.com/git-convo/git-convo/pkg/agents"
	"path/filepath"
	"strings"
	"time"

	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/attribution/link"
	"github.com/git-convo/git-convo/pkg/attribution/position"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/util/errlog"
	"github.com/git-convo/git-convo/pkg/util/mstime"
	"github.com/git-convo/git-convo/pkg/write/autolink"
)

// Writer writes agents' activity into one open store.
type Writer struct {
	Store *store.Store
	// Now is the clock (the enrichment's time).
	Now func() time.Time
	// Getenv locates agents' data (their environment variables).
	Getenv func(string) string
	// Agents are the agents whose events and conversations are written
	// (the spool's events name theirs).
	Agents *agents.Registry
	// Config is a repository's linking settings (convo.*), for relinking.
	Config func(repoPath string) link.Config
	// Log receives what goes wrong after the event is recorded; the zero
	// value discards it.
	Log errlog.Log
	// AgentCommitLinked is called after a commit the agent ran itself (in
	// the work tree at dir) is linked: the caller shares the link; nil:
	// nothing.
	AgentCommitLinked func(ctx context.Context, dir, hash string)
}

// Record stores one event of src, arrived at atMs, and, when the agent ran
// git commit itself, links that commit to the conversation.
func (w Writer) Record(ctx context.Context, src source.Source, a source.Activity, atMs int64) error {
	if err := w.Store.RecordActivity(ctx, recorded(src, a, atMs)); err != nil {
		return err
	}
	w.LinkAgentCommit(ctx, a.ConversationID, a.Commit)
	return nil
}

// recorded is what Record stores of an event of src.
func recorded(src source.Source, a source.Activity, atMs int64) store.Activity {
	// Roots may be a folder inside the work tree: relative paths are
	// relative to it. A working directory's root becomes the work tree's
	// top level, which conversations are listed by; a workspace the user
	// opened is kept as sent (source.WorkspaceRoots).
	if len(a.Roots) > 0 {
		a = withAbsPaths(a, a.Roots[0])
	}
	if _, workspaces := src.(source.WorkspaceRoots); !workspaces {
		a.Roots = append([]string(nil), a.Roots...)
		for i, r := range a.Roots {
			if loc, ok := gitx.FindRepoForPath(r); ok {
				a.Roots[i] = loc.TopLevel
			}
		}
	}
	return StoreActivity(a, src.Name(), atMs)
}

// Relink re-scores the commits a conversation touched.
func (w Writer) Relink(ctx context.Context, convID string) error {
	linker := &autolink.Linker{Store: w.Store, Config: w.Config}
	_, err := linker.RelinkConversation(ctx, convID)
	return err
}

// LinkAgentCommit links the commit an agent ran itself, when there is one;
// a failure only goes to the log: the event is already recorded.
func (w Writer) LinkAgentCommit(ctx context.Context, convID string, c *source.AgentCommit) {
	if c == nil {
		return
	}
	if err := linkAgentCommit(ctx, w.Store, convID, *c); err != nil {
		w.Log.Printf("capture", "linking the commit %s that %s made: %v", c.Hash, convID, err)
		return
	}
	if w.AgentCommitLinked != nil {
		w.AgentCommitLinked(ctx, c.Dir, c.Hash)
	}
}

// linkAgentCommit resolves the commit the agent printed (abbreviated) in the
// repository it ran in and links it with confidence 1.0.
func linkAgentCommit(ctx context.Context, s *store.Store, convID string, c source.AgentCommit) error {
	if !isHex(c.Hash) {
		return fmt.Errorf("%q is not a commit hash", c.Hash)
	}
	repo, err := gitx.Open(ctx, c.Dir, true)
	if err != nil {
		return err
	}
	full, err := repo.RevParse(ctx, c.Hash)
	if err != nil {
		return err
	}
	return s.SetAgentCommitLink(ctx, convID, full[0])
}

// withAbsPaths makes the activity's relative file paths absolute from dir.
func withAbsPaths(a source.Activity, dir string) source.Activity {
	abs := func(p string) string {
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(dir, p)
	}
	files := make([]string, len(a.Files))
	for i, f := range a.Files {
		files[i] = abs(f)
	}
	attachments := make([]string, len(a.Attachments))
	for i, f := range a.Attachments {
		attachments[i] = abs(f)
	}
	added := make(map[string][]string, len(a.Added))
	for f, texts := range a.Added {
		added[abs(f)] = append(added[abs(f)], texts...) // "a.go" and "/repo/a.go" are one file
	}
	spans := make([]position.Span, len(a.Spans))
	for i, sp := range a.Spans {
		spans[i] = sp
		spans[i].Path = abs(sp.Path)
	}
	a.Files, a.Attachments, a.Added, a.Spans = files, attachments, added, spans
	return a
}

func isHex(s string) bool {
	if len(s) < 7 || len(s) > 64 {
		return false
	}
	return strings.Trim(s, "0123456789abcdef") == ""
}

// StoreActivity is what the store records of one event. Paths become
// repo-relative; a file outside every repository is kept as is, never matched.
func StoreActivity(a source.Activity, agent string, atMs int64) store.Activity {
	sa := store.Activity{
		ConversationID: a.ConversationID,
		Agent:          agent,
		GenerationID:   a.GenerationID,
		Event:          a.Event,
		AtMs:           atMs,
		Model:          a.Model,
		TranscriptPath: a.TranscriptPath,
		Status:         a.Status,
		Prompt:         strings.TrimSpace(a.Prompt),
		Response:       strings.TrimSpace(a.Response),
		WorkspaceRoots: a.Roots,
	}
	base := ""
	if len(a.Roots) > 0 {
		base = a.Roots[0]
	}
	loc := &Locator{}
	for _, f := range a.Attachments {
		sa.Files = append(sa.Files, loc.Touch(f, base, store.SourceAttachment))
	}
	src := store.SourceHook
	if a.ToolEdit {
		src = store.SourceTool
	}
	for _, f := range a.Files {
		sa.Files = append(sa.Files, loc.Touch(f, base, src))
	}
	// A located edit's lines are evidence by position: their hashes are
	// marked so that their text alone never matches in that file.
	located := map[string]map[int64]bool{}
	for _, sp := range a.Spans {
		t := loc.Touch(sp.Path, base, src)
		if t.RepoKey == "" {
			continue
		}
		ranges := make([]store.Range, len(sp.Ranges))
		for i, r := range sp.Ranges {
			ranges[i] = store.Range{Start: r.Start, End: r.End}
		}
		sa.Spans = append(sa.Spans, store.EditSpan{RepoKey: t.RepoKey, PathKey: t.PathKey, Snapshot: sp.Snapshot, Ranges: ranges})
		hashes := position.Hashes(sp.Snapshot)
		if located[t.PathKey] == nil {
			located[t.PathKey] = map[int64]bool{}
		}
		for _, n := range position.Covered(sp.Ranges) {
			if n <= len(hashes) {
				located[t.PathKey][hashes[n-1]] = true
			}
		}
	}
	// A replacement's new text repeats the lines around the change that it
	// kept (the "\treturn nil" and "}" of the old text): the agent did not
	// write those. A line no located range covers that the replaced text
	// already had is not the edit's, so it never matches by text.
	kept := map[string]map[int64]bool{}
	for f, writes := range a.Writes {
		t := loc.Touch(f, base, src)
		for _, w := range writes {
			if w.Whole || len(w.Lines) > 0 || w.Old == "" {
				continue
			}
			if kept[t.PathKey] == nil {
				kept[t.PathKey] = map[int64]bool{}
			}
			for _, line := range link.SplitLines(w.Old) {
				kept[t.PathKey][link.LineHash(line)] = true
			}
		}
	}
	for f, texts := range a.Added {
		// A file in no repository found keeps its lines with no
		// repository: they wait for a commit whose work tree holds it
		// (store.ClaimUnplaced), as with GIT_DIR and GIT_WORK_TREE.
		t := loc.Touch(f, base, src)
		for _, text := range texts {
			for _, l := range editLines(t, text) {
				l.Positioned = located[t.PathKey][l.Hash]
				if !l.Positioned && kept[t.PathKey][l.Hash] {
					continue
				}
				sa.Lines = append(sa.Lines, l)
			}
		}
	}
	return sa
}

// editLines are the countable lines of text an edit wrote into file t.
func editLines(t store.FileTouch, text string) []store.EditLine {
	var out []store.EditLine
	for _, line := range link.SplitLines(text) {
		out = append(out, store.EditLine{RepoKey: t.RepoKey, PathKey: t.PathKey, Hash: link.LineHash(line), Text: line})
	}
	return out
}

// Enrich reads a conversation from its agent (title, summary, status,
// mode, model, times, prompts, edits with their times and lines, context
// files) into the store. roots, when given, are the work trees it was found
// to belong to (import). It asks for no messages: it runs in the stop hook.
func (w Writer) Enrich(ctx context.Context, src source.Source, id string, hint source.Hint, roots []string) error {
	e, err := w.read(ctx, src, id, hint, roots)
	if err != nil {
		return err
	}
	return w.Store.ApplyEnrichment(ctx, e)
}

// read is what Enrich writes of a conversation.
func (w Writer) read(ctx context.Context, src source.Source, id string, hint source.Hint, roots []string) (store.Enrichment, error) {
	if hint.TranscriptPath == "" {
		if conv, _ := w.Store.GetConversation(ctx, id); conv != nil {
			hint.TranscriptPath = conv.TranscriptPath
		}
	}
	hint.NoMessages = true
	c, err := src.ReadConversation(ctx, id, hint)
	if err == source.ErrNotFound { // a source's own error says where it looked
		return store.Enrichment{}, fmt.Errorf("conversation %s: %s has no transcript for it (yet)", id, src.Name())
	}
	if err != nil {
		return store.Enrichment{}, err
	}
	return w.enrichment(id, src.Name(), c, roots), nil
}

// EnrichAndRelink reads a conversation through src into the store (Enrich)
// and re-scores the commits it touched. A conversation its agent cannot
// give yet (a missing or locked database, no transcript yet) keeps what the
// hooks recorded; the error is kept with it for a later retry, and
// returned.
func (w Writer) EnrichAndRelink(ctx context.Context, src source.Source, id string, hint source.Hint) error {
	err := w.Enrich(ctx, src, id, hint, nil)
	if err != nil {
		_ = w.Store.MarkEnrichError(ctx, id, err.Error())
	}
	if lerr := w.Relink(ctx, id); lerr != nil && err == nil {
		err = lerr
	}
	return err
}

// storedTitle is the conversation's title as the store keeps it: none when
// the agent gave none and the reader made one of the first prompt, so that
// the title column holds only titles (sharing without --prompts shares it;
// read commands show the first prompt in its place).
func storedTitle(c *source.Conversation) string {
	if c.TitleFromPrompt {
		return ""
	}
	return c.Title
}

// enrichment is what the store records of a conversation read from its
// agent.
func (w Writer) enrichment(id, agent string, c *source.Conversation, roots []string) store.Enrichment {
	e := store.Enrichment{
		ConversationID: id,
		Agent:          agent,
		Title:          storedTitle(c),
		Summary:        c.Summary,
		Status:         c.Status,
		Mode:           c.Mode,
		Model:          c.Model,
		CreatedMs:      mstime.Ms(c.Created),
		UpdatedMs:      mstime.Ms(c.Updated),
		UserMessages:   c.Prompts,
		EnrichedMs:     w.Now().UnixMilli(),
		Roots:          roots,
	}
	if len(c.Prompts) > 0 {
		e.FirstMessage = c.Prompts[0]
	}
	if c.TitleFromPrompt {
		e.PromptTitle = c.Title
	}
	base := c.Cwd
	editSource := c.EditSource
	if editSource == "" {
		editSource = store.SourceTool
	}
	loc := &Locator{}
	for _, ed := range c.Edits {
		t := loc.Touch(ed.Path, base, editSource)
		t.AtMs = mstime.Ms(ed.At)
		if !ed.LinesOnly {
			e.Files = append(e.Files, t)
		}
		for _, l := range editLines(t, ed.Added) { // with no repository: they wait (ClaimUnplaced)
			l.AtMs = t.AtMs
			e.Lines = append(e.Lines, l)
		}
	}
	for _, f := range c.ContextFiles {
		e.Files = append(e.Files, loc.Touch(f, base, store.SourceContext))
	}
	return e
}

// Parse reads one hook payload of src. event is the name the hook command
// gave (capture --event): it wins for a source.EventHook, and otherwise
// only fills a payload that names none.
func Parse(src source.Source, data []byte, event string) (source.Activity, error) {
	if eh, ok := src.(source.EventHook); ok && event != "" {
		return eh.ParseHookEvent(data, event)
	}
	a, err := src.ParseHook(data)
	if err == nil && a.Event == "" {
		a.Event = event
	}
	return a, err
}
