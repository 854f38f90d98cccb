package cli

// The agent-neutral write path: what capture, enrich and import do with any
// source.Source. Claude Code goes through it today; Cursor's own path in
// capture.go, enrich.go and import.go moves onto it next (docs/agents.md).

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/git-convo/git-convo/pkg/agents"
	"github.com/git-convo/git-convo/pkg/autolink"
	"github.com/git-convo/git-convo/pkg/claude"
	"github.com/git-convo/git-convo/pkg/cursor"
	"github.com/git-convo/git-convo/pkg/gitx"
	"github.com/git-convo/git-convo/pkg/link"
	"github.com/git-convo/git-convo/pkg/source"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/term"
)

// claudeSource is Claude Code for this environment (CLAUDE_CONFIG_DIR).
func claudeSource(env *Env) source.Source { return agents.For(claude.Name, env.Getenv) }

// sourceFor returns the agent a conversation belongs to.
func sourceFor(env *Env, agent string) source.Source { return agents.For(agent, env.Getenv) }

// runAgentCapture records one hook event of src. It never fails, and prints
// nothing on stdout for the agent's own events: Claude Code adds a hook's
// stdout to the model's context (UserPromptSubmit, SessionStart), and any
// non-zero exit shows an error in the user's transcript.
func runAgentCapture(ctx context.Context, env *Env, src source.Source, eventFlag string) {
	log := env.log()
	fail := func(format string, args ...any) {
		msg := fmt.Sprintf(format, args...)
		fmt.Fprintf(env.Stderr, "git-convo capture: %s\n", term.Line(msg))
		log.Printf("capture", "%s", msg)
	}
	data, err := readPayload(env)
	if err != nil {
		fail("%v", err)
		return
	}
	a, err := src.ParseHook(data)
	if err != nil {
		fail("%v (nothing recorded; already recorded data is untouched)", err)
		return
	}
	if a.Foreign {
		// Another program's payload (Cursor runs Claude Code's hook files
		// too): its own hook records it. It gets the neutral reply its
		// own hooks get.
		fmt.Fprintln(env.Stdout, "{}")
		return
	}
	if a.Event == "" {
		a.Event = eventFlag
	}
	if a.ConversationID == "" {
		fail("%s %s payload has no session id; nothing recorded", src.Name(), orUnknown(a.Event))
		return
	}
	atMs := env.Now().UnixMilli()
	s, err := env.openStoreWith(ctx, store.Options{BusyTimeout: hookBusyTimeout})
	if err != nil {
		keep(env, data, a.Event, src.Name(), atMs, err)
		return
	}
	defer s.Close()
	drainSpool(ctx, env, s)
	if err := recordAgentActivity(ctx, env, s, src, a, atMs); err != nil {
		keep(env, data, a.Event, src.Name(), atMs, err)
		return
	}
	if a.EndsTurn {
		if err := enrichFromSource(ctx, env, s, src, a.ConversationID, source.Hint{TranscriptPath: a.TranscriptPath}, nil); err != nil {
			log.Printf("capture", "reading %s conversation %s: %v", src.Name(), a.ConversationID, err)
		}
		linker := &autolink.Linker{Store: s, Config: newConfigCache(ctx).get}
		if _, err := linker.RelinkConversation(ctx, a.ConversationID); err != nil {
			log.Printf("capture", "relinking %s: %v", a.ConversationID, err)
		}
	}
}

// replaySpooled records a spooled event of an agent other than Cursor.
func replaySpooled(ctx context.Context, env *Env, s *store.Store, e spooled) error {
	src := sourceFor(env, e.Agent)
	a, err := src.ParseHook(e.Payload)
	if err != nil || a.Foreign || a.ConversationID == "" {
		return nil // unreadable: drop it rather than block the spool
	}
	if a.Event == "" {
		a.Event = e.Event
	}
	return recordAgentActivity(ctx, env, s, src, a, e.AtMs)
}

