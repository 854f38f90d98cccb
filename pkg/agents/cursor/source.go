package cursor

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/git-convo/git-convo/pkg/agents/source"
)

// Name is Cursor's agent name in links.sqlite and in output.
const Name = "cursor"

// Source is Cursor as a source.Source: its hook payloads, its state.vscdb
// (read-only) and the transcripts its hooks name.
type Source struct {
	Getenv func(string) string // locates state.vscdb (CURSOR_DB_PATH)
	db     *DB                 // set by Open: read through it
}

var (
	_ source.Source = Source{}
	_ source.Opener = Source{}
)

// Open implements source.Opener: the source it returns reads every
// conversation through one open state.vscdb (import), until closed.
func (s Source) Open(ctx context.Context) (source.Source, func() error, error) {
	db, _, err := s.open(ctx)
	if err != nil {
		return nil, nil, err
	}
	return Source{Getenv: s.Getenv, db: db}, db.Close, nil
}

// open opens state.vscdb, or returns the one Open opened (with a no-op
// close); a missing database is source.ErrNotFound.
func (s Source) open(ctx context.Context) (*DB, string, error) {
	if s.db != nil {
		return &DB{db: s.db.db, path: s.db.path, shared: true}, s.db.path, nil
	}
	path, err := DefaultDBPath(s.Getenv)
	if err != nil {
		return nil, "", err
	}
	db, err := OpenDB(ctx, path)
	if errors.Is(err, ErrNotFound) {
		return nil, "", notFound{msg: err.Error(), noStore: true}
	}
	return db, path, err
}

// Name implements source.Source.
func (Source) Name() string { return Name }

// ParseHook reads one Cursor hook payload into activity, the same facts
// capture records from it: workspace roots, the prompt and its attachments,
// the response, the status, the edited files and the text written there,
// and a commit the agent ran in its terminal.
func (s Source) ParseHook(data []byte) (source.Activity, error) {
	return s.ParseHookEvent(data, "")
}

// ParseHookEvent implements source.EventHook: the hooks git-convo writes
// into hooks.json name their event (capture --event), which then wins over
// the payload's hook_event_name.
func (Source) ParseHookEvent(data []byte, event string) (source.Activity, error) {
	p, err := ParsePayload(data)
	if err != nil {
		return source.Activity{}, err
	}
	if event == "" {
		event = p.Event
	}
	a := source.Activity{
		ConversationID: p.ConversationID,
		GenerationID:   p.GenerationID,
		Event:          event,
		Model:          p.Model,
		TranscriptPath: p.TranscriptPath,
		Files:          p.EditedFiles(),
		ToolEdit:       event == "postToolUse",
		EndsTurn:       event == "stop" || event == "sessionEnd",
		Commit:         p.ShellCommit(),
	}
	for _, r := range p.WorkspaceRoots {
		if r = NormalizeFSPath(r); r != "" {
			a.Roots = append(a.Roots, r)
		}
	}
	switch event {
	case "beforeSubmitPrompt":
		a.Prompt = strings.TrimSpace(p.Prompt)
		for _, at := range p.Attachments {
			if at.FilePath != "" {
				a.Attachments = append(a.Attachments, at.FilePath)
			}
		}
	case "afterAgentResponse":
		a.Response = strings.TrimSpace(p.Text)
	case "stop":
		a.Status = p.Status
	}
	if added := p.AddedText(); len(added) > 0 {
		a.Added = added
	}
	if writes := p.Writes(); len(writes) > 0 {
		a.Writes = writes
	}
	return a, nil
}

// HookReply is what a Cursor hook prints on stdout for event, whatever
// happened: Cursor waits for it, and beforeSubmitPrompt must let the prompt
// through.
func HookReply(event string) string {
	if event == "beforeSubmitPrompt" {
		return `{"continue":true}`
	}
	return `{}`
}