// recordAgentActivity stores one event and, when the agent ran git commit
// itself, links that commit to the conversation.
func recordAgentActivity(ctx context.Context, env *Env, s *store.Store, src source.Source, a source.Activity, atMs int64) error {
	// A session's cwd may be a folder inside the work tree: relative paths
	// are relative to it, and the root that conversations are listed by is
	// the work tree's top level.
	if len(a.Roots) > 0 {
		a = withAbsPaths(a, a.Roots[0])
	}
	a.Roots = append([]string(nil), a.Roots...)
	for i, r := range a.Roots {
		if loc, ok := gitx.FindRepoForPath(r); ok {
			a.Roots[i] = loc.TopLevel
		}
	}
	if err := s.RecordActivity(ctx, storeActivity(a, src.Name(), atMs)); err != nil {
		return err
	}
	linkAgentCommitLogged(ctx, env, s, a.ConversationID, a.Commit)
	return nil
}

// linkAgentCommitLogged links the commit an agent ran itself, when there is
// one; a failure only goes to the log: the event is already recorded.
func linkAgentCommitLogged(ctx context.Context, env *Env, s *store.Store, convID string, c *source.AgentCommit) {
	if c == nil {
		return
	}
	if err := linkAgentCommit(ctx, s, convID, *c); err != nil {
		env.log().Printf("capture", "linking the commit %s that %s made: %v", c.Hash, convID, err)
		return
	}
	shareSoon(ctx, env, c.Dir, c.Hash)
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
		added[abs(f)] = texts
	}
	a.Files, a.Attachments, a.Added = files, attachments, added
	return a
}

func isHex(s string) bool {
	if len(s) < 7 || len(s) > 64 {
		return false
	}
	return strings.Trim(s, "0123456789abcdef") == ""
}

// storeActivity is what the store records of one event. Paths become
// repo-relative; a file outside every repository is kept as is, never matched.
func storeActivity(a source.Activity, agent string, atMs int64) store.Activity {
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
	for _, f := range a.Attachments {
		sa.Files = append(sa.Files, touch(f, base, store.SourceAttachment))
	}
	src := store.SourceHook
	if a.ToolEdit {
		src = store.SourceTool
	}
	for _, f := range a.Files {
		sa.Files = append(sa.Files, touch(f, base, src))
	}
	for f, texts := range a.Added {
		t := touch(f, base, src)
		if t.RepoKey == "" {
			continue // a file in no repository is never matched
		}
		for _, text := range texts {
			sa.Lines = append(sa.Lines, editLines(t, text)...)
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

// enrichFromSource reads a conversation from its agent (title, summary,
// model, times, prompts, edits with their times and lines) into the store.
// roots, when given, are the work trees it was found to belong to (import).
func enrichFromSource(ctx context.Context, env *Env, s *store.Store, src source.Source, id string, hint source.Hint, roots []string) error {
	if hint.TranscriptPath == "" {
		if conv, _ := s.GetConversation(ctx, id); conv != nil {
			hint.TranscriptPath = conv.TranscriptPath
		}
	}
	c, err := src.ReadConversation(ctx, id, hint)
	if errors.Is(err, source.ErrNotFound) {
		return fmt.Errorf("conversation %s: %s has no transcript for it (yet)", id, src.Name())
	}
	if err != nil {
		return err
	}
	e := store.Enrichment{
		ConversationID: id,
		Agent:          src.Name(),
		Title:          c.Title,
		Summary:        c.Summary,
		Model:          c.Model,
		CreatedMs:      msOrZero(c.Created),
		UpdatedMs:      msOrZero(c.Updated),
		UserMessages:   c.Prompts,
		EnrichedMs:     env.Now().UnixMilli(),
		Roots:          roots,
	}
	if len(c.Prompts) > 0 {
		e.FirstMessage = c.Prompts[0]
	}
	base := c.Cwd
	for _, ed := range c.Edits {
		t := touch(ed.Path, base, store.SourceTool)
		t.AtMs = msOrZero(ed.At)
		e.Files = append(e.Files, t)
		if t.RepoKey == "" {
			continue
		}
		for _, l := range editLines(t, ed.Added) {
			l.AtMs = t.AtMs
			e.Lines = append(e.Lines, l)
		}
	}
	return s.ApplyEnrichment(ctx, e)
}

func msOrZero(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// importClaude records Claude Code's past sessions of this repository (its
// work trees), with their edits and times. It returns the ids it found.
func importClaude(ctx context.Context, env *Env, s *store.Store, repo *gitx.Repo, p *progress) ([]string, error) {
	src := claudeSource(env)
	// Sessions in any work tree of this repository belong to it.
	roots, err := repo.Worktrees(ctx)
	if err != nil || len(roots) == 0 {
		roots = []string{repo.TopLevel}
	}
	refs, err := src.ListConversations(ctx, roots)
	if err != nil || len(refs) == 0 {
		return nil, err
	}
	p.say("reading %d Claude Code sessions under %s", len(refs), filepath.Join(claude.ConfigDir(env.Getenv), "projects"))
	var ids []string
	for i, r := range refs {
		if ctx.Err() != nil {
			return ids, interrupted(ctx.Err(), fmt.Sprintf("%d of %d Claude Code sessions imported", i, len(refs)))
		}
		p.step("claude", i+1, len(refs))
		root := r.Cwd
		if loc, ok := gitx.FindRepoForPath(root); ok {
			root = loc.TopLevel
		}
		err := enrichFromSource(ctx, env, s, src, r.ID, source.Hint{TranscriptPath: r.TranscriptPath}, []string{root})
		if err != nil {
			env.log().Printf("import", "claude %s: %v", r.ID, err)
			continue
		}
		ids = append(ids, r.ID)
	}
	p.done()
	return ids, nil
}

// loadAgentTranscript reads a conversation of an agent other than Cursor
// from that agent (for Cursor, loadTranscript reads its database). ok is
// false when the agent does not have it.
func loadAgentTranscript(ctx context.Context, env *Env, id string, conv *store.Conversation) (msgs []source.Message, meta source.Meta, ok bool) {
	agent, hint := claude.Name, source.Hint{}
	if conv != nil {
		agent, hint.TranscriptPath = conv.Agent, conv.TranscriptPath
	}
	c, err := sourceFor(env, agent).ReadConversation(ctx, id, hint)
	if err != nil {
		return nil, meta, false
	}
	meta = source.Meta{ID: id, Agent: agent, Title: c.Title, Model: c.Model, Summary: c.Summary, Created: c.Created, Updated: c.Updated}
	if conv != nil {
		meta.Project, meta.Files = conv.ProjectName, conv.CapturedFiles
		if conv.Title != "" {
			meta.Title = conv.Title
		}
	}
	if meta.Project == "" && c.Cwd != "" {
		meta.Project = filepath.Base(c.Cwd)
	}
	if c.Messages == nil {
		c.Messages = []source.Message{}
	}
	return c.Messages, meta, true
}

func agentOrCursor(agent string) string {
	if agent == "" {
		return cursor.Name
	}
	return agent
}

// agentSuffix names a conversation's agent after its confidence in show,
// log and conversations; Cursor, the default, is not named, so output for
// Cursor alone stays as it was.
func agentSuffix(agent string) string {
	if agent == "" || agent == cursor.Name {
		return ""
	}
	return ", " + agents.Display(agent)
}

// agentOf is the agent of the conversation that wrote a line: from the
// commit's linked conversations, else from the store.
func (rc *readContext) agentOf(ctx context.Context, id string, linked []store.LinkedConversation) *string {
	for _, lc := range linked {
		if lc.ConversationID == id {
			a := agentOrCursor(lc.Conv.Agent)
			return &a
		}
	}
	if c, err := rc.store.GetConversation(ctx, id); err == nil && c != nil {
		a := agentOrCursor(c.Agent)
		return &a
	}
	return nil
}