// ReadConversation reads a conversation from Cursor's database, with the
// transcript file the hooks named as the fallback for its messages, and the
// source of the words before its edits (WordEdits: the database's edits
// have no link to messages). With hint.NoMessages (enrichment, in the stop
// hook) it reads the database alone, and its bubbles once: what ingest
// reads of a conversation never holds the transcript's edits.
func (s Source) ReadConversation(ctx context.Context, id string, hint source.Hint) (*source.Conversation, error) {
	c := &source.Conversation{ID: id, Agent: Name, TranscriptPath: hint.TranscriptPath}
	dbErr := s.readDB(ctx, c, !hint.NoMessages)
	if hint.TranscriptPath == "" || hint.NoMessages {
		if dbErr != nil {
			return nil, dbErr
		}
		return c, nil
	}
	msgs, edits, err := readTranscript(hint.TranscriptPath)
	if err != nil {
		if dbErr != nil {
			return nil, dbErr
		}
		return c, nil
	}
	if dbErr != nil {
		c.Messages = msgs
	}
	c.WordEdits = edits
	return c, nil
}

// notFound is a conversation (or a database) Cursor does not have: it is
// source.ErrNotFound, saying what is missing where; with noStore, the
// whole database is missing (source.ErrNoStore).
type notFound struct {
	msg     string
	noStore bool
}

func (e notFound) Error() string { return e.msg }

func (e notFound) Is(target error) bool {
	return target == source.ErrNotFound || target == ErrNotFound || e.noStore && target == source.ErrNoStore
}

// readDB fills c from the composer and its bubbles: what enrichment stores
// (status, mode, prompts, edited and context files, the lines Cursor's
// diffs say the agent wrote) and, when messages is set, the messages.
func (s Source) readDB(ctx context.Context, c *source.Conversation, messages bool) error {
	db, path, err := s.open(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	comp, err := db.Composer(ctx, c.ID)
	if errors.Is(err, ErrNotFound) {
		return notFound{msg: fmt.Sprintf("conversation %s is not in Cursor's database %s (yet)", c.ID, path)}
	}
	if err != nil {
		return err
	}
	c.Title, c.Summary, c.Model, c.Status, c.Mode = comp.Title, comp.Summary, comp.Model, comp.Status, comp.Mode
	c.Created, c.Updated = comp.CreatedAt, comp.UpdatedAt
	c.Prompts = comp.UserMessages
	if messages {
		c.Messages = comp.messages
	}
	c.EditSource = EditSource
	for _, f := range comp.EditedFiles {
		c.Edits = append(c.Edits, source.Edit{Path: f.Path, At: f.At})
	}
	c.ContextFiles = comp.ContextFiles
	for path, lines := range comp.WrittenLines {
		for _, l := range lines {
			c.Edits = append(c.Edits, source.Edit{Path: path, Added: l.Text, At: l.At, LinesOnly: true})
		}
	}
	return nil
}

// EditSource is what the store calls the edits read from Cursor's
// database (codeBlockData, originalFileStates, newlyCreatedFiles).
const EditSource = "cursor-edit"

// ListConversations finds the conversations of the work trees at roots in
// Cursor's database, by every association import uses (one pass for all
// the roots), in id order, each with the associations it was found by and
// the first root it belongs to as its Cwd.
func (s Source) ListConversations(ctx context.Context, roots []string) ([]source.Ref, error) {
	db, path, err := s.open(ctx)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	found, err := db.FindForRoots(ctx, userDirOf(path), roots)
	if err != nil {
		return nil, err
	}
	out := make([]source.Ref, 0, len(found))
	for id, f := range found {
		out = append(out, source.Ref{ID: id, Cwd: f.Root, Via: f.Via})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// userDirOf is Cursor's User directory for a globalStorage/state.vscdb path,
// "" for a database elsewhere (CURSOR_DB_PATH pointing at a copy).
func userDirOf(dbPath string) string {
	if filepath.Base(filepath.Dir(dbPath)) == "globalStorage" {
		return filepath.Dir(filepath.Dir(dbPath))
	}
	return ""
}
